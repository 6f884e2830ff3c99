import FailscopeModel
import FailscopeTesting
import Foundation
import XCTest

/// `failscope test -- <command>` against a live service: one run for every process of the command,
/// the upload at the end, the summary line and the command's exit status.
final class TestCommandTests: XCTestCase {
    private var scratch: URL!
    private var service: ServeProcess!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("test-command-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        service = try ServeProcess(dataDirectory: scratch.appendingPathComponent("data"))
    }

    override func tearDown() {
        service.stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    private func failscopeTest(_ runID: String, _ command: [String], extra: [String: String] = [:]) throws
        -> ProcessOutput
    {
        try runProcess(
            BuildProducts.failscope,
            [
                "test", "--url", service.url.absoluteString, "--token", service.token, "--project", "cli",
                "--run-id", runID, "--spool", scratch.appendingPathComponent("spool").path, "--",
            ] + command, environment: childEnvironment(["FAILSCOPE_DEVICE": "iPhone 15"].merging(extra) { $1 }))
    }

    func testEveryProcessOfTheCommandIsOneRunUploadedAtTheEndWithTheCommandsStatus() throws {
        // Two test processes at once, as `swift test --parallel` starts them.
        let binary = BuildProducts.testBinary.path
        let output = try failscopeTest(
            "cli-run",
            ["/bin/sh", "-c", "'\(binary)' DemoUITests.LoginTests & '\(binary)' DemoUITests.ItemTests; wait"],
            extra: ["DEMO_FAULTS": "cart-quantity-bug"])
        XCTAssertEqual(output.status, 0, "the shell's status (it waits without passing the failure on)")
        XCTAssertFalse(output.standardError.contains("Failscope: 5 results"), "the test processes print no summary")
        XCTAssertTrue(
            output.standardError.contains(
                "Failscope: 8 results (7 passed, 1 failed, 0 errors, 0 skipped), run failed, uploaded to "
                    + "\(service.url.absoluteString)/#/runs/cli-run"), output.standardError)
        let summary = try XCTUnwrap(service.runDetail("cli-run")?.summary)
        XCTAssertEqual(summary.run.project, "cli")
        XCTAssertEqual(summary.counts.total, 8)
        XCTAssertTrue(
            try FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("spool").path).isEmpty)
    }

    func testTheCommandsFailureAndCrashAreItsExitStatus() throws {
        let failing = try failscopeTest(
            "failing", [BuildProducts.testBinary.path, "DemoUITests.ItemTests"],
            extra: ["DEMO_FAULTS": "cart-quantity-bug"])
        XCTAssertEqual(failing.status, 1, failing.standardError)
        XCTAssertTrue(failing.standardError.contains("(2 passed, 1 failed, 0 errors, 0 skipped), run failed"))
        // The run as JUnit XML for a CI's test tab, read back by the importer to the same tests.
        let junit = scratch.appendingPathComponent("failing.xml")
        let export = try runProcess(
            BuildProducts.failscope,
            ["export", "--run", "failing", "--url", service.url.absoluteString, "--output", junit.path],
            environment: childEnvironment([:]))
        XCTAssertEqual(export.status, 0, export.standardError)
        let reimport = try runProcess(
            BuildProducts.failscope, ["import", "--dry-run", "--project", "cli", junit.path],
            environment: childEnvironment([:]))
        XCTAssertTrue(
            reimport.standardOutput.contains("(junit): 3 tests, 1 failure, 0 skipped, 0 flaky, 0 warnings"),
            reimport.standardOutput + reimport.standardError)

        let crashed = try failscopeTest(
            "crashed", [BuildProducts.testBinary.path, "FailscopeReporterTests.CrashFixtureTests"],
            extra: [CrashFixtureTests.switchVariable: "1"])
        #if arch(x86_64)
            XCTAssertEqual(crashed.status, 128 + SIGILL, crashed.standardError)
        #endif
        XCTAssertTrue(
            crashed.standardError.contains("Failscope: 2 results (1 passed, 0 failed, 1 errors, 0 skipped)"),
            crashed.standardError)
        XCTAssertTrue(crashed.standardError.contains("1 test(s) of crashed processes recorded as errors"))
    }

    func testThePullRequestSummarySaysWhatChangedAgainstTheBaseBranch() throws {
        let binary = BuildProducts.testBinary.path
        let base = try failscopeTest("base", [binary, "DemoUITests.ItemTests"], extra: ["FAILSCOPE_BRANCH": "main"])
        XCTAssertEqual(base.status, 0, base.standardError)
        let stepSummary = scratch.appendingPathComponent("step-summary.md")
        try Data("earlier step\n".utf8).write(to: stepSummary)
        let summary = scratch.appendingPathComponent("summary.md")
        let feature = try runProcess(
            BuildProducts.failscope,
            [
                "test", "--url", service.url.absoluteString, "--token", service.token, "--project", "cli",
                "--run-id", "feature", "--spool", scratch.appendingPathComponent("spool").path, "--summary",
                summary.path, "--", binary, "DemoUITests.ItemTests",
            ],
            environment: childEnvironment([
                "FAILSCOPE_BRANCH": "feature/cart", "DEMO_FAULTS": "cart-quantity-bug", "FAILSCOPE_DEVICE": "iPhone 15",
                "GITHUB_STEP_SUMMARY": stepSummary.path,
            ]))
        XCTAssertEqual(feature.status, 1, feature.standardError)
        let markdown = try String(contentsOf: summary, encoding: .utf8)
        XCTAssertTrue(markdown.hasPrefix("### Failscope: ❌ failed: 1 new failure(s)\n"), markdown)
        XCTAssertTrue(markdown.contains("Compared with [run base](\(service.url.absoluteString)/#/runs/base) of main"))
        XCTAssertTrue(markdown.contains("#### New failures (1)"), markdown)
        XCTAssertTrue(
            markdown.contains("[ItemTests.testAddToCartConfirmsQuantity](\(service.url.absoluteString)/#/results/"))
        XCTAssertTrue(markdown.contains("| ItemPage | `ItemTests.swift:"), markdown)
        XCTAssertTrue(markdown.contains("[PNG](\(service.url.absoluteString)/artifacts/"), markdown)
        XCTAssertFalse(markdown.contains("Fixed"), markdown)
        XCTAssertEqual(
            try String(contentsOf: stepSummary, encoding: .utf8), "earlier step\n" + markdown,
            "appended to GitHub's step summary")

        // The same comparison as JSON, with an explicit base.
        let json = try runProcess(
            BuildProducts.failscope,
            ["summary", "--run", "feature", "--base", "base", "--url", service.url.absoluteString, "--format", "json"],
            environment: childEnvironment([:]))
        XCTAssertEqual(json.status, 0, json.standardError)
        let comparison = try WireCoding.decoder().decode(RunComparison.self, from: Data(json.standardOutput.utf8))
        XCTAssertEqual(comparison.newFailures.map(\.name), ["testAddToCartConfirmsQuantity"])
        XCTAssertEqual(comparison.base?.run.id, "base")
    }

    func testTheSummaryEscapesTestControlledText() throws {
        // A report whose names try to become HTML, a link and a table cell break in the Markdown.
        let report = scratch.appendingPathComponent("hostile.xml")
        try Data(
            """
            <testsuites><testsuite name="S"><testcase classname="&lt;img src=x onerror=alert(1)&gt;" \
            name="a|b [x](javascript:alert(1)) **bold**"><failure message="`code` &lt;/td&gt;"/></testcase>\
            </testsuite></testsuites>
            """.utf8
        ).write(to: report)
        let imported = try runProcess(
            BuildProducts.failscope,
            [
                "import", "--project", "cli", "--run-id", "hostile", "--url", service.url.absoluteString, "--token",
                service.token, "--spool", scratch.appendingPathComponent("spool").path, report.path,
            ], environment: childEnvironment([:]))
        XCTAssertEqual(imported.status, 0, imported.standardError + imported.standardOutput)
        let output = try runProcess(
            BuildProducts.failscope, ["summary", "--run", "hostile", "--url", service.url.absoluteString],
            environment: childEnvironment([:]))
        XCTAssertEqual(output.status, 0, output.standardError)
        let markdown = output.standardOutput
        XCTAssertTrue(markdown.contains("&lt;img src=x onerror=alert\\(1\\)&gt;"), markdown)
        XCTAssertFalse(markdown.contains("<img"), markdown)
        XCTAssertFalse(markdown.contains("](javascript"), markdown)
        XCTAssertFalse(markdown.contains("**bold**"), markdown)
        XCTAssertTrue(markdown.contains("a\\|b"), markdown)
        XCTAssertTrue(markdown.contains("\\`code\\` &lt;/td&gt;"), markdown)
    }

    func testWithTheServiceDownTheSummaryCountsWhatWaitsInTheSpool() throws {
        let gone = try ServeProcess(dataDirectory: scratch.appendingPathComponent("gone"))
        let deadURL = gone.url
        gone.stop()
        let output = try runProcess(
            BuildProducts.failscope,
            [
                "test", "--url", deadURL.absoluteString, "--token", "t", "--run-id", "down", "--retry-seconds", "0",
                "--spool", scratch.appendingPathComponent("spool").path, "--", BuildProducts.testBinary.path,
                "DemoUITests.ItemTests",
            ], environment: childEnvironment(["DEMO_FAULTS": "cart-quantity-bug", "FAILSCOPE_DEVICE": "iPhone 15"]))
        XCTAssertEqual(output.status, 1, output.standardError)
        XCTAssertTrue(
            output.standardError.contains(
                "Failscope: 3 results (2 passed, 1 failed, 0 errors, 0 skipped) in the spool, run down, "),
            output.standardError)
        XCTAssertTrue(output.standardError.contains("send them with `failscope upload`"), output.standardError)
    }

    func testWithoutACommandItIsAUsageError() throws {
        let output = try runProcess(
            BuildProducts.failscope, ["test", "--url", service.url.absoluteString], environment: childEnvironment([:]))
        XCTAssertEqual(output.status, 64)
        XCTAssertTrue(output.standardError.contains("Error: the test command is missing"), output.standardError)
    }
}
