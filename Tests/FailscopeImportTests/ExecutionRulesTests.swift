import FailscopeModel
import XCTest

@testable import FailscopeImport

/// When repeated `<testcase>` elements are retries of one test and when they are distinct executions, on the
/// small reports in `Tests/ImportReports/` (one per rule, and the mixed cases; outside the test target, so that
/// SwiftPM does not ask to declare them as resources).
final class ExecutionRulesTests: XCTestCase {
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("ImportReports/\(name)").path
    }

    private func importing(_ name: String) throws -> ParsedReport {
        try ReportImporter().parse(fileAt: Self.fixture(name))
    }

    /// `suite/name [arguments] @device: status, status` per test, in first-seen order.
    private func outline(_ report: ParsedReport) -> [String] {
        report.tests.map { test in
            var text = "\(test.final.suite)/\(test.final.name)"
            if let arguments = test.final.arguments { text += " [\(arguments)]" }
            if let device = test.final.device { text += " @\(device)" }
            return text + ": " + test.attempts.map(\.status.rawValue).joined(separator: ", ")
        }
    }

    func testARetryFollowsAFailureOnly() throws {
        let report = try importing("retry-follows-failure.junit.xml")
        XCTAssertEqual(
            outline(report),
            [
                "CartUITests/testApply: failed, passed",
                "CartUITests/testRemove [#1]: passed", "CartUITests/testRemove [#2]: passed",
                "CartUITests/testSearch [#1]: passed", "CartUITests/testSearch [#2]: failed",
            ])
        XCTAssertEqual(report.summary.tests, 5)
        XCTAssertEqual(report.summary.failures, 1)
        XCTAssertEqual(report.summary.flaky, 1)
        XCTAssertEqual(report.results.map(\.attempt), [1, 2, 1, 1, 1, 1])
        XCTAssertTrue(
            report.warnings.contains {
                $0.hasPrefix("2 <testcase> elements repeat a test after it passed")
                    && $0.contains("CartUITests/testRemove")
            }, "\(report.warnings)")
    }

    func testSuitePropertiesNamingDevicesMakeDistinctResults() throws {
        let report = try importing("device-matrix.junit.xml")
        XCTAssertEqual(report.summary.tests, 14)
        XCTAssertEqual(report.summary.attempts, 14)
        XCTAssertEqual(report.summary.failures, 1)
        XCTAssertEqual(report.summary.flaky, 0)
        XCTAssertEqual(
            Dictionary(grouping: report.results, by: { $0.device ?? "-" }).mapValues(\.count),
            ["iPhone 15 (17.5)": 7, "iPad Pro 13-inch (M4) (17.5)": 7])
        XCTAssertEqual(
            report.tests.first { $0.final.status == .failed }.map { "\($0.final.name) \($0.final.device ?? "-")" },
            "testOpenItem iPad Pro 13-inch (M4) (17.5)")
        XCTAssertTrue(report.results.allSatisfy { $0.suite == "CatalogUITests" && $0.arguments == nil })
        XCTAssertEqual(report.warnings, [])
    }

    func testCasePropertiesNamingDestinationsAndConfigurations() throws {
        let report = try importing("case-destinations.junit.xml")
        XCTAssertEqual(
            outline(report),
            [
                "SettingsUITests/testDarkMode @iPhone 15 · English: passed",
                "SettingsUITests/testDarkMode @iPhone 15 · German: failed",
                "SettingsUITests/testDarkMode @iPhone SE (3rd generation) · English: passed",
                "SettingsUITests/testDarkMode @iPhone SE (3rd generation) · German: passed",
            ])
    }

    func testCasesWithoutClassNameBelongToTheirInnermostSuite() throws {
        let report = try importing("nested-suites.junit.xml")
        XCTAssertEqual(
            outline(report),
            [
                "LoginTests/rejectsWrongPassword(): passed", "LoginTests/acceptsValidPassword(): passed",
                "SignupTests/rejectsWrongPassword(): failed", "SignupTests/acceptsValidPassword(): passed",
                "AppTests/launches(): passed",
            ])
    }

    func testParameterizedCasesWithOneNameAreCasesInOrder() throws {
        let report = try importing("parameterized-same-name.junit.xml")
        XCTAssertEqual(
            outline(report),
            [
                "PermissionTests/canEdit(role:isOwner:expected:) [#1]: passed",
                "PermissionTests/canEdit(role:isOwner:expected:) [#2]: failed",
                "PermissionTests/canEdit(role:isOwner:expected:) [#3]: passed",
                "PermissionTests/canEdit(role:isOwner:expected:) [#4]: failed",
            ])
        XCTAssertEqual(report.summary.failures, 2)
        XCTAssertEqual(report.summary.flaky, 0)
        XCTAssertTrue(
            report.warnings.contains { $0.hasPrefix("3 <testcase> elements repeat a parameterized test") },
            "\(report.warnings)")
    }

    func testWhenTheReportCannotTellExecutionsStayDistinctWithAWarning() throws {
        let report = try importing("cannot-tell.junit.xml")
        XCTAssertEqual(
            outline(report),
            ["CheckoutTests/Applies a coupon [#1]: failed", "CheckoutTests/Applies a coupon [#2]: passed"])
        XCTAssertEqual(report.summary.flaky, 0, "a fail then a pass must not invent a flaky test")
        XCTAssertEqual(report.summary.failures, 1)
        XCTAssertTrue(
            report.warnings.contains {
                $0.hasPrefix("1 <testcase> element repeat") && $0.contains("cannot tell a retry")
                    && $0.contains("CheckoutTests/Applies a coupon")
            }, "\(report.warnings)")
    }

    func testASuitesTestsCountTellsARetryFromAnotherCase() throws {
        let report = try importing("counted-retry.junit.xml")
        XCTAssertEqual(
            outline(report),
            ["CheckoutTests/Applies a coupon: failed, passed", "CheckoutTests/Removes a coupon: passed"])
        XCTAssertEqual(report.summary.flaky, 1)
        XCTAssertTrue(
            report.warnings.contains {
                $0.hasPrefix("1 <testcase> element repeats a failed test under a name that could be another case")
                    && $0.contains("tests count says so")
            }, "\(report.warnings)")
    }

    func testDeviceMatrixWithARetryInOneDestination() throws {
        let report = try importing("device-matrix-with-retry.junit.xml")
        XCTAssertEqual(
            outline(report),
            [
                "LoginUITests/testLogin @iPhone 15 (17.5): passed", "LoginUITests/testLogout @iPhone 15 (17.5): passed",
                "LoginUITests/testLogin @iPad Air (17.5): failed, passed",
                "LoginUITests/testLogout @iPad Air (17.5): passed",
            ])
        XCTAssertEqual(report.summary.flaky, 1)
        XCTAssertEqual(report.warnings, [])
    }

    func testNestedSuitesWithRetries() throws {
        let report = try importing("nested-suites-with-retries.junit.xml")
        XCTAssertEqual(
            outline(report),
            [
                "Coupons/appliesDiscount(): failed, passed", "Coupons/rejectsExpired(): passed",
                "GiftCards/appliesDiscount(): failed, failed", "GiftCards/rejectsExpired(): passed",
            ])
        XCTAssertEqual(report.summary.flaky, 1)
        XCTAssertEqual(report.summary.failures, 1)
    }

    func testNamesThatCannotBeAnotherCase() {
        for name in ["testApply", "test_foo", "apply()", "test_sum[1-2]", "test_sum[a b]"] {
            XCTAssertTrue(JUnitExecutions.cannotBeAnotherCase(name), name)
        }
        for name in ["Applies a coupon", "canEdit(role:)", "[1] a", "sum(1, 2)", ""] {
            XCTAssertFalse(JUnitExecutions.cannotBeAnotherCase(name), name)
        }
    }

    func testRetriesInAnotherSuiteElementAreNotFolded() throws {
        // The same class in two suite elements without a named destination: another place, not a retry.
        let report = try JUnitImporter().parse(
            data: Data(
                """
                <testsuites>
                  <testsuite name="Run A"><testcase classname="LoginTests" name="testLogin"><failure message="x"/></testcase></testsuite>
                  <testsuite name="Run B"><testcase classname="LoginTests" name="testLogin"/></testsuite>
                </testsuites>
                """.utf8))
        XCTAssertEqual(outline(report), ["LoginTests/testLogin [#1]: failed", "LoginTests/testLogin [#2]: passed"])
    }
}
