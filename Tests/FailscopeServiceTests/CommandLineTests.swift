import FailscopeModel
import FailscopeStore
import FailscopeTesting
import Foundation
import XCTest

/// The built `failscope` binary's migrate, gc and runs subcommands: output and exit codes.
final class CommandLineTests: XCTestCase {
    private func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let outcome = try runProcess(BuildProducts.failscope, arguments)
        return (outcome.status, outcome.standardOutput, outcome.standardError)
    }

    func testADatabaseThatCannotBeOpenedExitsWith69() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        // A folder where the database file should be: SQLite cannot open it.
        try FileManager.default.createDirectory(
            at: data.appendingPathComponent(FailscopeStore.databaseFileName), withIntermediateDirectories: true)
        for command in [["migrate"], ["gc", "--keep-days", "3"], ["serve", "--port", "0"]] {
            let outcome = try run(command + ["--data", data.path])
            XCTAssertEqual(outcome.status, 69, "\(command): \(outcome.error)")
            XCTAssertTrue(outcome.error.contains("the database is unavailable"), outcome.error)
            XCTAssertFalse(outcome.error.contains(data.path), "no path in the message: \(outcome.error)")
        }
    }

    func testMigrateAPostgreSQLDatabaseAndRefuseAPasswordInItsURI() throws {
        guard let server = ProcessInfo.processInfo.environment["FAILSCOPE_TEST_POSTGRES_URL"], !server.isEmpty else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                XCTFail("CI=true but no FAILSCOPE_TEST_POSTGRES_URL")
            }
            throw XCTSkip(PostgresTestServer.skipped)
        }
        let schema = "cli_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let psql = Process()
        psql.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        psql.arguments = [server, "-qc", "CREATE SCHEMA \(schema)"]
        try psql.run()
        psql.waitUntilExit()
        XCTAssertEqual(psql.terminationStatus, 0)
        let url = server + (server.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
        let first = try run(["migrate", "--database", url])
        XCTAssertEqual(first.status, 0, first.error)
        XCTAssertEqual(
            first.output,
            "Applied 0001_baseline\nApplied 0002_quarantine\nApplied 0003_trail_step_trace\nApplied 0004_webhooks\n"
                + "Applied 0005_failure_signatures\nApplied 0006_passed_durations\nApplied 0007_webhook_filters\nApplied 0008_results_by_commit\n"
                + "Applied 0009_results_by_commit_test\n")
        XCTAssertEqual(
            try run(["migrate", "--database", url]).output, "Database is up to date (0009_results_by_commit_test).\n")

        let secret = "postgres://failscope:s3cret@127.0.0.1:5432/failscope"
        let refused = try run(["migrate", "--database", secret])
        XCTAssertEqual(refused.status, 64)
        XCTAssertTrue(refused.error.contains("PGPASSWORD"), refused.error)
        XCTAssertFalse(refused.error.contains("s3cret"), refused.error)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        // gc, runs and flaky --data on the PostgreSQL database (empty: nothing to delete, no runs, no flaky tests).
        let gc = try run(["gc", "--keep-days", "3", "--data", data.path, "--database", url])
        XCTAssertEqual(gc.status, 0, gc.error)
        XCTAssertTrue(gc.output.contains("0 runs"), gc.output)
        let runs = try run(["runs", "--data", data.path, "--database", url, "--json"])
        XCTAssertEqual(runs.status, 0, runs.error)
        XCTAssertTrue(runs.output.contains("\"runs\":[]"), runs.output)
        let flaky = try run(["flaky", "--data", data.path, "--database", url, "--json"])
        XCTAssertEqual(flaky.status, 0, flaky.error)
        XCTAssertTrue(flaky.output.contains("\"flaky\" : ["), flaky.output)
        let unreachableURI = "postgres://failscope@127.0.0.1:1/failscope?connect_timeout=2"
        for command in [
            ["migrate"], ["gc", "--keep-days", "3"], ["serve", "--port", "0"], ["runs"], ["flaky"],
        ] {
            let unreachable = try run(command + ["--data", data.path, "--database", unreachableURI])
            XCTAssertEqual(unreachable.status, 69, "\(command): \(unreachable.error)")
            XCTAssertTrue(unreachable.error.contains("the database is unavailable"), "\(command): \(unreachable.error)")
        }
    }

    func testMigrateGCAndRunsOnADataFolder() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let first = try run(["migrate", "--data", data.path])
        XCTAssertEqual(first.status, 0, first.error)
        XCTAssertEqual(
            first.output,
            "Created a new database at \(data.appendingPathComponent(FailscopeStore.databaseFileName).path)\n"
                + "Applied 0001_baseline\nApplied 0002_quarantine\nApplied 0003_trail_step_trace\nApplied 0004_webhooks\n"
                + "Applied 0005_failure_signatures\nApplied 0006_passed_durations\nApplied 0007_webhook_filters\nApplied 0008_results_by_commit\n"
                + "Applied 0009_results_by_commit_test\n")
        XCTAssertEqual(
            try run(["migrate", "--data", data.path]).output, "Database is up to date (0009_results_by_commit_test).\n")

        let store = try FailscopeStore(directory: data)
        // An imported run's id is long; the table shows it whole, for `export --run`.
        let oldID = "import-cd4f1385055b633122e0a820bf90bcdd0a1b2c3d"
        var old = sampleRun(id: oldID, branch: "x\u{1B}[31m")
        old.startedAt = Date().addingTimeInterval(-40 * 86_400)
        try store.putRun(old)
        try store.putRun(Run(id: "new", project: "Shop", branch: "main", startedAt: Date()))
        try store.addResults(ResultBatch(results: [failingResult()]), toRun: "new")
        store.close()

        let table = try run(["runs", "--data", data.path])
        XCTAssertEqual(table.status, 0, table.error)
        let lines = table.output.split(separator: "\n")
        XCTAssertTrue(lines.first?.hasPrefix("STATUS") == true)
        XCTAssertTrue(lines[1].hasPrefix("incomplete"), table.output)
        XCTAssertTrue(lines[1].hasSuffix("new"))
        XCTAssertTrue(lines[2].hasSuffix("  " + oldID), table.output)
        XCTAssertTrue(lines[2].contains("x?[31m"), "control characters never reach the terminal: \(table.output)")
        let json = try run(["runs", "--data", data.path, "--json", "--limit", "1"])
        let list = try WireCoding.decoder().decode(RunList.self, from: Data(json.output.utf8))
        XCTAssertEqual(list.runs.map(\.run.id), ["new"])
        XCTAssertNotNil(list.nextCursor)

        let gc = try run(["gc", "--keep-days", "30", "--data", data.path])
        XCTAssertEqual(gc.status, 0, gc.error)
        XCTAssertTrue(gc.output.hasPrefix("Deleted 1 runs, 0 results"), gc.output)
        XCTAssertEqual(try run(["gc", "--data", data.path]).status, 64)
        XCTAssertEqual(try run(["gc", "--keep-days", "0", "--data", data.path]).status, 64)
        XCTAssertEqual(try run(["runs", "--status", "green", "--data", data.path]).status, 64)
        XCTAssertEqual(try run(["runs", "--data", data.path + "-nowhere"]).status, 69, "no data folder")
    }

    /// `failscope slowest --data`: the slowest tests by p95 and a p50 regression, as a table and as the API's JSON.
    func testSlowestOnADataFolder() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let store = try FailscopeStore(directory: data)
        for index in 0..<20 {
            try store.putRun(
                Run(id: "d\(index)", project: "Shop", branch: "main", startedAt: Date().addingTimeInterval(Double(index - 30) * 60)))
            try store.addResults(
                ResultBatch(results: [
                    TestResult(suite: "CartTests", name: "testCheckout", status: .passed, duration: index < 10 ? 1 : 2),
                    TestResult(suite: "CartTests", name: "testAdd", status: .passed, duration: 0.25),
                ]), toRun: "d\(index)")
        }
        store.close()
        let table = try run(["slowest", "--project", "Shop", "--data", data.path])
        XCTAssertEqual(table.status, 0, table.error)
        let lines = table.output.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("CartTests.testCheckout") && $0.contains(" 1.00 s ") && $0.contains(" 2.00 s ") }, table.output)
        XCTAssertTrue(lines.contains { $0.contains("CartTests.testCheckout") && $0.hasSuffix("1.00 s → 2.00 s") }, table.output)
        let json = try run(["slowest", "--project", "Shop", "--data", data.path, "--json"])
        let report = try WireCoding.decoder().decode(DurationReport.self, from: Data(json.output.utf8))
        XCTAssertEqual(report.slowest.map(\.test.name), ["testCheckout", "testAdd"])
        XCTAssertEqual(report.regressions.map(\.recentP50), [2])
        XCTAssertEqual(try run(["slowest", "--data", data.path]).status, 64, "--project is required")
    }

    /// `failscope slowest --actions --data`: the slowest page actions and a p50 regression, from timed trail steps.
    func testSlowestActionsOnADataFolder() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let store = try FailscopeStore(directory: data)
        for index in 0..<20 {
            try store.putRun(
                Run(
                    id: "a\(index)", project: "Shop", branch: "main",
                    startedAt: Date().addingTimeInterval(Double(index - 30) * 60)))
            try store.addResults(
                ResultBatch(results: [
                    TestResult(
                        suite: "CatalogTests", name: "testSearch", status: .failed,
                        trail: [
                            TrailStep(page: "CatalogPage", action: "search(_:)", duration: index < 10 ? 1 : 2),
                            TrailStep(page: "CatalogPage", action: "tap(_:)", duration: 0.000_338),
                            TrailStep(page: "CatalogPage", action: "open(_:)", duration: 30),
                        ])
                ]), toRun: "a\(index)")
        }
        store.close()
        let table = try run(["slowest", "--actions", "--project", "Shop", "--data", data.path])
        XCTAssertEqual(table.status, 0, table.error)
        let lines = table.output.split(separator: "\n").map(String.init)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("Slowest page actions since ") && $0.hasSuffix(": 2") }, table.output)
        XCTAssertTrue(lines.contains { $0.hasPrefix("ACTION") && $0.hasSuffix("STEPS") }, table.output)
        XCTAssertTrue(
            lines.contains { $0.hasPrefix("CatalogPage.search(_:)") && $0.contains(" 1.00 s ") && $0.contains(" 2.00 s ") },
            table.output)
        XCTAssertTrue(
            lines.contains { $0.contains("CatalogPage.search(_:)") && $0.hasSuffix("1.00 s → 2.00 s") }, table.output)
        XCTAssertTrue(lines.contains { $0.hasPrefix("CatalogPage.tap(_:)") && $0.contains(" 338 µs ") }, table.output)
        let json = try run(["slowest", "--actions", "--project", "Shop", "--data", data.path, "--json"])
        let report = try WireCoding.decoder().decode(ActionDurationReport.self, from: Data(json.output.utf8))
        // open(_:) is each failing result's last step: cut short by the failure, not counted.
        XCTAssertEqual(report.slowest.map(\.action.name), ["CatalogPage.search(_:)", "CatalogPage.tap(_:)"])
        XCTAssertEqual(report.slowest.map(\.count), [20, 20])
        XCTAssertEqual(report.regressions.map(\.recentP50), [2])
    }

    /// Bidi controls and invisible characters in test-controlled text are shown as `<U+…>` in `runs` and
    /// `flaky`: a zero-width space cannot make `ma\u{200B}in` pass for `main`, nor U+202E reverse a commit.
    func testRunsAndFlakyShowInvisibleAndBidiCharacters() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let store = try FailscopeStore(directory: data)
        try store.putRun(
            Run(
                id: "bidi", project: "Shop\u{2066}x\u{2069}", branch: "ma\u{200B}in", commit: "\u{202E}cafe",
                device: "iPhone\u{FEFF} 15", startedAt: Date().addingTimeInterval(-3_600)))
        try store.addResults(
            ResultBatch(results: [
                TestResult(
                    suite: "ItemTests", name: "testFound\u{202E}001", attempt: 1, status: .failed,
                    failures: [Failure(message: "Timed out", page: "ItemPage")]),
                TestResult(suite: "ItemTests", name: "testFound\u{202E}001", attempt: 2, status: .passed),
            ]), toRun: "bidi")
        store.close()

        let runs = try run(["runs", "--data", data.path])
        XCTAssertEqual(runs.status, 0, runs.error)
        XCTAssertTrue(runs.output.contains("ma<U+200B>in"), runs.output)
        XCTAssertTrue(runs.output.contains("<U+202E>cafe"), runs.output)
        XCTAssertTrue(runs.output.contains("Shop<U+2066>x<U+2069>"), runs.output)
        let flaky = try run(["flaky", "--data", data.path, "--all-branches"])
        XCTAssertEqual(flaky.status, 0, flaky.error)
        XCTAssertTrue(flaky.output.contains("ItemTests.testFound<U+202E>001"), flaky.output)
        XCTAssertTrue(flaky.output.contains("ma<U+200B>in"), flaky.output)
        let pages = try run(["flaky", "--data", data.path, "--pages", "--all-branches"])
        XCTAssertTrue(pages.output.contains("iPhone<U+FEFF> 15"), pages.output)
        for output in [runs.output, flaky.output, pages.output] {
            XCTAssertFalse(
                output.unicodeScalars.contains { [0x200B, 0x202E, 0x2066, 0x2069, 0xFEFF].contains($0.value) },
                "a raw invisible character reached the terminal")
        }
    }

    func testFlakyTableAcrossBranchesAndJSONOnADataFolder() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let store = try FailscopeStore(directory: data)
        let branches = ["main", "feature/checkout-with-a-long-name"]
        for (index, branch) in branches.enumerated() {
            try store.putRun(
                Run(
                    id: "r\(index)", project: "Shop", branch: branch, commit: "c\(index)", device: "iPhone 15",
                    startedAt: Date().addingTimeInterval(-3_600)))
            // Failed, then passed on retry on the same commit: a same-input contradiction.
            let name = "testQuantityPickerReachesItsLargestValueOnEveryDevice\(index)"
            try store.addResults(
                ResultBatch(results: [
                    TestResult(
                        suite: "ItemTests", name: name, attempt: 1, status: .failed,
                        failures: [Failure(message: "Timed out", page: "ItemPage")]),
                    TestResult(suite: "ItemTests", name: name, attempt: 2, status: .passed),
                ]), toRun: "r\(index)")
        }
        store.close()

        let table = try run(["flaky", "--data", data.path, "--all-branches"])
        XCTAssertEqual(table.status, 0, table.error)
        let lines = table.output.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains { $0.hasPrefix("TEST") && $0.contains(" BRANCH ") }, table.output)
        // A long name is cut, its branch is not lost with it.
        let rows = lines.filter { $0.hasPrefix("ItemTests.testQuantityPicker") }
        XCTAssertEqual(rows.count, 2, table.output)
        XCTAssertEqual(rows.filter { $0.contains(" main ") }.count, 1, table.output)
        XCTAssertEqual(rows.filter { $0.contains(" feature/checkou… ") }.count, 1, table.output)

        let json = try run(["flaky", "--data", data.path, "--all-branches", "--json"])
        XCTAssertEqual(json.status, 0, json.error)
        let report = try WireCoding.decoder().decode(FlakyReport.self, from: Data(json.output.utf8))
        XCTAssertEqual(report.flaky.map(\.branch).sorted(), branches.sorted())
        XCTAssertEqual(Set(report.flaky.map { $0.reasons }), [[.contradiction]])
        // The same database named by --database instead of found in --data.
        let database = "sqlite:" + data.appendingPathComponent(FailscopeStore.databaseFileName).path
        let named = try run(["flaky", "--data", "/nonexistent", "--database", database, "--all-branches", "--json"])
        XCTAssertEqual(named.output, json.output, named.error)

        // The page list's device column: a result without a device is "(none)", as on the dashboard.
        let noDevice = try FailscopeStore(directory: data)
        try noDevice.putRun(Run(id: "nodevice", project: "Shop", branch: "main", commit: "c0", startedAt: Date()))
        try noDevice.addResults(
            ResultBatch(results: [
                TestResult(
                    suite: "ItemTests", name: "testQuantityPickerReachesItsLargestValueOnEveryDevice0", attempt: 1,
                    status: .failed, failures: [Failure(message: "Timed out", page: "ItemPage")])
            ]), toRun: "nodevice")
        noDevice.close()
        let pages = try run(["flaky", "--data", data.path, "--pages"])
        XCTAssertEqual(pages.status, 0, pages.error)
        XCTAssertTrue(
            pages.output.split(separator: "\n").contains { $0.hasPrefix("ItemPage") && $0.hasSuffix("(none) 1, iPhone 15 1") },
            pages.output)

        let suiteAlone = try run(["flaky", "--data", data.path, "--suite", "ItemTests"])
        XCTAssertEqual(suiteAlone.status, 64)
        XCTAssertTrue(suiteAlone.error.contains("suite applies only with page \"(no page)\""), suiteAlone.error)
    }

    func testStrayArgumentsAndAFileAsDataFolderAreUsageErrorsThatTouchNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        // `gc --keep-days 30 /srv/data` must not clean the default folder instead.
        let stray = try run(["gc", "--keep-days", "5", data.path])
        XCTAssertEqual(stray.status, 64)
        XCTAssertTrue(stray.error.hasPrefix("Error: unexpected argument '\(data.path)'"), stray.error)
        XCTAssertTrue(stray.error.contains("Usage: failscope gc"), stray.error)
        let cap = try run(["serve", "--connections-per-address", "-1", "--data", data.path])
        XCTAssertEqual(cap.status, 64)
        XCTAssertTrue(cap.error.hasPrefix("Error: --connections-per-address must be"), cap.error)
        for command in [["migrate", "extra"], ["runs", "extra"], ["version", "extra"], ["upload", "--url", "http://127.0.0.1:9", "x"]] {
            let result = try run(command)
            XCTAssertEqual(result.status, 64, "\(command): \(result.error)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.path))
        // A single-valued option given twice is ambiguous, as a repeated API parameter is.
        let twice = try run(["gc", "--keep-days", "5", "--keep-days", "30", "--data", data.path])
        XCTAssertEqual(twice.status, 64)
        XCTAssertTrue(twice.error.hasPrefix("Error: --keep-days is given more than once"), twice.error)
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.path))

        let file = folder.appendingPathComponent("not-a-folder")
        try Data("x".utf8).write(to: file)
        for command in ["serve", "migrate", "runs"] {
            let result = try run([command, "--data", file.path])
            XCTAssertEqual(result.status, 1, "\(command)")
            XCTAssertEqual(
                result.error, "Error: --data \(file.path) is a file; it must be a folder (it holds failscope.sqlite and artifacts/)\n",
                command)
        }
    }

    func testServeRefusesADatabaseWithAChangedMigration() throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-cli-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        XCTAssertEqual(try run(["migrate", "--data", data.path]).status, 0)
        let pool = try DatabasePool(path: data.appendingPathComponent("failscope.sqlite").path)
        try pool.write { try $0.run("UPDATE schema_migrations SET checksum = 'edited'") }
        pool.close()
        let serve = try run(["serve", "--port", "0", "--data", data.path, "--upload-token", "t"])
        XCTAssertEqual(serve.status, 1)
        XCTAssertTrue(serve.error.contains("migration 0001_baseline was changed after it was applied"), serve.error)
    }
}
