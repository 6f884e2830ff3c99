import FailscopeModel
import Foundation
import PostgresMigrations
import SQLiteMigrations

/// Maintains the flaky summary tables of each engine's `0001_baseline.sql` inside the writing transaction, so
/// flaky and page queries read a bounded number of rows per test (docs/flaky.md).
///
/// The rows are defined once per engine, by `flaky_summaries.sql`: what the results in the scope tables of
/// `flaky_scope.sql` add to them. Ingest adds a batch's results (``add(_:resultIDs:)``); a change that removes
/// or moves results deletes the rows of the tests and days it touched and adds all of their results again
/// (``recompute(_:tests:days:)``: gc, a run's changed metadata), and ``rebuildAll(_:)`` does so for everything
/// (the generator's bulk load, a copy, a repair). `FlakySummaryTests` checks that ingest in batches keeps the
/// rows a rebuild computes.
enum FlakySummaries {
    /// The newest results kept per (test, branch, device) in `flaky_outcomes`; bounds `FlakyPolicy`'s windows.
    static let recentCapacity = OutcomePack.capacity
    /// The device key that sums every device.
    static let allDevices = "*"
    static let millisecondsPerDay: Int64 = 86_400_000

    /// A UTC day of a project: the key of `page_days` rows.
    struct PageDay: Hashable {
        var project: String
        var day: Int64
    }

    /// The summary tables keyed by `tests.key` instead of the test's id.
    static let testKeyedTables: Set = ["flaky_outcomes", "flaky_test_days"]

    /// The summary tables, in the order `flaky_summaries.sql` fills them.
    static let tables = [
        "flaky_test_days", "flaky_outcomes", "flaky_commits", "flaky_page_days", "flaky_test_pages", "flaky_call_sites",
        "page_days",
    ]

    /// Adds the stored results `resultIDs` (one ingest batch's) to every summary table. Call inside the
    /// transaction that inserted them.
    ///
    /// On PostgreSQL the transaction first takes an advisory lock per test (in one order, so two writers never
    /// wait on each other in a cycle): a writer adding to the same tests waits for the first one to commit, and
    /// no outcome is lost between them. The page list's day rows only add up (upserts, in key order, last), so
    /// batches of one day wait for each other only from that statement to their commit.
    static func add(_ db: any SQLConnection, resultIDs: [Int64]) throws {
        guard !resultIDs.isEmpty else { return }
        try prepareScope(db)
        var rows = BatchRows()
        for id in resultIDs { rows.append([.integer(id)]) }
        for table in ["flaky_scope_results", "flaky_scope_page_results"] {
            try db.insert(into: table, ["id": .integer], rows: rows, then: "ON CONFLICT DO NOTHING")
        }
        try addScope(db)
    }

    /// Computes again every summary row of the tests `tests` and the `page_days` rows of `days` from all of their
    /// results: deletes them, then adds the results. Call inside the transaction that changed their results.
    static func recompute(_ db: any SQLConnection, tests: [String], days: [PageDay]) throws {
        guard !tests.isEmpty || !days.isEmpty else { return }
        try prepareScope(db)
        var testRows = BatchRows()
        for test in Set(tests) { testRows.append([.text(test)]) }
        var dayRows = BatchRows()
        for day in Set(days) { dayRows.append([.text(day.project), .integer(day.day)]) }
        try db.insert(into: "flaky_scope_tests", ["test_id": .text], rows: testRows, then: "ON CONFLICT DO NOTHING")
        try db.insert(
            into: "flaky_scope_days", ["project": .text, "day": .integer], rows: dayRows, then: "ON CONFLICT DO NOTHING"
        )
        try recomputeScope(db)
    }

    /// The most results one transaction of ``rebuildAll(_:resultsPerTransaction:progress:)`` recomputes
    /// (a test's whole history is never split): seconds of work on either engine, well inside PostgreSQL's
    /// statement timeout, and a few hundred advisory locks, well inside its lock table.
    static let rebuildResultsPerTransaction = 50_000
    /// The most tests or days one transaction of a rebuild names (each takes an advisory lock on PostgreSQL,
    /// whose shared lock table holds 64 a connection by default).
    static let rebuildScopePerTransaction = 1_000

    /// Computes every summary table again from `results` (a full rebuild: the generator's bulk load, `copy`, a
    /// repair): the rows of tests and days without results any more are deleted, then the tests, and then
    /// the days, are recomputed a group at a time, each group in a transaction of its own of at most
    /// `resultsPerTransaction` results (a test or day with more alone) and ``rebuildScopePerTransaction``
    /// tests or days, so the work of one statement does not grow with the store. Inside an open
    /// transaction the groups join it (SQLite's rebuild: one transaction). `progress` gets (groups done,
    /// groups) after each group. Readers see each test's rows either as they were or recomputed.
    static func rebuildAll(
        _ db: any SQLConnection, resultsPerTransaction: Int = rebuildResultsPerTransaction,
        progress: (_ done: Int, _ total: Int) -> Void = { _, _ in }
    ) throws {
        try db.transaction {
            for table in tables where table != "page_days" {
                let test = testKeyedTables.contains(table) ? "test_key NOT IN (SELECT key" : "test_id NOT IN (SELECT id"
                try db.run("DELETE FROM \(table) WHERE \(test) FROM tests)")
            }
            try db.run(
                """
                DELETE FROM page_days WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.project = page_days.project
                    AND r.ran_at >= page_days.day * 86400000 AND r.ran_at < (page_days.day + 1) * 86400000)
                """)
        }
        // Tests in key order (a suite's tests, stored together, recomputed together), days in order.
        let tests = try db.query(
            "SELECT t.id, (SELECT count(*) FROM results r WHERE r.test_id = t.id) FROM tests t ORDER BY t.key"
        ) { (item: $0.string(0), results: $0.int(1)) }
        let days = try db.query(
            "SELECT project, ran_at / 86400000, count(*) FROM results GROUP BY project, ran_at / 86400000 ORDER BY 1, 2"
        ) { (item: PageDay(project: $0.string(0), day: $0.int64(1)), results: $0.int(2)) }
        let testGroups = groups(tests, resultsPerTransaction)
        let dayGroups = groups(days, resultsPerTransaction)
        let total = testGroups.count + dayGroups.count
        for (index, group) in testGroups.enumerated() {
            try db.transaction { try recompute(db, tests: group, days: []) }
            progress(index + 1, total)
        }
        for (index, group) in dayGroups.enumerated() {
            try db.transaction { try recompute(db, tests: [], days: group) }
            progress(testGroups.count + index + 1, total)
        }
    }

    /// `items` cut, in order, into runs of at most `limit` results and ``rebuildScopePerTransaction`` items
    /// (an item with more results alone).
    private static func groups<Item>(_ items: [(item: Item, results: Int)], _ limit: Int) -> [[Item]] {
        var groups: [[Item]] = []
        var current: [Item] = []
        var results = 0
        for (item, count) in items {
            if !current.isEmpty && (results + count > limit || current.count == rebuildScopePerTransaction) {
                groups.append(current)
                current = []
                results = 0
            }
            current.append(item)
            results += count
        }
        if !current.isEmpty { groups.append(current) }
        return groups
    }

    /// Recomputes the summaries of every test with a result in run `runID` (of `project`), and the page rows
    /// of the days its results ran on now and of `formerDays` (before the change): a run's branch, commit,
    /// device or start time changed (rare, bounded by those tests' history).
    static func rebuild(_ db: any SQLConnection, testsOfRun runID: String, project: String, formerDays: [Int64])
        throws
    {
        let tests = try db.query("SELECT DISTINCT test_id FROM results WHERE run_id = ?", [runID]) { $0.string(0) }
        let days = try db.query("SELECT DISTINCT ran_at / 86400000 FROM results WHERE run_id = ?", [runID]) {
            $0.int64(0)
        }
        try recompute(db, tests: tests, days: (formerDays + days).map { PageDay(project: project, day: $0) })
    }

    /// Registers the SQL functions the summary statements use on `db`: flaky_summaries.sql's aggregate
    /// `failscope_outcome_pack(ran_at, id, failed, commit_sha, base)`, the `OutcomePack` BLOB of the group's
    /// rows merged into `base` (the key's stored pack, or NULL; the same in every row of the group): the newest
    /// `OutcomePack.capacity` of both, newest `ran_at` first, the group's rows first among equal times (their
    /// ids are larger than any result the base holds), then by id.
    static func registerFunctions(_ db: Database) throws {
        try db.createAggregate("failscope_outcome_pack", argumentCount: 5) { rows in
            let added = rows.sorted { left, right in
                let (leftTime, rightTime) = (left[0].int64 ?? 0, right[0].int64 ?? 0)
                return leftTime != rightTime ? leftTime > rightTime : (left[1].int64 ?? 0) > (right[1].int64 ?? 0)
            }
            .prefix(OutcomePack.capacity).map { row in
                OutcomePack.Outcome(
                    ranAt: row[0].int64 ?? 0, failed: (row[2].int64 ?? 0) != 0,
                    commitKey: OutcomePack.commitKey(row[3].string))
            }
            var base: [OutcomePack.Outcome] = []
            if case .blob(let bytes)? = rows.first?[4] { base = bytes.withUnsafeBytes { OutcomePack($0).outcomes } }
            var merged: [OutcomePack.Outcome] = []
            var (next, nextBase) = (0, 0)
            while merged.count < OutcomePack.capacity && (next < added.count || nextBase < base.count) {
                if nextBase == base.count || (next < added.count && added[next].ranAt >= base[nextBase].ranAt) {
                    merged.append(added[next])
                    next += 1
                } else {
                    merged.append(base[nextBase])
                    nextBase += 1
                }
            }
            return .blob(OutcomePack(merged).encoded())
        }
    }

    // MARK: The scripts

    /// Each engine's statements, in order: run one by one, each is prepared once per connection (the summary
    /// script runs at every ingest).
    private static let sqliteScope = split(SQLiteMigrations.flakyScope)
    private static let sqliteStatements = split(SQLiteMigrations.flakySummaries)
    private static let postgresScope = split(PostgresMigrations.flakyScope)
    private static let postgresStatements = split(PostgresMigrations.flakySummaries)

    /// A script's statements: split at `;` ending a line, comment lines dropped.
    private static func split(_ script: String) -> [String] {
        script.components(separatedBy: ";\n")
            .map { statement in
                statement.split(separator: "\n", omittingEmptySubsequences: false)
                    .filter { !$0.hasPrefix("--") }.joined(separator: "\n")
                    .trimmingCharacters(in: .whitespacesAndNewlines)
            }
            .map { $0.hasSuffix(";") ? String($0.dropLast()) : $0 }
            .filter { !$0.isEmpty }
    }

    /// Creates the scope tables of `flaky_scope.sql` when the connection has none yet.
    private static func prepareScope(_ db: any SQLConnection) throws {
        guard try db.queryFirst(db.dialect.temporaryTableExists("flaky_scope_results"), row: { _ in true }) == nil
        else { return }
        for statement in db.dialect == .sqlite ? sqliteScope : postgresScope { try db.run(statement) }
    }

    /// Deletes the summary rows of the tests in `flaky_scope_tests` and the page rows of the days in
    /// `flaky_scope_days`, then adds all of their results.
    private static func recomputeScope(_ db: any SQLConnection) throws {
        let tests = "SELECT test_id FROM flaky_scope_tests"
        if db.dialect == .postgres { try db.execute("ANALYZE flaky_scope_tests, flaky_scope_days") }
        try lockScope(db, tests: tests, days: "SELECT project, day FROM flaky_scope_days")
        for table in tables where table != "page_days" {
            try db.run(
                testKeyedTables.contains(table)
                    ? "DELETE FROM \(table) WHERE test_key IN (SELECT t.key FROM tests t WHERE t.id IN (\(tests)))"
                    : "DELETE FROM \(table) WHERE test_id IN (\(tests))")
        }
        try db.run("DELETE FROM page_days WHERE (project, day) IN (SELECT project, day FROM flaky_scope_days)")
        try db.run("INSERT INTO flaky_scope_results (id) SELECT r.id FROM results r WHERE r.test_id IN (\(tests))")
        try db.run(
            """
            INSERT INTO flaky_scope_page_results (id) SELECT r.id FROM flaky_scope_days s JOIN results r
                ON r.project = s.project AND r.ran_at >= s.day * 86400000 AND r.ran_at < (s.day + 1) * 86400000
            """)
        try db.run("DELETE FROM flaky_scope_tests")
        try db.run("DELETE FROM flaky_scope_days")
        try addScope(db, locked: true)
    }

    /// Runs the engine's `flaky_summaries.sql` over the filled scope, then empties it; first takes the locks of
    /// the scope's tests unless `locked`.
    private static func addScope(_ db: any SQLConnection, locked: Bool = false) throws {
        if !locked {
            try lockScope(
                db, tests: "SELECT DISTINCT r.test_id FROM flaky_scope_results s JOIN results r ON r.id = s.id",
                days: nil)
        }
        // The first statements fill the scope's other tables from its ids (flaky_scope_outcomes, then its days).
        // On PostgreSQL each scope table is analyzed once filled: autovacuum never looks at temporary tables, and
        // without statistics the planner takes a scope of a few results for thousands and scans all of `results`
        // where index lookups suffice.
        let statements = db.dialect == .sqlite ? sqliteStatements : postgresStatements
        let fill = statements.prefix { $0.hasPrefix("INSERT INTO flaky_scope_") }
        let analyze = db.dialect == .postgres
        if analyze { try db.execute("ANALYZE flaky_scope_results, flaky_scope_page_results") }
        for statement in fill { try db.run(statement) }
        if analyze {
            try db.execute("ANALYZE flaky_scope_outcomes, flaky_scope_outcome_days, flaky_scope_failure_days")
        }
        for statement in statements.dropFirst(fill.count) { try db.run(statement) }
        for table in [
            "flaky_scope_results", "flaky_scope_page_results", "flaky_scope_outcomes", "flaky_scope_outcome_days",
            "flaky_scope_failure_days",
        ] {
            try db.run("DELETE FROM \(table)")
        }
    }

    /// On PostgreSQL, takes the transaction's advisory locks of the tests and (project, day)s the two queries
    /// name, in one order (so two writers never wait on each other in a cycle). SQLite has one writer.
    private static func lockScope(_ db: any SQLConnection, tests: String, days: String?) throws {
        guard db.dialect == .postgres else { return }
        let dayKeys = days.map {
            "UNION SELECT hashtext('d' || project || ':' || day) FROM (\($0)) AS d (project, day)"
        }
        try db.run(
            """
            SELECT count(pg_advisory_xact_lock(k)) FROM (
                SELECT hashtext('t' || test_id) AS k FROM (\(tests)) AS t (test_id) \(dayKeys ?? "") ORDER BY 1) AS keys
            """)
    }
}
