import FailscopeModel
import XCTest

@testable import FailscopeImport

final class JUnitImporterTests: XCTestCase {
    private func parse(_ xml: String, file: StaticString = #filePath, line: UInt = #line) throws -> ParsedReport {
        try JUnitImporter().parse(data: Data(xml.utf8), name: "inline.xml")
    }

    private func test(_ report: ParsedReport, _ name: String) -> ImportedTest? {
        report.tests.first { $0.final.name == name }
    }

    func testCountsComeFromElementsNotTheHeader() throws {
        let report = try parse(
            """
            <testsuites tests="57" failures="9">
              <testsuite name="A" tests="40">
                <testcase classname="A" name="one" time="0.1"/>
                <testcase classname="A" name="two" time="0.2"><failure message="no"/></testcase>
                <testcase classname="A" name="three"><skipped message="later"/></testcase>
              </testsuite>
            </testsuites>
            """)
        XCTAssertEqual(report.summary.tests, 3)
        XCTAssertEqual(report.summary.failures, 1)
        XCTAssertEqual(report.summary.skipped, 1)
        XCTAssertEqual(report.summary.passed, 1)
        XCTAssertTrue(report.warnings.contains { $0.contains("header says 57 tests") && $0.contains("3 <testcase>") })
        XCTAssertEqual(test(report, "three")?.final.skipReason, "later")
    }

    func testZeroTestsIsSuspicious() throws {
        let report = try parse("<testsuites tests='0' failures='0'/>")
        XCTAssertTrue(report.isSuspicious)
        XCTAssertEqual(report.summary.tests, 0)
        XCTAssertTrue(report.warnings.first?.hasPrefix("empty report") == true)
        let counted = try parse("<testsuite name='S' tests='6' failures='1' skipped='2'></testsuite>")
        XCTAssertTrue(counted.isSuspicious)
        XCTAssertTrue(counted.warnings.contains { $0.contains("header says 6 tests") })
    }

    func testRetriesFoldIntoAttemptsAndTheLastDecides() throws {
        let report = try parse(
            """
            <testsuite name="CartUITests">
              <testcase classname="CartUITests" name="testApply()" time="11.0"><failure message="CartUITests.swift:77: tap failed"/></testcase>
              <testcase classname="CartUITests" name="testApply()" time="8.0"/>
              <testcase classname="CartUITests" name="testRemove()" time="8.0"/>
              <testcase classname="CartUITests" name="testRemove()" time="8.0"><error message="boom"/></testcase>
              <testcase classname="OtherTests" name="testApply()" time="1.0"/>
            </testsuite>
            """)
        XCTAssertEqual(report.results.count, 5)
        XCTAssertEqual(report.summary.tests, 4)
        XCTAssertEqual(report.summary.flaky, 1)
        XCTAssertEqual(report.summary.failures, 1)
        let apply = try XCTUnwrap(
            report.tests.first { $0.final.suite == "CartUITests" && $0.final.name == "testApply" })
        XCTAssertEqual(apply.attempts.map(\.attempt), [1, 2])
        XCTAssertEqual(apply.attempts.map(\.status), [.failed, .passed])
        XCTAssertTrue(apply.isFlaky)
        XCTAssertEqual(apply.attempts[0].failures.first?.location, SourceLocation(file: "CartUITests.swift", line: 77))
        // Pass then fail: no retry follows a pass; two executions, the second errored, neither flaky.
        let remove = report.tests.filter { $0.final.name == "testRemove" }
        XCTAssertEqual(remove.map(\.final.status), [.passed, .error])
        XCTAssertEqual(remove.map(\.final.arguments), ["#1", "#2"])
        XCTAssertEqual(remove.map(\.attempts.count), [1, 1])
    }

    func testRepetitionPropertyAndArgumentsKeepCasesApart() throws {
        let report = try parse(
            """
            <testsuites><testsuite name="T">
              <testcase name="check (1)" classname="T" time="0.1"><failure message="a"/>
                <properties><property name="argument" value="1"/><property name="repetition" value="Retry 1"/></properties></testcase>
              <testcase name="check (1)" classname="T" time="0.1">
                <properties><property name="argument" value="1"/><property name="repetition" value="Retry 2"/></properties></testcase>
              <testcase name="check (2)" classname="T" time="0.1">
                <properties><property name="argument" value="2"/><property name="repetition" value="Retry 1"/></properties></testcase>
              <testcase name="same" classname="T" time="0.1"><properties><property name="repetition" value="Retry 1"/></properties></testcase>
              <testcase name="same" classname="T" time="0.2"><properties><property name="repetition" value="Retry 1"/></properties></testcase>
            </testsuite></testsuites>
            """)
        XCTAssertEqual(report.summary.tests, 4)
        XCTAssertEqual(report.summary.flaky, 1)
        XCTAssertEqual(report.tests.first?.final.arguments, "1")
        XCTAssertEqual(report.tests.first?.attempts.count, 2)
        // Two elements with the same label are two tests, not a retry.
        let same = report.tests.filter { $0.final.name == "same" }
        XCTAssertEqual(same.count, 2)
        XCTAssertEqual(same.map { $0.final.arguments }, ["#1", "#2"])
    }

    func testSameTestOnTwoDevicesIsTwoTests() throws {
        let report = try parse(
            """
            <testsuites>
              <testsuite name="LoginTests - iPhone 15 - 17.5">
                <testcase classname="LoginTests - iPhone 15 - 17.5" name="testLogin" time="4.2"/>
              </testsuite>
              <testsuite name="LoginTests">
                <properties><property name="device" value="iPad Pro"/></properties>
                <testcase classname="LoginTests" name="testLogin" time="3.9"><failure message="x"/></testcase>
              </testsuite>
            </testsuites>
            """)
        XCTAssertEqual(report.summary.tests, 2)
        XCTAssertEqual(report.tests.map { $0.final.device }, ["iPhone 15 (17.5)", "iPad Pro"])
        XCTAssertEqual(report.tests.map { $0.final.suite }, ["LoginTests", "LoginTests"])
        XCTAssertEqual(report.tests.map { $0.attempts.count }, [1, 1])
    }

    func testSurefireFlakyAndRerunElements() throws {
        let report = try parse(
            """
            <testsuite name="S">
              <testcase name="flaky" classname="S" time="0.6">
                <flakyFailure message="Expected: &lt;false&gt;" type="AssertionError"><stackTrace>at S.flaky(S.java:58)</stackTrace><system-err>noise</system-err></flakyFailure>
                <flakyError message="timeout"/>
              </testcase>
              <testcase name="broken" classname="S" time="0.2">
                <failure message="first"/>
                <rerunFailure message="second"/>
                <rerunError message="third"/>
              </testcase>
            </testsuite>
            """)
        let flaky = try XCTUnwrap(test(report, "flaky"))
        XCTAssertEqual(flaky.attempts.map(\.status), [.failed, .error, .passed])
        XCTAssertTrue(flaky.isFlaky)
        XCTAssertEqual(flaky.attempts[0].failures.first?.message, "Expected: <false>\nat S.flaky(S.java:58)")
        XCTAssertEqual(flaky.attempts[0].failures.first?.location, SourceLocation(file: "S.java", line: 58))
        XCTAssertEqual(flaky.final.duration, 0.6)
        let broken = try XCTUnwrap(test(report, "broken"))
        XCTAssertEqual(broken.attempts.map(\.status), [.failed, .failed, .error])
        XCTAssertEqual(broken.attempts.map { $0.failures.first?.message }, ["first", "second", "third"])
        XCTAssertEqual(report.summary.failures, 1)
        XCTAssertEqual(report.summary.flaky, 1)
    }

    func testSeveralResultsInOneCase() throws {
        let report = try parse(
            """
            <testsuite name="S">
              <testcase classname="C" name="errors"><skipped/><failure message="f">Assertion failed</failure><error message="teardown">stdout</error></testcase>
              <testcase classname="C" name="fails"><skipped/><failure message="f"/></testcase>
              <testcase classname="C" name="two issues"><failure message="one"/><failure message="two"/></testcase>
              <testcase classname="C" name="disabled" status="disabled"/>
            </testsuite>
            """)
        XCTAssertEqual(test(report, "errors")?.final.status, .error)
        XCTAssertEqual(test(report, "errors")?.final.failures.map(\.isError), [false, true])
        XCTAssertEqual(test(report, "fails")?.final.status, .failed)
        XCTAssertEqual(test(report, "two issues")?.final.failures.map(\.message), ["one", "two"])
        XCTAssertEqual(test(report, "disabled")?.final.status, .skipped)
        XCTAssertEqual(report.summary.failures, 3)
    }

    func testMissingTimeIsUnknownAndNotTheSuiteTime() throws {
        let report = try parse(
            """
            <testsuite name="S" time="0.186">
              <testcase classname="S" name="untimed"/>
              <testcase classname="S" name="comma" time="0,160"/>
              <testcase classname="S" name="thousands" time="1,234.245"/>
              <testcase classname="S" name="scientific" time="1.4e-05"/>
              <testcase classname="S" name="garbage" time="&lt;&lt;computed&gt;&gt;"/>
            </testsuite>
            """)
        XCTAssertNil(test(report, "untimed")?.final.duration)
        XCTAssertEqual(test(report, "comma")?.final.duration ?? 0, 0.160, accuracy: 1e-9)
        XCTAssertEqual(test(report, "thousands")?.final.duration ?? 0, 1234.245, accuracy: 1e-9)
        XCTAssertEqual(test(report, "scientific")?.final.duration ?? 0, 0.000014, accuracy: 1e-12)
        XCTAssertNil(test(report, "garbage")?.final.duration)
        XCTAssertTrue(report.warnings.contains { $0.contains("1 test case time was unreadable") })
        XCTAssertEqual(report.duration ?? 0, 0.186, accuracy: 1e-9)
    }

    func testNamelessCasesAreNotMerged() throws {
        let report = try parse(
            "<testsuites><testsuite><testcase/><testcase><skipped/></testcase><testcase><failure/></testcase></testsuite></testsuites>"
        )
        XCTAssertEqual(report.summary.tests, 3)
        XCTAssertEqual(Set(report.tests.map { $0.final.name }).count, 3)
    }

    func testEntitiesDecodeAndTextStaysLiteral() throws {
        let report = try parse(
            """
            <testsuite name="S">
              <testcase classname="S" name="Test with &quot;quotes&quot; &amp; &lt;brackets&gt;">
                <failure message="element &lt;XCAccessibilityElement: 0x7f8e&gt; pid: 5">SearchFlowTests.swift:42</failure>
              </testcase>
            </testsuite>
            """)
        let only = try XCTUnwrap(report.tests.first)
        XCTAssertEqual(only.final.name, "Test with \"quotes\" & <brackets>")
        XCTAssertEqual(only.final.failures.first?.message, "element <XCAccessibilityElement: 0x7f8e> pid: 5")
        XCTAssertEqual(only.final.failures.first?.location, SourceLocation(file: "SearchFlowTests.swift", line: 42))
        XCTAssertFalse(report.recovered)
    }

    func testMultiLineAttributeKeepsItsLines() throws {
        let report = try parse(
            "<testsuite name='S'><testcase classname='S' name='t'><failure message='first\nsecond\tthird'/></testcase></testsuite>"
        )
        XCTAssertEqual(report.tests.first?.final.failures.first?.message, "first\nsecond\tthird")
    }

    func testSystemOutIsStoredTruncated() throws {
        let long = String(repeating: "x", count: 40_000)
        let report = try JUnitImporter(outputLimit: 1000).parse(
            data: Data(
                "<testsuite name='S'><testcase classname='S' name='t'><system-out><![CDATA[\(long)]]></system-out><system-err>err</system-err></testcase></testsuite>"
                    .utf8))
        let out = try XCTUnwrap(report.results.first?.systemOut)
        XCTAssertTrue(out.hasPrefix(String(repeating: "x", count: 1000) + "\n… [39000 more bytes not stored]"))
        XCTAssertEqual(report.results.first?.systemErr, "err")
    }

    func testControlCharacterIsRecoveredAndSaid() throws {
        let report = try parse(
            "<testsuites><testsuite name='T'><testcase classname='T' name='bold()'><failure message='got \u{1B}[1m$ '/></testcase><testcase classname='T' name='plain()'/></testsuite></testsuites>"
        )
        XCTAssertEqual(report.summary.tests, 2)
        XCTAssertEqual(report.tests.first?.final.failures.first?.message, "got \u{1B}[1m$")
        XCTAssertTrue(report.recovered)
        XCTAssertTrue(
            report.warnings.contains { $0.contains("recovered malformed XML") && $0.contains("control character") })
    }

    func testUnescapedAmpersandLessThanAndQuotesAreRecovered() throws {
        let report = try parse(
            """
            <testsuites><testsuite name="T">
              <testcase classname="Pricing&Tax" name="total is < 100 when "HALF" is used()" time="0.003"><failure message="a < b & c"/></testcase>
              <testcase classname="T" name="testTerms&Conditions" time="4.2"/>
              <testcase classname="T" name="testSettings()"><failure>
                Assertion Failure: ProfileTests.swift:88: XCTAssertNil failed: "<SettingsViewController: 0x7fd9>" -
              </failure></testcase>
            </testsuite></testsuites>
            """)
        XCTAssertEqual(report.summary.tests, 3)
        XCTAssertEqual(report.tests[0].final.suite, "Pricing&Tax")
        XCTAssertEqual(report.tests[0].final.name, "total is < 100 when \"HALF\" is used()")
        XCTAssertEqual(report.tests[0].final.failures.first?.message, "a < b & c")
        XCTAssertEqual(report.tests[0].final.duration ?? 0, 0.003, accuracy: 1e-9)
        XCTAssertEqual(report.tests[1].final.name, "testTerms&Conditions")
        let settings = report.tests[2].final.failures.first
        XCTAssertEqual(settings?.location, SourceLocation(file: "ProfileTests.swift", line: 88))
        XCTAssertEqual(settings?.message, "XCTAssertNil failed: \"<SettingsViewController: 0x7fd9>\"")
        XCTAssertTrue(report.recovered)
        XCTAssertTrue(report.warnings.contains { $0.contains("'&'") && $0.contains("'<'") && $0.contains("quote") })
    }

    func testMalformedFileFailsWithLineAndColumn() {
        XCTAssertThrowsError(
            try parse("<testsuites>\n  <testsuite name='x'>\n    <testcase name='a'></testsuite>\n</testsuites>")
        ) { error in
            let error = error as! ImportError
            XCTAssertEqual(error.file, "inline.xml")
            XCTAssertEqual(error.line, 3)
            XCTAssertNotNil(error.column)
            XCTAssertTrue(error.reason.hasPrefix("malformed XML"), error.reason)
        }
    }

    func testTruncatedFileFailsAndSaysSo() {
        XCTAssertThrowsError(
            try parse(
                "<testsuites>\n<testsuite name='x'>\n<testcase name='a' classname='x'/>\n<testcase name='b'><failure><![CDATA[trace"
            )
        ) { error in
            let error = error as! ImportError
            XCTAssertEqual(error.line, 4)
            XCTAssertTrue(error.reason.contains("inside a CDATA section"), error.reason)
            XCTAssertTrue(error.reason.contains("truncated"), error.reason)
            XCTAssertTrue(error.reason.contains("1 complete test case was read"), error.reason)
        }
    }

    func testNotJUnitIsRejected() {
        XCTAssertThrowsError(try parse("<suites><suite><case/></suite></suites>")) { error in
            XCTAssertTrue((error as! ImportError).reason.contains("unsupported format: the XML root is <suites>"))
        }
    }

    func testByteOrderMarkAndCRLF() throws {
        let report = try parse(
            "\u{FEFF}<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<testsuite name='S'>\r\n<testcase classname='S' name='a' time='1'/>\r\n</testsuite>\r\n"
        )
        XCTAssertEqual(report.summary.tests, 1)
        XCTAssertEqual(report.results.first?.duration, 1)
    }

    func testTimestampGivesTheRunStart() throws {
        let report = try parse(
            "<testsuite name='S' timestamp='2024-01-21T08:17:32' time='9.5'><testcase classname='S' name='a'/></testsuite>"
        )
        XCTAssertEqual(report.startedAt, WireCoding.parseDate("2024-01-21T08:17:32Z"))
        XCTAssertEqual(report.duration, 9.5)
    }
}
