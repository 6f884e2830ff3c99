import FailscopeModel
import XCTest

@testable import FailscopeImport

final class XCResultImporterTests: XCTestCase {
    private func parse(_ json: String) throws -> ParsedReport {
        try XCResultImporter().parse(data: Data(json.utf8), name: "tests.json", format: .xcresultTests)
    }

    func testRepetitionsFoldAndThePassAfterFailIsFlaky() throws {
        let report = try parse(
            """
            {"testNodes":[{"name":"Plan","nodeType":"Test Plan","children":[{"name":"CartUITests","nodeType":"Test Suite","children":[
              {"name":"testApply()","nodeIdentifier":"CartUITests/testApply()","nodeType":"Test Case","result":"Failed","duration":"19s","children":[
                {"name":"Retry 1","nodeType":"Repetition","result":"Failed","duration":"11s","children":[{"name":"CartUITests.swift:77: No matches","nodeType":"Failure Message"}]},
                {"name":"Retry 2","nodeType":"Repetition","result":"Passed","duration":"8s"}]}
            ]}]}]}
            """)
        let test = try XCTUnwrap(report.tests.first)
        XCTAssertEqual(test.attempts.map(\.status), [.failed, .passed])
        XCTAssertEqual(test.attempts.map(\.duration), [11, 8])
        XCTAssertTrue(test.isFlaky)
        XCTAssertEqual(test.attempts[0].failures.first?.location, SourceLocation(file: "CartUITests.swift", line: 77))
        XCTAssertEqual(test.attempts[0].failures.first?.message, "No matches")
        XCTAssertEqual(report.summary.failures, 0)
        XCTAssertEqual(report.summary.flaky, 1)
    }

    func testArgumentsAndDevicesAreDistinctTests() throws {
        let report = try parse(
            """
            {"devices":[{"deviceName":"iPhone 15","osVersion":"17.5","platform":"iOS Simulator"},{"deviceName":"iPad","osVersion":"17.5"}],
             "testNodes":[{"name":"S","nodeType":"Test Suite","children":[
              {"name":"Edits","nodeIdentifier":"S/canEdit(role:)","nodeType":"Test Case","result":"Failed","children":[
                {"name":".viewer","nodeType":"Arguments","result":"Passed"},
                {"name":".guest","nodeType":"Arguments","result":"Failed","children":[{"name":"S.swift:21: Expectation failed","nodeType":"Failure Message"}]}]},
              {"name":"testLogin()","nodeIdentifier":"S/testLogin()","nodeType":"Test Case","result":"Failed","children":[
                {"name":"iPhone 15","nodeType":"Device","result":"Passed","duration":"2,5s"},
                {"name":"iPad","nodeType":"Device","result":"Failed","duration":"3s","children":[{"name":"S.swift:40: banner missing","nodeType":"Failure Message"}]}]}
            ]}]}
            """)
        XCTAssertEqual(report.summary.tests, 4)
        XCTAssertEqual(report.summary.failures, 2)
        XCTAssertEqual(report.results.compactMap(\.arguments), ["role: .viewer", "role: .guest"])
        XCTAssertEqual(report.results.map(\.name), ["canEdit(role:)", "canEdit(role:)", "testLogin", "testLogin"])
        XCTAssertEqual(report.results.compactMap(\.device), ["iPhone 15", "iPad"])
        XCTAssertEqual(report.results.first { $0.device == "iPhone 15" }?.duration, 2.5)
        XCTAssertNil(report.device, "two devices: none is the run's")
    }

    func testSkipReasonDurationsAndEmptyReports() throws {
        let report = try parse(
            """
            {"testNodes":[{"name":"T","nodeType":"Test Suite","children":[
              {"name":"testSkip()","nodeIdentifier":"T/testSkip()","nodeType":"Test Case","result":"Skipped","duration":"0,0052s","children":[{"name":"T.swift:3: Test skipped - later","nodeType":"Failure Message","result":"Skipped"}]},
              {"name":"testNew()","nodeIdentifier":"T/testNew()","nodeType":"Test Case","result":"Passed","duration":"2s","durationInSeconds":2.4},
              {"name":"testOdd()","nodeIdentifier":"T/testOdd()","nodeType":"Test Case","result":"Passed","duration":"soon"}
            ]}]}
            """)
        XCTAssertEqual(report.results[0].status, .skipped)
        XCTAssertEqual(report.results[0].skipReason, "T.swift:3: Test skipped - later")
        XCTAssertEqual(report.results[0].duration ?? 0, 0.0052, accuracy: 1e-12)
        XCTAssertEqual(report.results[1].duration, 2.4)
        XCTAssertNil(report.results[2].duration)
        XCTAssertTrue(report.warnings.contains { $0.contains("1 duration was unreadable") })
        XCTAssertTrue(try parse(#"{"testNodes":[]}"#).isSuspicious)
    }

    func testMalformedJSONSaysWhere() {
        XCTAssertThrowsError(try parse("{\"testNodes\": [\n  {\"name\": }\n]}")) { error in
            let error = error as! ImportError
            XCTAssertEqual(error.file, "tests.json")
            XCTAssertTrue(error.reason.hasPrefix("malformed JSON"), error.reason)
            XCTAssertEqual(error.line, 2)
            XCTAssertEqual(error.column, 12)
        }
    }

    func testLegacySummaries() throws {
        func string(_ value: String) -> String { "{\"_type\":{\"_name\":\"String\"},\"_value\":\"\(value)\"}" }
        let json = """
            {"_type":{"_name":"ActionTestSummary"},"identifier":\(string("T/testFail()")),"name":\(string("testFail()")),
             "testStatus":\(string("Failure")),"duration":{"_type":{"_name":"Double"},"_value":"0.5"},
             "failureSummaries":{"_type":{"_name":"Array"},"_values":[{"_type":{"_name":"ActionTestFailureSummary"},
               "message":\(string("failed - Bad UI")),"fileName":\(string("/src/T.swift")),"lineNumber":{"_type":{"_name":"Int"},"_value":"40"},
               "issueType":\(string("Assertion Failure"))}]}}
            """
        let report = try XCResultImporter().parse(data: Data(json.utf8), format: .xcresultLegacy)
        XCTAssertEqual(report.results.first?.suite, "T")
        XCTAssertEqual(report.results.first?.status, .failed)
        XCTAssertEqual(report.results.first?.duration, 0.5)
        XCTAssertEqual(report.results.first?.failures.first?.location, SourceLocation(file: "/src/T.swift", line: 40))
    }
}
