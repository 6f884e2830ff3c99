import FailscopeModel
import XCTest

@testable import FailscopeImport

/// Imports every report in the shared corpus (`../shared/cases/`, described by its README) and checks
/// each against the expected interpretation there: counts, failing tests, locations, known and unknown
/// durations, and the clear rejection of files that are not reports.
final class CorpusTests: XCTestCase {
    /// The corpus folder: `FAILSCOPE_CASES`, else `../shared/cases` beside the package, else `/work/shared/cases`.
    static var casesFolder: String? {
        let candidates: [String?] = [
            ProcessInfo.processInfo.environment["FAILSCOPE_CASES"],
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/cases").path,
            "/work/shared/cases",
        ]
        return candidates.compactMap { $0 }.first { FileManager.default.fileExists(atPath: $0 + "/README.md") }
    }

    private typealias Check = (Result<ParsedReport, ImportError>, String) -> Void

    func testEveryCaseFileImportsAsTheREADMEExpects() throws {
        guard let root = Self.casesFolder else {
            throw XCTSkip(
                "the shared report corpus (../shared/cases or FAILSCOPE_CASES) is absent; corpus test skipped")
        }
        let files = (FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? [])
            .filter { path in
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory)
                // README.md and the other projects' expected-result companions are not reports.
                return !isDirectory.boolValue && path != "README.md" && !path.contains(".expected.")
            }
            .sorted()
        XCTAssertGreaterThan(files.count, 60)
        let checks = Self.checks
        for file in files {
            guard let check = checks[file] else {
                XCTFail("\(file): no expectation written for this corpus file")
                continue
            }
            let result: Result<ParsedReport, ImportError>
            do { result = .success(try ReportImporter().parse(fileAt: root + "/" + file)) } catch {
                result = .failure(error)
            }
            check(result, file)
        }
        for file in checks.keys where !files.contains(file) {
            XCTFail("\(file): expected in the corpus but absent")
        }
    }

    /// Pairs of corpus files that describe one run through two writers: the same tests, the same identities.
    func testOneRunThroughTwoWritersHasTheSameTestIdentities() throws {
        guard let root = Self.casesFolder else {
            throw XCTSkip("the shared report corpus (../shared/cases or FAILSCOPE_CASES) is absent; skipped")
        }
        let pairs = [
            // fastlane trainer's default naming and its xcpretty_naming (module prefix, no "()").
            ("junit/fastlane-trainer__Valid1.junit.xml", "junit/fastlane-trainer__Valid1-x.junit.xml", 3),
            ("junit/fastlane-trainer__Valid2.junit.xml", "junit/fastlane-trainer__Valid2-x.junit.xml", 3),
            // xcbeautify on macOS (module-qualified classes) and on Linux.
            (
                "junit/xcbeautify__MixedTestLog_6_0_Expected_XML_macOS.xml",
                "junit/xcbeautify__MixedTestLog_6_0_Expected_XML_Linux.xml", 6
            ),
        ]
        func identities(_ file: String) throws -> Set<String> {
            Set(try ReportImporter().parse(fileAt: root + "/" + file).results.map(\.resultKeyTestPart))
        }
        for (first, second, count) in pairs {
            let one = try identities(first)
            XCTAssertEqual(one.count, count, first)
            XCTAssertEqual(one, try identities(second), "\(first) and \(second)")
        }
    }

    // MARK: Expectations, from ../shared/cases/README.md

    private static var checks: [String: Check] {
        var checks: [String: Check] = [:]

        // §1 junit/
        checks["junit/fastlane-trainer__XCResult.junit.xml"] = imports(tests: 7, failures: 2) { r, f in
            failing(
                r, f, "testFailureJosh1", suite: "TestTests", at: "TestTests.swift", 36,
                message: "XCTAssertTrue failed")
            failing(
                r, f, "testFailureJosh2", suite: "TestThisDude", at: "TestThisDude.swift", 35,
                message: "XCTAssertTrue failed")
        }
        checks["junit/fastlane-trainer__Valid1.junit.xml"] = imports(tests: 3, failures: 1) { r, f in
            failing(r, f, "testExample2", suite: "Unit", at: "Unit.swift", 19, message: "XCTAssertTrue failed")
        }
        checks["junit/fastlane-trainer__Valid1-x.junit.xml"] = imports(tests: 3, failures: 1) { r, f in
            failing(r, f, "testExample2", suite: "Unit", at: "Unit.swift", 19, message: "XCTAssertTrue failed")
        }
        checks["junit/fastlane-trainer__Valid2.junit.xml"] = imports(tests: 3, failures: 0) { r, f in
            XCTAssertEqual(r.duration, 0.4, f)
        }
        checks["junit/fastlane-trainer__Valid2-x.junit.xml"] = imports(tests: 3, failures: 0)
        checks["junit/fastlane-trainer__Xcode16-Mixed-XCTest-SwiftTesting-WithRetries.junit.xml"] = imports(
            tests: 192, failures: 20, skipped: 7
        ) { r, f in
            XCTAssertEqual(r.results.count, 368, f)
            XCTAssertTrue(r.warnings.contains { $0.contains("header says 192") } == false, f)
            XCTAssertTrue(r.tests.allSatisfy { $0.attempts.count == 2 || $0.attempts.count == 1 }, f)
        }
        checks["junit/fastlane-trainer__Xcode16-Mixed-XCTest-SwiftTesting-WithoutRetries.junit.xml"] = imports(
            tests: 192, failures: 20, skipped: 7
        ) { r, f in
            XCTAssertEqual(r.results.count, 192, f)
        }
        checks["junit/xcpretty__FunChatik_UITests_junit.xml"] = imports(tests: 10, failures: 2) { r, f in
            failing(
                r, f, "testCreateUserWithAvatar", suite: "CreateUser", at: "BaseScreen.swift", 29,
                message: "from input {(")
            failing(
                r, f, "testCreateUserWithoutAvatar", suite: "CreateUser", at: "BaseScreen.swift", 29,
                message: "<XCAccessibilityElement: 0x7ffa2e325d60>")
            duration(r, f, "testCreateUserWithAvatar", nil)
            duration(r, f, "testCreateUserWithoutAvatar", nil)
            duration(r, f, "testLogout", 21.218)
        }
        checks["junit/xcpretty__criteo_AdViewerUITests_junit.xml"] = imports(tests: 5, failures: 0) { r, f in
            XCTAssertFalse(r.results.contains { $0.suite == "AdViewerUITests.xctest" }, f)
        }
        checks["junit/xcpretty__SmackAppMax_UITests_junit.xml"] = imports(tests: 6, failures: 0) { r, f in
            let durations = r.results.compactMap(\.duration)
            XCTAssertEqual(durations.count, 6, f)
            XCTAssertEqual(durations.min() ?? 0, 0.019, accuracy: 1e-9, f)
            XCTAssertEqual(durations.max() ?? 0, 16.8, accuracy: 0.05, f)
        }
        for platform in ["macOS", "Linux"] {
            checks["junit/xcbeautify__MixedTestLog_6_0_Expected_XML_\(platform).xml"] = imports(tests: 6, failures: 2) {
                r, f in
                failing(
                    r, f, "testForceFailure", at: "CaptureGroupTests.swift", 34,
                    message: "XCTAssertTrue failed - True is never false.")
                duration(r, f, "testForceFailure", nil)
                // A Swift Testing function named test…() reads as an XCTest method here: JUnit cannot tell them.
                failing(r, f, "testFailTrueIsFalse", at: nil, nil, message: "Swift testing test failed")
            }
        }
        checks["junit/xcbeautify__JUnitReporterTests.expectedLinuxXml.xml"] = imports(
            tests: 85, failures: 3, skipped: 1)
        checks["junit/xcbeautify__JUnitReporterTests.expectedMacOsXml.xml"] = imports(
            tests: 85, failures: 3, skipped: 1)
        checks["junit/xcbeautify__JUnitReporterTests.expectedParallelXml.xml"] = imports(
            tests: 21, failures: 1, skipped: 1)
        for name in ["junit", "junit_merged"] {
            checks["junit/xcresultparser__\(name).xml"] = imports(tests: 7, failures: 1) { r, f in
                failing(
                    r, f, "testCoverageConverter", at: "XcresultparserTests.swift", 109,
                    message: "failed - Unable to create CoverageConverter")
                XCTAssertEqual(r.duration, 9.01, f)
            }
        }
        checks["junit/xcresultparser__junit_repeated.xml"] = imports(tests: 1, failures: 1) { r, f in
            failing(r, f, "test_random", at: "test_repeatTests.swift", 15, message: "Failed with number: 51")
        }
        checks["junit/xcresultparser__junit_session_level_failure.xml"] = imports(tests: 3, failures: 1) { r, f in
            duration(r, f, "passingTest()", nil)
            duration(r, f, "triggerSessionLevelFailure()", nil)
            failing(
                r, f, "Issues recorded without an associated test or suite", at: "SessionLevelFailureTests.swift", 11,
                message: "Task.detached")
            XCTAssertTrue(r.warnings.contains { $0.contains("session-level") }, f)
        }
        checks["junit/xcresultparser__sonarTestExecution.NOT_JUNIT.xml"] = rejects("unsupported format: SonarQube")
        checks["junit/bitrise__ios_xml_output.golden.xml"] = imports(tests: 21, failures: 1, skipped: 1) { r, f in
            failing(
                r, f, "testOMBanner", suite: "BitriseOMUITests", at: "BitriseOMUITests.swift", 70,
                message: "XCTAssertTrue failed - No session found")
            XCTAssertEqual(r.tests.first { $0.final.status == .skipped }?.final.duration ?? 0, 40.6, accuracy: 0.1, f)
        }
        checks["junit/bitrise__testsuites.junit.xml"] = imports(tests: 2, failures: 0)
        checks["junit/trunk__test1.junit.xml"] = imports(tests: 17, failures: 0)
        checks["junit/trunk__test-ExpectedFailures.junit.xml"] = imports(tests: 52, failures: 25) { r, f in
            XCTAssertTrue(r.tests.contains { $0.final.failures.first?.message == "((false) is true) failed" }, f)
        }
        checks["junit/trunk__test-swift-mix.junit.xml"] = imports(tests: 4, failures: 2) { r, f in
            let located = r.tests.first { $0.final.suite == "helloWorldInvalid()" }?.final.failures.first?.location
            XCTAssertEqual(located?.line, 19, f)
            XCTAssertEqual(
                located?.file,
                "/Users/work/src/swift-testing/swift testing example/swift testing exampleTests/swift_testing_exampleTests.swift",
                f)
        }
        checks["junit/trunk__test-swift-without-test-suites.junit.xml"] = imports(tests: 2, failures: 1) { r, f in
            failing(
                r, f, "helloWorldInvalid()", at: "swift_testing_exampleTests.swift", 19, message: "Expectation failed")
            XCTAssertTrue(r.results.allSatisfy { !($0.failures.first?.location?.file.contains("%20") ?? false) }, f)
        }
        checks["junit/trunk__test-swift-snapshot-testing.junit.xml"] = imports(tests: 1, failures: 1) { r, f in
            failing(
                r, f, "failingSnapshot()", at: "SnapshotReproTests.swift", 8,
                message: "Snapshot does not match reference")
            duration(r, f, "failingSnapshot()", nil)
        }

        // §2 junit-variants/
        checks["junit-variants/enricomi__with-xml-entities.xml"] = imports(tests: 4, failures: 2, skipped: 2) { r, f in
            XCTAssertTrue(r.results.contains { $0.name == "Test with \"quotes\" in the test name" }, f)
            XCTAssertEqual(r.tests.filter { $0.final.status == .error }.count, 1, f)
            XCTAssertEqual(r.tests.filter { $0.final.status == .failed }.count, 1, f)
        }
        checks["junit-variants/enricomi__no-attributes.xml"] = imports(tests: 4, failures: 2, skipped: 1)
        checks["junit-variants/enricomi__minimal-attributes.xml"] = imports(tests: 4, failures: 2, skipped: 1) { r, f in
            XCTAssertTrue(r.results.allSatisfy { $0.duration == nil }, f)
        }
        checks["junit-variants/enricomi__junit.multiresult.xml"] = imports(tests: 4, failures: 2, skipped: 1) { r, f in
            XCTAssertEqual(r.tests.first { $0.final.name == "test that errors" }?.final.status, .error, f)
            XCTAssertEqual(
                r.tests.first { $0.final.name == "test that errors" }?.final.failures.last?.message.hasPrefix(
                    "test teardown failure"), true, f)
            XCTAssertEqual(r.tests.first { $0.final.name == "test that fails" }?.final.status, .failed, f)
        }
        for name in ["testsuite-in-testsuite", "testsuite-root"] {
            checks["junit-variants/enricomi__\(name).xml"] = imports(tests: 5, failures: 0)
        }
        checks["junit-variants/enricomi__empty-system-out-err.xml"] = imports(tests: 1, failures: 0) { r, f in
            XCTAssertEqual(r.results.first?.duration, 1.234, f)
        }
        // The README gives both files tests="6"; only no-cases-but-tests says so (no-cases says tests="0").
        checks["junit-variants/enricomi__no-cases.xml"] = imports(tests: 0, failures: 0) { r, f in
            XCTAssertTrue(r.isSuspicious, f)
        }
        checks["junit-variants/enricomi__no-cases-but-tests.xml"] = imports(tests: 0, failures: 0) { r, f in
            XCTAssertTrue(r.isSuspicious, f)
            XCTAssertTrue(r.warnings.contains { $0.contains("header says 6 tests") }, f)
        }
        checks["junit-variants/enricomi__non-junit.xml"] = rejects("the XML root is <suites>")
        checks["junit-variants/enricomi__corrupt-xml.xml"] = rejects("truncated", line: 11)
        checks["junit-variants/enricomi__empty.xml"] = rejects("the file is empty")
        checks["junit-variants/enricomi__non-xml.xml"] = rejects("plain text, not XML or JSON")
        checks["junit-variants/enricomi__xunit.xml"] = imports(tests: 2, failures: 0) { r, f in
            XCTAssertTrue(r.warnings.contains { $0.contains("header says 173") }, f)
        }
        checks["junit-variants/enricomi__suite-logs.xml"] = imports(tests: 1, failures: 1) { r, f in
            XCTAssertEqual(r.results.first?.status, .error, f)
            XCTAssertEqual(r.results.first?.failures.first?.message, "exited with error code 1", f)
        }
        checks["junit-variants/mikepenz__maven_surefire_flaky_surefire-report.xml"] = imports(
            tests: 1, failures: 0, flaky: 1
        ) { r, f in
            XCTAssertEqual(
                r.tests.first?.attempts.first?.failures.first?.message.hasPrefix(
                    "Expected: <false>\n     but: was <true>"), true, f)
            XCTAssertEqual(r.tests.first?.final.status, .passed, f)
        }
        checks["junit-variants/mikepenz__junit_flaky_failure_marathon_junit_report.xml"] = imports(
            tests: 1, failures: 0, flaky: 1)
        checks["junit-variants/mikepenz__junit_flaky_failure_mixed_flaky_and_passed.xml"] = imports(
            tests: 3, failures: 0, flaky: 1)
        checks["junit-variants/mikepenz__flaky_retries_flaky_all_failures.xml"] = imports(tests: 1, failures: 1) {
            r, f in
            XCTAssertEqual(r.tests.first?.attempts.count, 3, f)
        }
        // A retry follows a failure only: the pass is one execution, the failure and the error after it
        // another (pytest-rerunfailures reruns failed tests only), not one test whose last attempt failed.
        checks["junit-variants/mikepenz__flaky_retries_flaky_success_first.xml"] = imports(tests: 2, failures: 1) {
            r, f in
            XCTAssertEqual(r.tests.map { $0.attempts.map(\.status) }, [[.passed], [.failed, .error]], f)
            XCTAssertTrue(r.warnings.contains { $0.contains("repeats a test after it passed") }, f)
        }
        checks["junit-variants/mikepenz__flaky_retries_flaky_with_classname_file.xml"] = imports(
            tests: 3, failures: 0, flaky: 1
        ) { r, f in
            XCTAssertEqual(r.tests.first { $0.isFlaky }?.final.suite, "test_foo.TestFoo", f)
        }
        checks["junit-variants/mikepenz__multiple_failures_test_multiple_errors.xml"] = imports(tests: 3, failures: 2) {
            r, f in
            XCTAssertEqual(r.tests.first { $0.final.name == "testWithMultipleErrors" }?.final.failures.count, 2, f)
            XCTAssertEqual(r.tests.first { $0.final.name == "testWithFailureAndError" }?.final.status, .error, f)
            XCTAssertEqual(
                r.tests.first { $0.final.name == "testWithMultipleErrors" }?.final.failures.first?.location,
                SourceLocation(file: "src/test.ts", line: 101), f)
        }
        checks["junit-variants/mikepenz__nested_multi-level.xml"] = imports(tests: 3, failures: 0)
        checks["junit-variants/mikepenz__issues_testFailedDisabled.xml"] = imports(tests: 1, failures: 1)
        checks["junit-variants/mikepenz__cunit_testEmpty.xml"] = imports(tests: 0, failures: 0) { r, f in
            XCTAssertEqual(r.duration ?? 0, 0.000014, accuracy: 1e-12, f)
            XCTAssertTrue(r.isSuspicious, f)
        }
        checks["junit-variants/mikepenz__corrupt-junit_e2e-tests_corrupt_target_sf-reports_TEST-test.CorruptTest.xml"] =
            rejects("inside a CDATA section")
        // A template placeholder time="<<computed>>": recovered (escaped '<'), the time unknown, and said so.
        // "retried flaky test" fails, another test runs, then it passes: a display name, which nothing tells
        // from another case of that name (the suite's tests="5" for 7 elements fits neither reading), so two
        // executions and a warning rather than an invented flaky test.
        checks["junit-variants/mikepenz__junit-web-test_expectedRetries.xml"] = imports(
            tests: 8, failures: 2, skipped: 1
        ) { r, f in
            XCTAssertTrue(r.recovered, f)
            XCTAssertTrue(r.warnings.contains { $0.contains("time was unreadable") }, f)
            XCTAssertTrue(r.warnings.contains { $0.contains("cannot tell a retry") }, f)
        }
        checks["junit-variants/codecov__error.xml"] = imports(tests: 0, failures: 0) { r, f in
            XCTAssertTrue(r.isSuspicious, f)
            XCTAssertTrue(r.warnings.contains { $0.contains("outside any <testcase>") }, f)
        }
        checks["junit-variants/codecov__no-time.xml"] = imports(tests: 2, failures: 0) { r, f in
            XCTAssertTrue(r.results.allSatisfy { $0.duration == nil }, f)
        }
        checks["junit-variants/codecov__junit-nested-testsuite.xml"] = imports(tests: 2, failures: 1) { r, f in
            XCTAssertTrue(
                r.results.allSatisfy { $0.duration == nil }, "codecov gives these the suite's 0.186 s; unknown is right"
            )
        }
        checks["junit-variants/codecov__empty_failure.junit.xml"] = imports(tests: 2, failures: 1) { r, f in
            failing(r, f, "test.test fails", at: nil, nil, message: "TestError")
        }
        checks["junit-variants/codecov__no-testsuite-name.xml"] = imports(tests: 1, failures: 1) { r, f in
            XCTAssertEqual(r.results.first?.failures.first?.message, "Failed", f)
            XCTAssertEqual(r.results.first?.duration ?? 0, 33.4734, accuracy: 1e-9, f)
        }
        checks["junit-variants/codecov__testsuites.xml"] = imports(tests: 0, failures: 0) { r, f in
            XCTAssertTrue(r.isSuspicious, f)
        }

        // §3 swift-testing/
        checks["swift-testing/dorny__swift-xunit_XCTest.xml"] = imports(tests: 3, failures: 1) { r, f in
            failing(r, f, "test_always_fail", at: nil, nil, message: "failed")
        }
        checks["swift-testing/chickadee__xunit-swift-testing.xml"] = imports(tests: 2, failures: 0)
        checks["swift-testing/event-stream/neotest-swift-testing__test_records.jsonl"] = imports(tests: 0, failures: 0)
        { r, f in
            XCTAssertTrue(r.isSuspicious, f)
            XCTAssertTrue(r.warnings.contains { $0.contains("1 test is declared") }, f)
        }
        checks["swift-testing/event-stream/swift-evolution-ST0013__issueRecorded_event.jsonl"] = imports(
            tests: 1, failures: 1
        ) { r, f in
            failing(
                r, f, "warningIssues()", suite: "EntryPointTests", at: "EntryPointTests.swift", 46,
                message: "Issue recorded")
        }
        // README: "2 tests" counts functions; each parameterized case is its own result here (as in xcresult).
        checks["swift-testing/event-stream/unknown-repo__swift6.4_probe_execution.jsonl"] = imports(
            tests: 3, failures: 0
        ) { r, f in
            XCTAssertEqual(Set(r.results.map(\.name)), ["plain()", "parameter(value:)"], f)
            XCTAssertEqual(Set(r.results.compactMap(\.arguments)), ["value: \"a\"", "value: \"b\""], f)
            XCTAssertEqual(r.duration ?? 0, 0.000631, accuracy: 0.0005, f)
            XCTAssertNotNil(r.results.first { $0.name == "plain()" }?.duration, f)
        }

        // §4 xcresult-json/, xcresult-json-legacy/, plist/
        checks["xcresult-json/codemagic__test_results_tests.json"] = imports(tests: 8, failures: 3, skipped: 1) {
            r, f in
            failing(
                r, f, "testExceptionExample", at: "banaanTests.swift", 50,
                message: "failed: caught error: \"badInput\"")
            failing(r, f, "testFailExample", at: "banaanTests.swift", 44, message: nil)
            failing(r, f, "testUIFailExample", at: "banaanUITests.swift", 40, message: "failed - Bad UI")
            let durations = r.results.compactMap(\.duration).sorted()
            let expected = [0.0011, 0.00045, 0.2, 0.002, 0.26, 0.0052, 2.0, 3.0].sorted()
            XCTAssertEqual(durations.count, expected.count, f)
            for (got, want) in zip(durations, expected) { XCTAssertEqual(got, want, accuracy: 1e-9, f) }
            duration(r, f, "testExceptionExample", 0.2)
            XCTAssertNotNil(r.tests.first { $0.final.status == .skipped }?.final.skipReason, f)
        }
        checks["xcresult-json/codemagic__test_results_summary.json"] = rejects("xcresulttool summary")
        checks["xcresult-json/codemagic__test_results_test_details.json"] = rejects("test-details")
        checks["xcresult-json/trunk__xcresulttool-get-test-results-tests.SCHEMA.json"] = rejects("unsupported format")
        checks["xcresult-json/fastlane__Xcode16-Mixed-XCTest-SwiftTesting.tests.json"] = { result, file in
            guard case .success(let r) = result else { return XCTFail("\(file): \(result)") }
            // 47 Test Case nodes (28 passed, 12 failed, 7 skipped); parameterized ones split into 25 cases here.
            var nodes: [String: [TestStatus]] = [:]
            for test in r.tests {
                nodes[test.final.suite + "/" + test.final.name, default: []].append(test.final.status)
            }
            XCTAssertEqual(nodes.count, 47, file)
            let rolled = nodes.values.map { statuses -> TestStatus in
                if statuses.contains(where: { $0 == .failed || $0 == .error }) { return .failed }
                return statuses.allSatisfy { $0 == .skipped } ? .skipped : .passed
            }
            XCTAssertEqual(rolled.filter { $0 == .passed }.count, 28, file)
            XCTAssertEqual(rolled.filter { $0 == .failed }.count, 12, file)
            XCTAssertEqual(rolled.filter { $0 == .skipped }.count, 7, file)
            // README: 28 Test Case nodes have Repetition children (one has a single "Retry 1"); 7 parameterized
            // tests have Repetitions inside their Arguments nodes: 27 + 7 tests were retried.
            XCTAssertEqual(
                Set(r.tests.filter { $0.attempts.count > 1 }.map { $0.final.suite + "/" + $0.final.name }).count, 34,
                file)
            XCTAssertEqual(
                Set(r.tests.filter { $0.final.arguments != nil }.map { $0.final.suite + "/" + $0.final.name }).count, 8,
                file)
            XCTAssertEqual(r.device, "iPhone 16 Pro", file)
            XCTAssertEqual(r.osVersion, "iOS 18.2", file)
        }
        checks["xcresult-json-legacy/codemagic__ActionTestPlanRunSummaries_A.legacy.json"] = imports(
            tests: 7, failures: 3, skipped: 1
        ) { r, f in
            XCTAssertEqual(
                Set(r.tests.filter { $0.final.status == .failed }.map(\.final.name)),
                ["testExceptionExample", "testFailExample", "testUIFailExample"], f)
        }
        checks["xcresult-json-legacy/codemagic__ActionTestSummary_testUIFailExample_with_screenshots.legacy.json"] =
            imports(tests: 1, failures: 1) { r, f in
                failing(r, f, "testUIFailExample", at: "banaanUITests.swift", 40, message: "failed - Bad UI")
            }
        checks["xcresult-json-legacy/codemagic__ActionTestSummary_testExceptionExample.legacy.json"] = imports(
            tests: 1, failures: 1
        ) { r, f in
            XCTAssertEqual(r.results.first?.failures.first?.isError, true, f)
        }
        checks["xcresult-json-legacy/codemagic__actions_invocation_record.legacy.json"] = rejects(
            "ActionsInvocationRecord holds only references")
        for name in ["Valid1", "Valid2"] {
            checks["plist/fastlane-trainer__\(name).TestSummaries.plist"] = rejects("a property list")
        }
        for name in ["MixedTestLog_6_0_macOS", "ParallelTestLog", "TestLog"] {
            checks["raw-logs/xcbeautify__\(name).txt"] = rejects("a test console log")
        }

        // §5 issues/
        checks["issues/01_spm-7383_xctskip-reported-as-pass.xunit.xml"] = imports(tests: 3, failures: 1) { r, f in
            failing(r, f, "testRemoveLastItem", at: nil, nil, message: "failed")  // the XML alone cannot tell the skip
        }
        checks["issues/01_spm-7383_xctskip-reported-as-pass.console.log"] = rejects("a test console log")
        checks["issues/02_swift-testing-1917_control-char-in-junit.xml"] = imports(tests: 2, failures: 1) { r, f in
            failing(r, f, "rendersBoldPrompt()", at: nil, nil, message: "\u{1B}[1m")
            XCTAssertTrue(r.recovered, f)
        }
        checks["issues/03_swift-testing-pr1918_unescaped-name-and-classname.xml"] = imports(tests: 3, failures: 1) {
            r, f in
            failing(r, f, "total is < 100 when coupon \"HALF\" is used()", at: nil, nil, message: "< 100")
            XCTAssertTrue(r.results.contains { $0.suite == "Pricing&Tax" && $0.name == "rounding()" }, f)
            XCTAssertTrue(r.recovered, f)
        }
        checks["issues/04_xctesthtmlreport-186_ampersand-in-testname.junit.xml"] = imports(tests: 3, failures: 0) {
            r, f in
            XCTAssertEqual(
                Set(r.results.map(\.name)),
                ["testTerms&Conditions_Accept", "testTerms&Conditions_Decline", "testSkipIntro"], f)
            XCTAssertTrue(
                r.results.allSatisfy { $0.suite == "OnboardingUITests" && $0.device == "iPhone 15 (17.5)" }, f)
        }
        checks["issues/05_xctesthtmlreport-103-131_unescaped-angle-brackets-in-failure.junit.xml"] = imports(
            tests: 2, failures: 2
        ) { r, f in
            failing(
                r, f, "testDismissSettings", at: "ProfileTests.swift", 88,
                message: "XCTAssertNil failed: \"<SettingsViewController: 0x7fd99fe00000>\"")
            failing(r, f, "testAvatarUpload", at: nil, nil, message: "Application com.example.profile is not running")
        }
        checks["issues/07_xcpretty-320_html-report-must-escape-decoded-text.junit.xml"] = imports(tests: 2, failures: 2)
        { r, f in
            failing(
                r, f, "testOpenFilters", at: "SearchFlowTests.swift", 42,
                message: "<XCAccessibilityElement: 0x7f8e1a40c9a0>")
            failing(r, f, "testClearQuery", at: "SearchFlowTests.swift", 67, message: "from input <unknown>")
            XCTAssertTrue(r.results.allSatisfy { $0.duration == nil }, f)
            XCTAssertFalse(r.recovered, f)
        }
        checks["issues/09a_xcpretty-344_empty-report-after-parallel-run.junit.xml"] = imports(tests: 0, failures: 0) {
            r, f in
            XCTAssertTrue(r.isSuspicious, f)
            XCTAssertTrue(r.warnings.first?.hasPrefix("empty report") == true, f)
        }
        checks["issues/09b_xcbeautify-83_parallel-console-excerpt.log"] = rejects("a test console log")
        checks["issues/11a_locale_decimal-comma-and-thousands-separator.junit.xml"] = imports(tests: 3, failures: 0) {
            r, f in
            duration(r, f, "testParsesSmallFile", 0.160)
            duration(r, f, "testParsesHugeFile", 1234.245)
            duration(r, f, "testEmptyFile", 0.162)
        }
        checks["issues/11b_codemagic_xcresulttool-duration-strings.json"] = imports(tests: 6, failures: 0) { r, f in
            duration(r, f, "testTiny", 0.00045)
            duration(r, f, "testShort", 0.26)
            duration(r, f, "testMinute", 63.01)
            duration(r, f, "testDotted", 63.01)
            duration(r, f, "testLong", 360)
            duration(r, f, "testNew", 2.4)
        }
        checks["issues/12a_xcresultparser-67_passed-on-retry.tests.json"] = imports(tests: 2, failures: 1, flaky: 1) {
            r, f in
            let apply = r.tests.first { $0.final.name == "testApplyCoupon" }
            XCTAssertEqual(apply?.final.status, .passed, f)
            XCTAssertEqual(apply?.attempts.first?.failures.first?.location?.line, 77, f)
            failing(r, f, "testRemoveCoupon", at: "CartUITests.swift", 102, message: "XCTAssertFalse failed")
            XCTAssertEqual(r.tests.first { $0.final.name == "testRemoveCoupon" }?.attempts.count, 3, f)
            XCTAssertEqual(r.device, "iPhone 15", f)
        }
        checks["issues/12b_xctesthtmlreport-217_retries-as-duplicate-testcases.junit.xml"] = imports(
            tests: 2, failures: 1, flaky: 1
        ) { r, f in
            XCTAssertEqual(r.results.count, 5, f)
            failing(r, f, "testRemoveCoupon", at: "CartUITests.swift", 102, message: "XCTAssertFalse failed")
        }
        checks["issues/13b_parameterized-arguments-nodes.tests.json"] = imports(tests: 4, failures: 2) { r, f in
            let statuses = Dictionary(uniqueKeysWithValues: r.tests.map { ($0.final.arguments ?? "", $0.final.status) })
            XCTAssertEqual(
                statuses,
                [
                    "role: .viewer, isOwner: false, expected: false": .passed,
                    "role: .editor, isOwner: false, expected: true": .failed,
                    "role: .admin, isOwner: true, expected: true": .passed,
                    "role: .guest, isOwner: true, expected: false": .failed,
                ], f)
            XCTAssertTrue(
                r.tests.filter { $0.final.status == .failed }.allSatisfy {
                    $0.final.failures.first?.location?.line == 21
                }, f)
        }
        checks["issues/14_xctesthtmlreport-197-357-70_screenshots.manifest.json"] = rejects("unsupported format: JSON")
        checks["issues/15_huge-report.head-sample.txt"] = rejects("truncated")
        checks["issues/15_junit-plugin-467_action-junit-report-880_huge-report.gen.py"] = rejects("plain text")
        checks["issues/16_xcresultparser-39_xcparse-87_xcode16-xcresulttool-legacy.stderr.txt"] = rejects("plain text")
        checks["issues/17_skipstone-234_spm-9960_xunit-output-split/xunit.xml"] = imports(tests: 2, failures: 0)
        checks["issues/17_skipstone-234_spm-9960_xunit-output-split/xunit-swift-testing.xml"] = imports(
            tests: 3, failures: 1, skipped: 1
        ) { r, f in
            failing(r, f, "formatsYen()", at: nil, nil, message: "\"¥1,000\") == \"￥1,000\"")
            duration(r, f, "formatsBitcoin()", nil)
            XCTAssertEqual(
                r.tests.first { $0.final.name == "formatsBitcoin()" }?.final.skipReason, "not supported yet", f)
        }
        checks["issues/18_swift-testing-pr549_junit-counting-semantics.xml"] = imports(
            tests: 4, failures: 2, skipped: 1
        ) { r, f in
            XCTAssertEqual(r.tests.first { $0.final.name == "mergesTwoDevices()" }?.final.failures.count, 2, f)
            duration(r, f, "iCloudRoundTrip()", nil)
        }
        return checks
    }

    // MARK: Helpers

    private static func imports(
        tests: Int, failures: Int, skipped: Int = 0, flaky: Int = 0, _ more: ((ParsedReport, String) -> Void)? = nil
    ) -> Check {
        { result, file in
            switch result {
            case .failure(let error):
                XCTFail("\(file): expected an import, got \(error)")
            case .success(let report):
                let summary = report.summary
                XCTAssertEqual(summary.tests, tests, "\(file): tests")
                XCTAssertEqual(summary.failures, failures, "\(file): failures")
                XCTAssertEqual(summary.skipped, skipped, "\(file): skipped")
                XCTAssertEqual(summary.flaky, flaky, "\(file): flaky")
                XCTAssertEqual(report.isSuspicious, tests == 0, "\(file): suspicious")
                more?(report, file)
            }
        }
    }

    private static func rejects(_ reason: String, line: Int? = nil) -> Check {
        { result, file in
            switch result {
            case .success(let report):
                XCTFail("\(file): expected a rejection, imported \(report.summary)")
            case .failure(let error):
                XCTAssertTrue(error.reason.contains(reason), "\(file): \(error.reason)")
                XCTAssertTrue(error.file.hasSuffix(file), "\(file): error names \(error.file)")
                if let line { XCTAssertEqual(error.line, line, "\(file): line") }
            }
        }
    }

    /// The named test failed, at `file:line` (nil: no location), with a message containing `message`.
    private static func failing(
        _ report: ParsedReport, _ corpusFile: String, _ name: String, suite: String? = nil, at file: String?,
        _ line: Int?,
        message: String?
    ) {
        guard
            let test = report.tests.first(where: { $0.final.name == name && (suite == nil || $0.final.suite == suite) })
        else {
            return XCTFail("\(corpusFile): no test \(name)")
        }
        XCTAssertTrue(
            test.final.status == .failed || test.final.status == .error,
            "\(corpusFile): \(name) is \(test.final.status)")
        let failure = test.final.failures.first
        XCTAssertEqual(failure?.location?.fileName, file, "\(corpusFile): \(name) location file")
        XCTAssertEqual(failure?.location?.line, line, "\(corpusFile): \(name) location line")
        if let message {
            XCTAssertTrue(
                failure?.message.contains(message) == true,
                "\(corpusFile): \(name) message \(failure?.message ?? "nil")")
        }
    }

    private static func duration(_ report: ParsedReport, _ corpusFile: String, _ name: String, _ seconds: Double?) {
        guard let test = report.tests.first(where: { $0.final.name == name }) else {
            return XCTFail("\(corpusFile): no test \(name)")
        }
        if let seconds {
            XCTAssertEqual(test.final.duration ?? -1, seconds, accuracy: 1e-9, "\(corpusFile): \(name) duration")
        } else {
            XCTAssertNil(test.final.duration, "\(corpusFile): \(name) duration must be unknown")
        }
    }
}
