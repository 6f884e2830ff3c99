import FailscopeModel
import XCTest

@testable import FailscopeStore

final class MigratorTests: XCTestCase {
    private func openPool() throws -> DatabasePool {
        try DatabasePool(path: try makeTemporaryDirectory().appendingPathComponent("m.sqlite").path)
    }

    func testEmbeddedMigrationsAreTheFilesOfTheSQLiteFolder() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Migrations/sqlite")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".sql") && Migration.isValidName(String($0.dropLast(4))) }.sorted()
        XCTAssertEqual(
            Migration.embedded.map { $0.name + ".sql" }, files,
            "list a new migration in Package.swift and Migrations/sqlite/SQLiteMigrations.swift")
        for migration in Migration.embedded {
            let text = try String(contentsOf: folder.appendingPathComponent(migration.name + ".sql"), encoding: .utf8)
            XCTAssertEqual(migration.sql, text, "\(migration.name) is embedded byte for byte")
        }
        XCTAssertEqual(
            Migration.embedded.map(\.name),
            [
                "0001_baseline", "0002_quarantine", "0003_trail_step_trace", "0004_webhooks", "0005_failure_signatures",
            "0006_passed_durations",
            "0007_webhook_filters",
            "0008_results_by_commit",
            "0009_results_by_commit_test",
            ])
    }

    func testAppliesEveryMigrationOnceAndRecordsChecksums() throws {
        let pool = try openPool()
        defer { pool.close() }
        let migrator = Migrator(migrations: Migration.embedded)
        let applied = try pool.write { try migrator.migrate($0) }
        XCTAssertEqual(applied, Migration.embedded.map(\.name))
        XCTAssertEqual(try pool.write { try migrator.migrate($0) }, [], "a second run applies nothing")
        let records = try pool.write { try migrator.appliedMigrations(in: $0) }
        XCTAssertEqual(records.map(\.checksum), Migration.embedded.map(\.checksum))
        XCTAssertEqual(records.first?.checksum.count, 64)
        let tables = try pool.read { db in
            try db.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { $0.string(0) }
        }
        XCTAssertEqual(
            tables,
            [
                "artifacts", "failure_signatures", "failures", "flaky_call_sites", "flaky_commits", "flaky_outcomes",
                "flaky_page_days", "flaky_test_days", "flaky_test_pages", "page_days", "quarantine_changes",
                "quarantine_entries", "result_artifacts", "result_pages", "results", "runs", "schema_migrations", "tests",
                "trail_steps", "webhook_deliveries", "webhook_run_checks", "webhook_test_states", "webhooks",
            ])
    }

    func testANewMigrationAfterTheBaselineKeepsRows() throws {
        let pool = try openPool()
        defer { pool.close() }
        try pool.write { try Migrator(migrations: Migration.embedded).migrate($0) }
        try pool.write { db in
            try db.run(
                """
                INSERT INTO runs (id, project, source, started_at, created_at, updated_at)
                VALUES ('r1', 'Shop', 'reporter', 1, 1, 1)
                """)
        }
        let next = Migration(name: "9000_add_run_notes", sql: "ALTER TABLE runs ADD COLUMN notes TEXT DEFAULT 'none';")
        let applied = try pool.write { try Migrator(migrations: Migration.embedded + [next]).migrate($0) }
        XCTAssertEqual(applied, ["9000_add_run_notes"])
        let row = try pool.read { db in
            try db.queryFirst("SELECT project, notes FROM runs WHERE id = 'r1'") { ($0.string(0), $0.string(1)) }
        }
        XCTAssertEqual(row?.0, "Shop")
        XCTAssertEqual(row?.1, "none")
    }

    func testChangedAppliedMigrationIsRefused() throws {
        let pool = try openPool()
        defer { pool.close() }
        let original = Migration(name: "0001_one", sql: "CREATE TABLE a (x);")
        try pool.write { try Migrator(migrations: [original]).migrate($0) }
        let edited = Migration(name: "0001_one", sql: "CREATE TABLE a (x, y);")
        XCTAssertThrowsError(try pool.write { try Migrator(migrations: [edited]).migrate($0) }) { error in
            guard case .changed(let name, _, _)? = error as? MigrationError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "0001_one")
            XCTAssertTrue("\(error)".contains("append-only"))
        }
    }

    func testMissingAndNewerAndOutOfOrderAreRefused() throws {
        let pool = try openPool()
        defer { pool.close() }
        let one = Migration(name: "0001_one", sql: "CREATE TABLE a (x);")
        let two = Migration(name: "0002_two", sql: "CREATE TABLE b (x);")
        let three = Migration(name: "0003_three", sql: "CREATE TABLE c (x);")
        try pool.write { try Migrator(migrations: [one, two, three]).migrate($0) }
        XCTAssertThrowsError(try pool.write { try Migrator(migrations: [one, two]).migrate($0) }) { error in
            XCTAssertEqual(error as? MigrationError, .databaseIsNewer(unknownMigrations: ["0003_three"]))
        }
        XCTAssertThrowsError(try pool.write { try Migrator(migrations: [one, three]).migrate($0) }) { error in
            XCTAssertEqual(error as? MigrationError, .missing(names: ["0002_two"]))
        }
        let other = try openPool()
        defer { other.close() }
        try other.write { try Migrator(migrations: [one, three]).migrate($0) }
        XCTAssertThrowsError(try other.write { try Migrator(migrations: [one, two, three]).migrate($0) }) { error in
            XCTAssertEqual(error as? MigrationError, .outOfOrder(expected: "0002_two", found: "0003_three"))
        }
    }

    func testFailingMigrationRollsBackAndIsNotRecorded() throws {
        let pool = try openPool()
        defer { pool.close() }
        let good = Migration(name: "0001_good", sql: "CREATE TABLE a (x);")
        let bad = Migration(name: "0002_bad", sql: "CREATE TABLE b (x); INSERT INTO nowhere VALUES (1);")
        XCTAssertThrowsError(try pool.write { try Migrator(migrations: [good, bad]).migrate($0) }) { error in
            guard case .failed(let name, _)? = error as? MigrationError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "0002_bad")
        }
        let tables = try pool.read { db in
            try db.query("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name") { $0.string(0) }
        }
        XCTAssertEqual(tables, ["a", "schema_migrations"], "table b was rolled back with its migration")
        XCTAssertEqual(
            try pool.write { try Migrator(migrations: [good]).appliedMigrations(in: $0).map(\.name) }, ["0001_good"])
    }

    func testStoreRefusesANewerDatabase() throws {
        let folder = try makeTemporaryDirectory()
        let future = Migration(name: "9999_future", sql: "CREATE TABLE future (x);")
        try FailscopeStore(directory: folder, migrator: Migrator(migrations: Migration.embedded + [future])).close()
        XCTAssertThrowsError(try FailscopeStore(directory: folder)) { error in
            XCTAssertTrue("\(error)".contains("newer failscope"), "\(error)")
        }
    }
}
