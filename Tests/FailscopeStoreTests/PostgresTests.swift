import FailscopeModel
import FailscopeTesting
import Foundation
import Synchronization
import XCTest

@_spi(Engine) @testable import FailscopeStore

/// A schema of its own on the test server (`FAILSCOPE_TEST_POSTGRES_URL`, which `make test` and `.ci/run`
/// start), dropped when the test ends. Without a server the test is skipped with one line, except in CI
/// (`CI=true`), where it fails: the PostgreSQL tests never skip there.
struct PostgresTestSchema {
    /// The server URL with `search_path` set to the test's schema.
    let url: String
    private let base: String
    private let name: String

    init(file: StaticString = #filePath, line: UInt = #line) throws {
        guard let base = ProcessInfo.processInfo.environment["FAILSCOPE_TEST_POSTGRES_URL"], !base.isEmpty else {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                XCTFail(
                    "CI=true but FAILSCOPE_TEST_POSTGRES_URL is not set: run the tests through make test", file: file,
                    line: line)
            }
            throw XCTSkip(PostgresTestServer.skipped)
        }
        self.base = base
        name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try PostgresConnection(url: base, statementTimeoutMilliseconds: 10_000).execute("CREATE SCHEMA \(name)")
        url = base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(name)"
    }

    func drop() {
        try? PostgresConnection(url: base, statementTimeoutMilliseconds: 10_000).execute("DROP SCHEMA \(name) CASCADE")
    }
}

/// The PostgreSQL engine's parts against a real server: migrations, parameters, concurrent writers,
/// retries, the statement timeout, a lost connection.
final class PostgresTests: XCTestCase {
    private var schema: PostgresTestSchema!

    override func setUpWithError() throws {
        schema = try PostgresTestSchema()
    }

    override func tearDown() {
        schema?.drop()
    }

    func testMigratesTheBaselineOnceAndRefusesAChangedOrNewerDatabase() throws {
        let database = try PostgresDatabase(url: schema.url)
        XCTAssertEqual(
            database.appliedMigrations,
            [
                "0001_baseline", "0002_quarantine", "0003_trail_step_trace", "0004_webhooks", "0005_failure_signatures",
            "0006_passed_durations",
            "0007_webhook_filters",
            "0008_results_by_commit",
            "0009_results_by_commit_test",
            ])
        let tables = try database.pool.withConnection { connection in
            let rows = try connection.query(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() ORDER BY 1")
            return (0..<rows.count).compactMap { rows.string($0, 0) }
        }
        XCTAssertEqual(
            tables,
            [
                "artifacts", "failure_signatures", "failures", "flaky_call_sites", "flaky_commits", "flaky_outcomes",
                "flaky_page_days", "flaky_test_days", "flaky_test_pages", "page_days", "quarantine_changes",
                "quarantine_entries", "result_artifacts", "result_pages", "results", "runs", "schema_migrations", "tests",
                "trail_steps", "webhook_deliveries", "webhook_run_checks", "webhook_test_states", "webhooks",
            ], "the same tables as the SQLite migrations")
        database.close()
        XCTAssertEqual(try PostgresDatabase(url: schema.url).appliedMigrations, [], "a second open applies nothing")

        let future = Migration(name: "9999_future", sql: "CREATE TABLE future (x BIGINT);")
        try PostgresDatabase(url: schema.url, migrator: Migrator(migrations: PostgresDatabase.migrations + [future]))
            .close()
        XCTAssertThrowsError(try PostgresDatabase(url: schema.url)) { error in
            XCTAssertEqual(error as? MigrationError, .databaseIsNewer(unknownMigrations: ["9999_future"]))
        }
        let edited = Migration(name: "0001_baseline", sql: PostgresDatabase.migrations[0].sql + "\n-- edited")
        let migrations = [edited] + PostgresDatabase.migrations.dropFirst() + [future]
        XCTAssertThrowsError(try PostgresDatabase(url: schema.url, migrator: Migrator(migrations: migrations))) {
            error in
            guard case .changed(let name, _, _)? = error as? MigrationError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "0001_baseline")
        }
    }

    func testAFailingMigrationIsRolledBackAndNotRecorded() throws {
        let good = Migration(name: "0001_good", sql: "CREATE TABLE a (x BIGINT);")
        let bad = Migration(name: "0002_bad", sql: "CREATE TABLE b (x BIGINT); INSERT INTO nowhere VALUES (1);")
        XCTAssertThrowsError(try PostgresDatabase(url: schema.url, migrator: Migrator(migrations: [good, bad]))) {
            error in
            guard case .failed(let name, let message)? = error as? MigrationError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "0002_bad")
            XCTAssertTrue(message.contains("42P01"), message)
        }
        let connection = try PostgresConnection(url: schema.url, statementTimeoutMilliseconds: 10_000)
        XCTAssertEqual(try connection.query("SELECT to_regclass('b') IS NULL").string(0, 0), "t", "b was rolled back")
        XCTAssertEqual(try connection.recordedMigrations().map(\.name), ["0001_good"])
    }

    func testValuesAreBoundAsParametersAndComeBackUnchanged() throws {
        let pool = try PostgresPool(url: schema.url)
        defer { pool.close() }
        let text = "O'Brien \"quoted\" \\ ; DROP TABLE t; -- ünïcødé 🚀"
        let bytes: [UInt8] = [0, 1, 2, 0x5C, 0x78, 0xFF, 0x00]
        let row = try pool.withConnection { connection in
            try connection.execute("CREATE TABLE t (s TEXT, i BIGINT, r DOUBLE PRECISION, b BYTEA, n TEXT)")
            try connection.query(
                "INSERT INTO t VALUES ($1, $2, $3, $4, $5)",
                [text, Int64.max, 0.1 + 0.2, SQLValue.blob(bytes), String?.none])
            return try connection.query("SELECT s, i, r, b, n FROM t")
        }
        XCTAssertEqual(row.count, 1)
        XCTAssertEqual(row.string(0, 0), text)
        XCTAssertEqual(row.int64(0, 1), Int64.max)
        XCTAssertEqual(row.double(0, 2), 0.1 + 0.2)
        XCTAssertEqual(row.bytes(0, 3), bytes)
        XCTAssertTrue(row.isNull(0, 4))
    }

    func testConcurrentWritersOfTheSameResultsStoreEachOnce() throws {
        let database = try PostgresDatabase(url: schema.url)
        defer { database.close() }
        try database.pool.withConnection { connection in
            try connection.query(
                """
                INSERT INTO runs (id, project, source, started_at, created_at, updated_at)
                VALUES ('r1', 'Shop', 'reporter', 1, 1, 1)
                """)
            try connection.query(
                "INSERT INTO tests (id, project, suite, name, first_seen_at) VALUES ('t1', 'Shop', 'S', 'n', 1)")
        }
        // Eight replicas upload the same 50 results at once (a retry through another replica).
        let inserted = Mutex(0)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            do {
                let count = try database.pool.transaction { connection in
                    var count = 0
                    for key in 0..<50 {
                        count += try connection.query(
                            """
                            INSERT INTO results (run_id, result_key, test_id, project, attempt, status, ran_at)
                            VALUES ('r1', $1, 't1', 'Shop', 1, 'passed', 1) ON CONFLICT (run_id, result_key) DO NOTHING
                            """, ["key-\(key)"]
                        ).changes
                    }
                    return count
                }
                inserted.withLock { $0 += count }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertEqual(inserted.withLock { $0 }, 50, "each result acknowledged as new exactly once")
        let stored = try database.pool.withConnection {
            try $0.query("SELECT count(*), count(DISTINCT id) FROM results")
        }
        XCTAssertEqual(stored.int64(0, 0), 50)
        XCTAssertEqual(stored.int64(0, 1), 50, "ids from the identity column, none shared")
    }

    func testSerializationFailuresAreRunAgain() throws {
        let pool = try PostgresPool(url: schema.url, maximumConnectionCount: 8, maximumAttempts: 100)
        defer { pool.close() }
        try pool.withConnection {
            try $0.execute("CREATE TABLE counter (n BIGINT NOT NULL); INSERT INTO counter VALUES (0)")
        }
        let failures = Mutex<[String]>([])
        // Read-then-write increments in SERIALIZABLE transactions: concurrent ones fail with 40001 and must be
        // run again, or increments are lost (or errors surface).
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<10 {
                do {
                    try pool.transaction(.serializable) { connection in
                        let value = try connection.query("SELECT n FROM counter").int64(0, 0) ?? 0
                        try connection.query("UPDATE counter SET n = $1", [value + 1])
                    }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        XCTAssertEqual(try pool.withConnection { try $0.query("SELECT n FROM counter").int64(0, 0) }, 80)
    }

    func testTheStatementTimeoutIsNamedAsATimeout() throws {
        let pool = try PostgresPool(url: schema.url, statementTimeoutMilliseconds: 100)
        defer { pool.close() }
        XCTAssertThrowsError(try pool.withConnection { try $0.query("SELECT pg_sleep(5)") }) { error in
            XCTAssertEqual(
                error as? StoreError,
                .timedOut("PostgreSQL cancelled a statement at its time limit (canceling statement due to statement timeout)"))
            XCTAssertEqual(
                "\(error)",
                "the database timed out: PostgreSQL cancelled a statement at its time limit "
                    + "(canceling statement due to statement timeout)")
        }
        XCTAssertEqual(try pool.withConnection { try $0.query("SELECT 1").int64(0, 0) }, 1, "the connection goes on")
    }

    func testALostConnectionIsUnavailableThenReplaced() throws {
        let pool = try PostgresPool(url: schema.url, maximumConnectionCount: 1)
        defer { pool.close() }
        // The server ends the session (as on a restart or failover).
        XCTAssertThrowsError(try pool.withConnection { try $0.query("SELECT pg_terminate_backend(pg_backend_pid())") })
        {
            error in
            guard case .unavailable? = error as? StoreError else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(try pool.withConnection { try $0.query("SELECT 1").int64(0, 0) }, 1, "a new connection")
    }

    /// `failscope copy` and the flaky summaries' one definition per engine: a mixed history ingested into
    /// SQLite, carried into PostgreSQL, gives the same rows in every summary table there (packed outcomes
    /// and per-device JSON included); a second copy stores nothing new; new keys follow the copied ones.
    func testCopyCarriesAStoreAndBothEnginesComputeTheSameFlakySummaries() throws {
        let directory = try makeTemporaryDirectory()
        let store = try FailscopeStore(directory: directory)
        defer { store.close() }
        // Devices, no device, two branches, two commits, retries, skips, pages, no page, call sites, 4 days.
        for (index, (branch, device)) in [
            ("main", "iPhone 15"), ("main", nil), ("feature/x", "iPad"), ("main", "iPad"),
        ]
        .enumerated() {
            var run = sampleRun(
                id: "r\(index)", branch: branch, startedAt: referenceDate.addingTimeInterval(Double(index - 4) * 86_400)
            )
            run.device = device
            run.commit = index % 2 == 0 ? "abc123" : "def456"
            try store.putRun(run)
            var results = [
                failingResult(screenshot: String(repeating: "ab", count: 32)), failingResult(attempt: 2),
                passingResult(), failingResult(name: "testOther", page: "CatalogPage", line: 7 + index),
                TestResult(suite: "S", name: "testSkipped", status: .skipped),
                TestResult(suite: "S", name: "testNoPage", status: index % 2 == 0 ? .failed : .passed),
            ]
            for offset in results.indices {
                results[offset].startedAt = run.startedAt.addingTimeInterval(Double(offset))
            }
            if index == 3 { results[2].device = "iPhone SE" }
            try store.addResults(ResultBatch(results: results), toRun: run.id)
        }
        let sqlite = try store.flakySummaryRows().mapValues { rows in
            rows.map { $0.map(Self.text) }.sorted { $0.lexicographicallyPrecedes($1) }
        }
        XCTAssertGreaterThan(sqlite["flaky_outcomes"]?.count ?? 0, 10)
        XCTAssertTrue(sqlite["flaky_test_pages"]?.contains { $0.contains { $0.hasPrefix("{\"") } } == true)

        // A lifted quarantine entry: its row and both audit rows are carried, and new ids follow them.
        let entry = try store.addQuarantine(
            QuarantineRequest(
                project: "Shop", suite: "LoginTests", name: "testOther", owner: "ana", reason: "r",
                expires: QuarantineEntry.dayText(referenceDate)), role: .admin, now: referenceDate)
        _ = try store.liftQuarantine(entry.id, QuarantineLift(why: "fixed"), role: .upload, now: referenceDate + 60)

        // A webhook with a filter, the deliveries and test states of one evaluated run, and a check still pending:
        // a team moving up keeps its notifications, and the tests already announced are not announced again.
        let hook = try store.createWebhook(
            WebhookCreate(
                url: "https://hooks.example/ci", secret: "0123456789abcdef",
                filter: WebhookFilter(events: [.runFinished, .testBroken], branches: ["main"]))
        ).webhook
        let now = referenceDate + 120
        try store.finishRun("r3", RunFinish(finishedAt: referenceDate), now: now)
        try store.scheduleWebhookCheck(runID: "r3", dueAt: referenceDate)
        for claim in try store.claimWebhookChecks(owner: "w", now: now, leaseUntil: now + 60, limit: 1) {
            _ = try store.evaluateWebhookCheck(runID: claim.runID, requestID: claim.requestID, owner: "w", now: now) {
                $0.type.rawValue + " " + $0.id
            }
        }
        try store.scheduleWebhookCheck(runID: "r1", dueAt: referenceDate)
        let hooks = try store.webhooks()
        let deliveries = try XCTUnwrap(try store.webhookDeliveries(hook.id))
        XCTAssertFalse(deliveries.deliveries.isEmpty)

        let source = DatabaseLocation.sqlite(in: directory)
        let target = DatabaseLocation.postgres(url: schema.url)
        var reported: [String] = []
        let first = try FailscopeStore.copy(from: source, to: target) { table, done, total in
            reported.append("\(table) \(done)/\(total)")
        }
        XCTAssertEqual(first.rowsRead["results"], 24)
        XCTAssertEqual(first.rowsStored, first.rowsRead, "everything is new the first time")
        XCTAssertEqual(first.rowsRead["result_artifacts"], 4)
        XCTAssertEqual(first.rowsRead["quarantine_entries"], 1)
        XCTAssertEqual(first.rowsRead["quarantine_changes"], 2)
        XCTAssertEqual(first.rowsRead["webhooks"], 1)
        XCTAssertEqual(first.rowsRead["webhook_deliveries"], deliveries.deliveries.count)
        XCTAssertEqual(first.rowsRead["webhook_run_checks"], 1)
        XCTAssertGreaterThan(first.rowsRead["webhook_test_states"] ?? 0, 0)
        do {
            let moved = try FailscopeStore(directory: try makeTemporaryDirectory(), database: target)
            defer { moved.close() }
            XCTAssertEqual(try moved.webhooks(), hooks, "the webhook and its filter")
            XCTAssertEqual(try moved.webhookDeliveries(hook.id), deliveries)
            XCTAssertEqual(
                try moved.claimWebhookChecks(owner: "w2", now: now, leaseUntil: now + 60, limit: 5).map(\.runID), ["r1"])
        }
        XCTAssertTrue(reported.contains("results 24/24"), "\(reported)")
        // The summaries: one group of tests, one of days.
        XCTAssertEqual(reported.last, "\(FailscopeStore.summaryProgressName) 2/2", "\(reported)")
        let again = try FailscopeStore.copy(from: source, to: target)
        XCTAssertEqual(again.rowsRead, first.rowsRead)
        XCTAssertEqual(Set(again.rowsStored.values), [0], "a second copy stores nothing twice")

        let database = try PostgresDatabase(url: schema.url)
        defer { database.close() }
        for table in FlakySummaries.tables {
            let rows = try database.pool.withConnection { connection in
                let result = try connection.query("SELECT * FROM \(table)")
                return (0..<result.count).map { row in
                    (0..<result.columnCount).map { column in
                        table == "flaky_outcomes" && column == 4
                            ? Self.hex(result.bytes(row, column) ?? []) : result.string(row, column) ?? "NULL"
                    }
                }
            }
            XCTAssertEqual(rows.sorted { $0.lexicographicallyPrecedes($1) }, sqlite[table], table)
        }
        let keys = try database.pool.withConnection { connection in
            try connection.query(
                """
                INSERT INTO tests (id, project, suite, name, first_seen_at) VALUES ('new', 'Shop', 'S', 'n', 1)
                RETURNING key, (SELECT max(key) FROM tests)
                """)
        }
        XCTAssertEqual(keys.int64(0, 0), keys.int64(0, 1).map { $0 + 1 }, "the key sequence continues after the copy")
        let carried = try database.pool.withConnection { connection in
            try connection.query(
                """
                INSERT INTO quarantine_changes (entry_id, action, role, actor, why, changed_at)
                SELECT id, 'edited', 'admin', '', 'x', lifted_at FROM quarantine_entries
                RETURNING id, (SELECT reason || '/' || lifted_at FROM quarantine_entries)
                """)
        }
        XCTAssertEqual(carried.int64(0, 0), 3, "the audit log's ids continue after the copy")
        XCTAssertEqual(
            carried.string(0, 1), "r/\(Timestamp.milliseconds(referenceDate + 60))", "the entry as stored")
    }

    /// Replicas: two stores on one database (two `serve` processes), 16 uploaders putting the same run and
    /// sending batches through one, then again through the other (a retry reaching another replica), all at
    /// once. Every result is stored exactly once, the run's counters match its rows, and the flaky summaries
    /// are what a rebuild computes.
    func testReplicasIngestingOneRunAtOnceStoreEveryResultOnce() throws {
        let database = try PostgresScratchDatabase(server: try XCTUnwrap(PostgresTestServer.url))
        defer { database.drop() }
        let replicas = try (0..<2).map { _ in
            try FailscopeStore(directory: try makeTemporaryDirectory(), database: .postgres(url: database.url))
        }
        defer { replicas.forEach { $0.close() } }
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 16) { uploader in
            do {
                var run = sampleRun(startedAt: referenceDate.addingTimeInterval(Double(uploader)))
                run.finishedAt = nil
                try replicas[uploader % 2].putRun(run)
                for batch in 0..<4 {
                    let results = (0..<25).map { index in
                        TestResult(
                            suite: "Suite\(index % 5)", name: "test\(uploader)_\(batch)_\(index % 10)",
                            attempt: 1 + index / 10, status: index % 7 == 0 ? .failed : .passed,
                            failures: index % 7 == 0 ? [Failure(message: "m", page: "LoginPage")] : [])
                    }
                    for replica in [uploader % 2, (uploader + 1) % 2] {
                        try replicas[replica].addResults(ResultBatch(results: results), toRun: "run-1")
                    }
                }
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let summary = try XCTUnwrap(replicas[0].runSummary("run-1"))
        XCTAssertEqual(summary.run.startedAt, referenceDate, "the earliest start")
        XCTAssertEqual(summary.counts.total, 16 * 4 * 25, "each result once")
        let stored = try replicas[1].read { db in
            try db.queryFirst("SELECT count(*), count(DISTINCT result_key), count(DISTINCT id) FROM results") {
                [$0.int(0), $0.int(1), $0.int(2)]
            }
        }
        XCTAssertEqual(stored, [1_600, 1_600, 1_600])
        let failing = try replicas[1].read { db in
            try db.scalar(
                """
                SELECT count(*) FROM (
                    SELECT max(attempt * 2 + CASE WHEN status IN ('failed', 'error') THEN 1 ELSE 0 END) AS last
                    FROM results GROUP BY test_id, device) AS latest WHERE last % 2 = 1
                """
            ).int
        }
        XCTAssertEqual(summary.counts.failingTests, failing)
        let ingested = try replicas[0].flakySummaryRows()
        try replicas[0].rebuildFlakySummaries()
        XCTAssertEqual(try replicas[1].flakySummaryRows(), ingested, "the summaries of concurrent ingest")
    }

    private static func text(_ value: SQLValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let integer): String(integer)
        case .real(let real): "\(real)"
        case .text(let text): text
        case .blob(let bytes): hex(bytes)
        }
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    func testAnUnreachableServerIsUnavailable() throws {
        XCTAssertThrowsError(try PostgresDatabase(url: "postgres://failscope@127.0.0.1:1/failscope?connect_timeout=2"))
        {
            error in
            guard case .unavailable? = error as? StoreError else { return XCTFail("\(error)") }
        }
    }
}

final class DatabaseLocationTests: XCTestCase {
    func testPathsSQLiteAndPostgresURIs() throws {
        XCTAssertEqual(try DatabaseLocation(parsing: "/srv/f.sqlite"), .sqlite(path: "/srv/f.sqlite"))
        XCTAssertEqual(try DatabaseLocation(parsing: "sqlite:data/f.sqlite"), .sqlite(path: "data/f.sqlite"))
        let url = "postgres://failscope@db.internal:5432/failscope?sslmode=verify-full"
        XCTAssertEqual(try DatabaseLocation(parsing: url), .postgres(url: url))
        XCTAssertEqual(
            DatabaseLocation.sqlite(in: URL(fileURLWithPath: "/srv/data")), .sqlite(path: "/srv/data/failscope.sqlite"))
        XCTAssertThrowsError(try DatabaseLocation(parsing: "sqlite:"))
        XCTAssertThrowsError(try DatabaseLocation(parsing: "postgres://"))
    }

    func testAPasswordInTheURIIsRefusedWithoutRepeatingIt() {
        XCTAssertThrowsError(try DatabaseLocation(parsing: "postgres://failscope:s3cret@db:5432/failscope")) { error in
            guard case .invalid(let message)? = error as? StoreError else { return XCTFail("\(error)") }
            XCTAssertTrue(message.contains("PGPASSWORD"), message)
            XCTAssertFalse(message.contains("s3cret"), message)
        }
        XCTAssertThrowsError(try DatabaseLocation(parsing: "postgres://failscope@db/failscope?password=s3cret")) {
            error in
            XCTAssertFalse("\(error)".contains("s3cret"), "\(error)")
        }
    }
}

final class SQLDialectTests: XCTestCase {
    func testPlaceholdersBecomeNumberedParametersOutsideLiteralsAndComments() {
        let rewrite = SQLDialect.postgresPlaceholders
        XCTAssertEqual(rewrite("SELECT ?, ? FROM t WHERE a = ?"), "SELECT $1, $2 FROM t WHERE a = $3")
        XCTAssertEqual(rewrite("?2 + ?1 + ? + ?12"), "$2 + $1 + $3 + $12", "a bare ? follows the largest number")
        XCTAssertEqual(rewrite("SELECT '?', 'it''s ?', \"?\" -- ?\n, ?"), "SELECT '?', 'it''s ?', \"?\" -- ?\n, $1")
        XCTAssertEqual(rewrite("/* ? */ ? $$ ? $$"), "/* ? */ $1 $$ ? $$")
        XCTAssertEqual(rewrite("SELECT 'ünï ?' || ?"), "SELECT 'ünï ?' || $1")
    }

    func testTheDialectsSpellTheirDifferences() {
        XCTAssertEqual(SQLDialect.sqlite.greatest("a", "?1"), "max(a, ?1)")
        XCTAssertEqual(SQLDialect.postgres.least("a", "b"), "LEAST(a, b)")
        XCTAssertEqual(SQLDialect.sqlite.forUpdate, "")
        XCTAssertEqual(SQLDialect.postgres.forUpdate, " FOR NO KEY UPDATE")
    }
}
