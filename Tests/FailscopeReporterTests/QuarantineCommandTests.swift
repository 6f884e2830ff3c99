import FailscopeModel
import FailscopeTesting
import Foundation
import XCTest

/// `failscope quarantine` and `failscope test --quarantine obey` against a live service and a real failing test
/// process (the sample app's `cart-quantity-bug` breaks `ItemTests.testAddToCartConfirmsQuantity`).
final class QuarantineCommandTests: XCTestCase {
    private var scratch: URL!
    private var service: ServeProcess!
    private let broken = "testAddToCartConfirmsQuantity"

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("quarantine-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        service = try ServeProcess(dataDirectory: scratch.appendingPathComponent("data"))
    }

    override func tearDown() {
        service.stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// `failscope test [--quarantine mode] -- <ItemTests with the cart bug>` as run `runID`.
    private func itemTests(_ runID: String, quarantine: String?, summary: URL? = nil) throws -> ProcessOutput {
        try runProcess(
            BuildProducts.failscope,
            [
                "test", "--url", service.url.absoluteString, "--token", service.token, "--project", "cli", "--run-id",
                runID,
                "--spool", scratch.appendingPathComponent("spool").path,
            ]
                + (quarantine.map { ["--quarantine", $0] } ?? []) + (summary.map { ["--summary", $0.path] } ?? [])
                + ["--", BuildProducts.testBinary.path, "DemoUITests.ItemTests"],
            environment: childEnvironment(["DEMO_FAULTS": "cart-quantity-bug", "FAILSCOPE_DEVICE": "iPhone 15"]))
    }

    /// `failscope quarantine <arguments>` with the service's URL in the environment and `token`.
    private func quarantine(_ arguments: [String], token: String?) throws -> ProcessOutput {
        try runProcess(
            BuildProducts.failscope, ["quarantine"] + arguments,
            environment: childEnvironment(
                ["FAILSCOPE_URL": service.url.absoluteString, "FAILSCOPE_TOKEN": token ?? "", "USER": "ci-bot"]))
    }

    private var nextWeek: String { QuarantineEntry.dayText(Date().addingTimeInterval(7 * 86_400)) }

    func testObeyForgivesOnlyFailuresOfTestsQuarantinedWhenTheyRan() throws {
        // Before any quarantine the broken test fails the step, obey or not.
        let before = try itemTests("before", quarantine: "obey")
        XCTAssertEqual(before.status, 1, before.standardError)

        // A quarantine narrowed to another device forgives nothing here.
        let other = try quarantine(
            [
                "add", "--project", "cli", "--suite", "ItemTests", "--name", broken, "--device", "iPad", "--owner",
                "ana",
                "--reason", "cart bug on iPad", "--expires", nextWeek,
            ], token: service.token)
        XCTAssertEqual(other.status, 0, other.standardError)
        let narrowed = try itemTests("narrowed", quarantine: "obey")
        XCTAssertEqual(narrowed.status, 1, narrowed.standardError)

        // Quarantined everywhere (with the admin token): obey exits 0, ignore keeps the test command's status.
        let added = try quarantine(
            [
                "add", "--project", "cli", "--suite", "ItemTests", "--name", broken, "--owner", "ana", "--reason",
                "cart bug, JIRA-12", "--expires", nextWeek,
            ], token: service.adminToken)
        XCTAssertEqual(added.status, 0, added.standardError)
        XCTAssertTrue(
            added.standardOutput.hasPrefix(
                "Quarantined #2 cli ItemTests/\(broken) until \(nextWeek) (active, owner ana)"),
            added.standardOutput)
        let summary = scratch.appendingPathComponent("summary.md")
        let obeyed = try itemTests("obeyed", quarantine: "obey", summary: summary)
        XCTAssertEqual(obeyed.status, 0, obeyed.standardError)
        XCTAssertTrue(
            obeyed.standardError.contains(
                "Failscope: 3 results (2 passed, 1 failed, 0 errors, 0 skipped), 1 failing test quarantined, run failed"
            ),
            obeyed.standardError)
        XCTAssertTrue(
            obeyed.standardError.contains(
                "exit 0 instead of 1: every failing test was quarantined (--quarantine obey)"),
            obeyed.standardError)
        let ignored = try itemTests("ignored", quarantine: nil)
        XCTAssertEqual(ignored.status, 1, ignored.standardError)

        // Still recorded, and marked: the run's counts, its result, the pull-request summary.
        let detail = try XCTUnwrap(service.runDetail("obeyed"))
        XCTAssertEqual(detail.summary.status, .failed)
        XCTAssertEqual(detail.summary.statusWithQuarantine, .passed)
        XCTAssertEqual(detail.summary.counts.quarantinedFailingTests, 1)
        let results = detail.pages.flatMap(\.callSites).flatMap(\.results)
        XCTAssertEqual(results.filter(\.quarantined).map(\.name), [broken])
        XCTAssertEqual(try XCTUnwrap(service.runDetail("before")).summary.counts.quarantinedFailingTests, 0)
        let markdown = try String(contentsOf: summary, encoding: .utf8)
        XCTAssertTrue(
            markdown.hasPrefix("### Failscope: ✅ passed with quarantined failures: 1 quarantined\n"), markdown)
        XCTAssertTrue(markdown.contains("#### Failed, quarantined (forgiven) (1)"), markdown)
        XCTAssertFalse(markdown.contains("#### New failures"), markdown)
        let json = try runProcess(
            BuildProducts.failscope,
            [
                "summary", "--run", "obeyed", "--base", "before", "--url", service.url.absoluteString, "--format",
                "json",
            ],
            environment: childEnvironment([:]))
        let comparison = try WireCoding.decoder().decode(RunComparison.self, from: Data(json.standardOutput.utf8))
        XCTAssertEqual(comparison.quarantined.map(\.name), [broken])
        XCTAssertEqual(comparison.stillFailing, [])

        // Lifted: the next run fails the step again; the obeyed run stays forgiven.
        let lifted = try quarantine(
            ["remove", "--project", "cli", "--suite", "ItemTests", "--name", broken, "--reason", "fixed in #31"],
            token: service.token)
        XCTAssertEqual(lifted.status, 0, lifted.standardError)
        XCTAssertTrue(lifted.standardOutput.hasPrefix("Lifted #2 "), lifted.standardOutput)
        let after = try itemTests("after", quarantine: "obey")
        XCTAssertEqual(after.status, 1, after.standardError)
        XCTAssertEqual(try XCTUnwrap(service.runDetail("obeyed")).summary.statusWithQuarantine, .passed)

        // The audit log says who (role and actor), what and why.
        let list = try quarantine(["list", "--all", "--format", "json"], token: nil)
        XCTAssertEqual(list.status, 0, list.standardError)
        let entries = try WireCoding.decoder().decode(QuarantineList.self, from: Data(list.standardOutput.utf8)).entries
        let entry = try XCTUnwrap(entries.first { $0.id == 2 })
        XCTAssertEqual(entry.state, .lifted)
        XCTAssertEqual(
            entry.changes.map { "\($0.action.rawValue) \($0.role.rawValue) \($0.actor): \($0.why)" },
            ["added admin ci-bot: cart bug, JIRA-12", "lifted upload ci-bot: fixed in #31"])
    }

    func testListFormatsAndRefusals() throws {
        let seed = try itemTests("seed", quarantine: nil)
        XCTAssertEqual(seed.status, 1, seed.standardError)
        for name in [broken, "test it's (a) [test].*"] {
            let added = try quarantine(
                [
                    "add", "--project", "cli", "--suite", "ItemTests", "--name", name, "--owner", "ana", "--reason",
                    "r",
                    "--expires", nextWeek,
                ], token: service.token)
            XCTAssertEqual(added.status, 0, added.standardError)
        }
        let text = try quarantine(["list", "--project", "cli"], token: nil)
        XCTAssertEqual(
            text.standardOutput,
            "#2  active  until \(nextWeek)  cli  ItemTests/test it's (a) [test].*  owner ana  reason r\n"
                + "#1  active  until \(nextWeek)  cli  ItemTests/\(broken)  owner ana  reason r\n")

        // swift-test: shell words a shell gives back unchanged, patterns matching exactly their test.
        let swiftTest = try quarantine(["list", "--format", "swift-test"], token: nil)
        let words = try runProcess(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "eval \"set -- $SKIPS\"; printf '%s\\n' \"$@\""],
            environment: childEnvironment(["SKIPS": swiftTest.standardOutput]))
        let lines = words.standardOutput.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 4, words.standardOutput)
        XCTAssertEqual(lines[0], "--skip")
        XCTAssertEqual(lines[2], "--skip")
        func matches(_ pattern: String, _ identifier: String) throws -> Bool {
            let regex = try NSRegularExpression(pattern: pattern)
            return regex.firstMatch(in: identifier, range: NSRange(identifier.startIndex..., in: identifier)) != nil
        }
        XCTAssertTrue(try matches(lines[1], "DemoUITests.ItemTests/test it's (a) [test].*"))
        XCTAssertFalse(try matches(lines[1], "DemoUITests.ItemTests/test it's (a) [test]xx"))
        XCTAssertTrue(try matches(lines[3], "DemoUITests.ItemTests/\(broken)"))
        XCTAssertFalse(try matches(lines[3], "DemoUITests.ItemTests/\(broken)Twice"))
        XCTAssertFalse(try matches(lines[3], "DemoUITests.OtherItemTests/\(broken)"))

        let xcodebuild = try quarantine(["list", "--format", "xcodebuild", "--target", "DemoUITests"], token: nil)
        XCTAssertEqual(
            xcodebuild.standardOutput,
            "'-skip-testing:DemoUITests/ItemTests/test it'\\''s (a) [test].*' "
                + "'-skip-testing:DemoUITests/ItemTests/\(broken)'\n")

        // Refusals: a wrong token, an unknown project, a date in the past, control characters, usage errors.
        let refusals: [([String], String?, Int32, String)] = [
            (
                [
                    "add", "--project", "cli", "--suite", "S", "--name", "n", "--owner", "o", "--reason", "r",
                    "--expires",
                    nextWeek,
                ], "wrong", 1, "401 invalid_token"
            ),
            (
                [
                    "add", "--project", "nobody", "--suite", "S", "--name", "n", "--owner", "o", "--reason", "r",
                    "--expires",
                    nextWeek,
                ], service.token, 1, "404 project_not_found"
            ),
            (
                [
                    "add", "--project", "cli", "--suite", "S", "--name", "n", "--owner", "o", "--reason", "r",
                    "--expires",
                    "2020-01-01",
                ], service.token, 1, "422 validation_failed: expires 2020-01-01 is in the past"
            ),
            (
                [
                    "add", "--project", "cli", "--suite", "S", "--name", "n", "--owner", "o", "--reason", "a\u{1B}[2Jb",
                    "--expires", nextWeek,
                ], service.token, 1, "reason must not contain control characters"
            ),
            (["list", "--format", "xcodebuild"], nil, 64, "--format xcodebuild needs --target"),
            (["remove", "--id", "1"], service.token, 64, "remove needs --reason"),
            (["add", "--project", "cli"], service.token, 64, "add needs --suite"),
            (["pause"], nil, 64, "unknown action 'pause'"),
        ]
        for (arguments, token, status, message) in refusals {
            let output = try quarantine(arguments, token: token)
            XCTAssertEqual(output.status, status, "\(arguments): \(output.standardError)")
            XCTAssertTrue(output.standardError.contains(message), "\(arguments): \(output.standardError)")
            XCTAssertFalse(output.standardError.contains("\u{1B}"), "no terminal escape reaches the terminal")
        }
        let after = try quarantine(["list", "--all", "--format", "json"], token: nil)
        XCTAssertEqual(
            try WireCoding.decoder().decode(QuarantineList.self, from: Data(after.standardOutput.utf8)).entries.count,
            2,
            "nothing refused was stored")
    }
}
