import FailscopeModel
import Foundation
import PostgresMigrations
import SQLiteMigrations

/// Maintains the flaky summary tables of each engine's `0001_baseline.sql` inside the writing transaction, so
/// flaky and page queries read a bounded number of rows per test (docs/flaky.md).
///
/// The rows are defined by each engine's `flaky_summaries.sql`: ``recompute(_:tests:days:)`` runs it for the
/// tests and days a change touched (PostgreSQL's ingest, a run's changed metadata, gc), ``rebuildAll(_:)`` for
/// everything. SQLite's ingest adds a batch incrementally instead (``record(_:_:testSummaries:pageDays:)``,
/// several times faster than recomputing); `FlakySummaryTests` checks that it keeps the statements' rows.
enum FlakySummaries {
    /// The newest results kept per (test, branch, device) in `flaky_outcomes`; bounds `FlakyPolicy`'s windows.
    static let recentCapacity = OutcomePack.capacity
    /// The device key that sums every device.
    static let allDevices = "*"
    static let millisecondsPerDay: Int64 = 86_400_000

    /// One stored result, as `addResults` wrote it.
    struct Entry {
        var resultID: Int64
        var testID: String
        /// The test's `tests.key`.
        var testKey: Int64
        var project: String
        var suite: String
        var branch: String?
        var commit: String?
        var device: String?
        var page: String?
        var callSite: (file: String, line: Int)?
        var status: String
        var ranAt: Int64
    }

    static func isFailure(_ status: String) -> Bool { status == "failed" || status == "error" }

    /// The device keys of a result's `flaky_outcomes`, `flaky_commits`, `flaky_test_days` and
    /// `flaky_call_sites` rows: its device and `*`, or only `*` without a device (a device filter
    /// always names one). Page rows keep device `""`: the `*` rows' per-device counts come from them.
    static func outcomeDeviceKeys(_ device: String) -> [String] {
        device.isEmpty ? [allDevices] : [device, allDevices]
    }

    /// Adds the stored results `entries` (in the order they were stored) to every summary table, with
    /// one statement per table for the whole batch where the rows allow it. Call inside the transaction
    /// that inserted them.
    ///
    /// Set-based: the batch's outcomes travel as one JSON array (`json_each`). Failures (their page rows
    /// and call sites) are recorded one by one.
    static func record(_ db: Database, _ entries: [Entry], testSummaries: Bool = true, pageDays: Bool = true) throws {
        guard !entries.isEmpty else { return }
        if pageDays { try recordPageDays(db, entries) }
        guard testSummaries else { return }
        let outcomes = entries.filter { $0.status != "skipped" }
        guard !outcomes.isEmpty else { return }
        // The batch's outcomes per (test, branch, device key), in the order they were stored; one row per
        // outcome and key for the commit counts: test, branch, device, ran_at, failed, commit.
        var keyOutcomes: [OutcomeKey: [Entry]] = [:]
        var keyOrder: [OutcomeKey] = []
        var rows = BatchJSON()
        for entry in outcomes {
            let failed = isFailure(entry.status) ? 1 : 0
            let device = entry.device ?? ""
            for device in outcomeDeviceKeys(device) {
                let key = OutcomeKey(testID: entry.testID, testKey: entry.testKey, branch: entry.branch ?? "", device: device)
                if keyOutcomes[key] == nil { keyOrder.append(key) }
                keyOutcomes[key, default: []].append(entry)
                if !(entry.commit ?? "").isEmpty {
                    rows.append([
                        .text(entry.testID), .text(entry.branch ?? ""), .text(device), .integer(entry.ranAt),
                        .integer(Int64(failed)), .text(entry.commit ?? ""),
                    ])
                }
            }
        }
        let firstFailures = try updateOutcomePacks(db, keyOrder, keyOutcomes)
        // Commits: rows that existed before the batch add its outcomes; a commit failing for the first time
        // gets the row counted above.
        if !rows.isEmpty {
            try db.run(
                """
                WITH b AS MATERIALIZED (SELECT json_extract(value, '$[0]') AS test_id, json_extract(value, '$[1]') AS branch,
                    json_extract(value, '$[2]') AS device, json_extract(value, '$[3]') AS ran_at,
                    json_extract(value, '$[4]') AS failed, json_extract(value, '$[5]') AS commit_sha FROM json_each(?1)),
                g AS (
                    SELECT test_id, branch, device, commit_sha, sum(1 - failed) AS passes, sum(failed) AS fails,
                        max(CASE WHEN failed = 0 THEN ran_at END) AS last_pass_at,
                        max(CASE WHEN failed = 1 THEN ran_at END) AS last_fail_at
                    FROM b GROUP BY test_id, branch, device, commit_sha)
                UPDATE flaky_commits SET passes = flaky_commits.passes + g.passes, fails = flaky_commits.fails + g.fails,
                    last_pass_at = CASE WHEN g.last_pass_at IS NULL THEN flaky_commits.last_pass_at
                        ELSE max(coalesce(flaky_commits.last_pass_at, g.last_pass_at), g.last_pass_at) END,
                    last_fail_at = CASE WHEN g.last_fail_at IS NULL THEN flaky_commits.last_fail_at
                        ELSE max(coalesce(flaky_commits.last_fail_at, g.last_fail_at), g.last_fail_at) END
                FROM g
                WHERE flaky_commits.test_id = g.test_id AND flaky_commits.branch = g.branch
                    AND flaky_commits.device = g.device AND flaky_commits.commit_sha = g.commit_sha
                """, [rows.json])
        }
        if !firstFailures.isEmpty {
            try db.run(
                """
                INSERT INTO flaky_commits (test_id, branch, device, commit_sha, passes, fails, last_pass_at, last_fail_at)
                SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
                    json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'),
                    json_extract(value, '$[6]'), json_extract(value, '$[7]')
                FROM json_each(?1) WHERE true
                ON CONFLICT (test_id, branch, device, commit_sha) DO NOTHING
                """, [firstFailures.json])
        }
        for entry in outcomes where isFailure(entry.status) { try recordFailure(db, entry) }
    }

    /// A key's `flaky_outcomes` row.
    struct StoredOutcomes {
        var newestResultID: Int64 = 0
        var pack = OutcomePack()
        /// Lifetime counts.
        var passes: Int64 = 0
        var fails: Int64 = 0
    }

    /// Places the batch's outcomes (`added`, per key in stored order) in each key's pack, keeps the newest
    /// `OutcomePack.capacity`, adds them to the lifetime counts and writes the rows back, and keeps each key's
    /// day rows (`flaky_test_days`); returns the `flaky_commits` rows of commits failing in the batch,
    /// counted over the pack before trimming (a commit's first failure starts its row from them).
    private static func updateOutcomePacks(
        _ db: Database, _ keyOrder: [OutcomeKey], _ added: [OutcomeKey: [Entry]]
    ) throws -> BatchJSON {
        var stored = try storedOutcomes(db, keyOrder)
        var firstFailures = BatchJSON()
        var dayRows: [(key: OutcomeKey, days: [DayCounts], before: StoredOutcomes)] = []
        for key in keyOrder {
            var row = stored[key] ?? StoredOutcomes()
            let batchOutcomes = added[key]!
            dayRows.append((key, DayCounts.of(batchOutcomes), row))
            for entry in batchOutcomes {
                if row.pack.outcomes.first.map({ entry.ranAt >= $0.ranAt }) ?? true {
                    row.newestResultID = entry.resultID
                }
                let failed = isFailure(entry.status)
                row.pack.insert(
                    OutcomePack.Outcome(
                        ranAt: entry.ranAt, failed: failed, commitKey: OutcomePack.commitKey(entry.commit)))
                if failed { row.fails += 1 } else { row.passes += 1 }
            }
            // A commit failing for the first time starts its flaky_commits row from the outcomes on it among
            // the newest results (the batch's included).
            var failingCommits: [String] = []
            for entry in batchOutcomes where isFailure(entry.status) && !(entry.commit ?? "").isEmpty {
                if !failingCommits.contains(entry.commit!) { failingCommits.append(entry.commit!) }
            }
            for commit in failingCommits {
                let commitKey = OutcomePack.commitKey(commit)
                var counts = (passes: 0, fails: 0, lastPass: Int64?.none, lastFail: Int64?.none)
                for outcome in row.pack.outcomes where outcome.commitKey == commitKey {
                    if outcome.failed {
                        counts.fails += 1
                        counts.lastFail = max(counts.lastFail ?? outcome.ranAt, outcome.ranAt)
                    } else {
                        counts.passes += 1
                        counts.lastPass = max(counts.lastPass ?? outcome.ranAt, outcome.ranAt)
                    }
                }
                firstFailures.append([
                    .text(key.testID), .text(key.branch), .text(key.device), .text(commit), .integer(Int64(counts.passes)),
                    .integer(Int64(counts.fails)), counts.lastPass.map { .integer($0) } ?? .null,
                    counts.lastFail.map { .integer($0) } ?? .null,
                ])
            }
            row.pack.trim()
            stored[key] = row
        }
        for key in keyOrder {
            let row = stored[key]!
            try db.run(
                """
                INSERT INTO flaky_outcomes (test_key, branch, device, newest_result_id, outcomes, passes, fails)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                ON CONFLICT (test_key, branch, device) DO UPDATE SET newest_result_id = excluded.newest_result_id,
                    outcomes = excluded.outcomes, passes = excluded.passes, fails = excluded.fails
                """,
                [
                    key.testKey, key.branch, key.device, row.newestResultID, SQLValue.blob(row.pack.encoded()),
                    row.passes, row.fails,
                ])
        }
        for (key, days, before) in dayRows { try updateDays(db, key, days, before: before) }
        return firstFailures
    }

    /// One day's pass and fail counts of a batch for one key.
    private struct DayCounts {
        var day: Int64
        var passes: Int64 = 0
        var fails: Int64 = 0

        /// The counts of `entries` per day, by day.
        static func of(_ entries: [Entry]) -> [DayCounts] {
            var days: [DayCounts] = []
            for entry in entries {
                let day = entry.ranAt / millisecondsPerDay
                let index =
                    days.firstIndex { $0.day == day }
                    ?? {
                        days.append(DayCounts(day: day))
                        return days.count - 1
                    }()
                if isFailure(entry.status) { days[index].fails += 1 } else { days[index].passes += 1 }
            }
            return days.sorted { $0.day < $1.day }
        }
    }

    /// Keeps `flaky_test_days` of `key` (the counts before each day with a result) true after the batch's
    /// `days` are added to `before` (the key's row before the batch). A batch of today's results on a key
    /// that already ran today writes nothing; its first result of a day inserts that day's row. Results
    /// older than the key's newest (a late upload) also add themselves to the rows of the later days.
    private static func updateDays(_ db: Database, _ key: OutcomeKey, _ days: [DayCounts], before: StoredOutcomes)
        throws
    {
        let newestDay = before.pack.outcomes.first.map { $0.ranAt / millisecondsPerDay }
        // The pack's days have rows; a day older than the pack's may too (then the insert below keeps it).
        let knownDays = Set(before.pack.outcomes.map { $0.ranAt / millisecondsPerDay })
        var inserts: [(day: Int64, passes: Int64, fails: Int64)] = []
        var earlier = (passes: Int64(0), fails: Int64(0))
        for counts in days {
            if !knownDays.contains(counts.day) {
                // The counts before the day: those of the next day with a row, else the lifetime counts, as
                // they were before the batch; plus the batch's earlier days.
                var base = (passes: before.passes, fails: before.fails)
                if let newestDay, counts.day < newestDay,
                    let next = try db.queryFirst(
                        """
                        SELECT passes_before, fails_before FROM flaky_test_days
                        WHERE test_key = ? AND branch = ? AND device = ? AND day > ? ORDER BY day LIMIT 1
                        """, [key.testKey, key.branch, key.device, counts.day], row: { ($0.int64(0), $0.int64(1)) })
                {
                    base = next
                }
                inserts.append((counts.day, base.passes + earlier.passes, base.fails + earlier.fails))
            }
            earlier = (earlier.passes + counts.passes, earlier.fails + counts.fails)
        }
        for counts in days where newestDay.map({ counts.day < $0 }) ?? false {
            try db.run(
                """
                UPDATE flaky_test_days SET passes_before = passes_before + ?5, fails_before = fails_before + ?6
                WHERE test_key = ?1 AND branch = ?2 AND device = ?3 AND day > ?4
                """, [key.testKey, key.branch, key.device, counts.day, counts.passes, counts.fails])
        }
        for row in inserts {
            try db.run(
                """
                INSERT INTO flaky_test_days (test_key, branch, device, day, passes_before, fails_before)
                VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
                """, [key.testKey, key.branch, key.device, row.day, row.passes, row.fails])
        }
    }

    /// A `flaky_outcomes` key (`testKey`, branch, device), with the test's id for the tables keyed by it.
    struct OutcomeKey: Hashable {
        var testID: String
        var testKey: Int64
        var branch: String
        var device: String
    }

    /// The stored rows of `keys` (keys without one left out), in one statement.
    private static func storedOutcomes(_ db: Database, _ keys: [OutcomeKey]) throws -> [OutcomeKey: StoredOutcomes] {
        var list = BatchJSON()
        for key in keys { list.append([.integer(key.testKey), .text(key.branch), .text(key.device)]) }
        var rows: [OutcomeKey: StoredOutcomes] = [:]
        try db.withStatement(
            """
            SELECT j.key, o.newest_result_id, o.outcomes, o.passes, o.fails FROM json_each(?1) j JOIN flaky_outcomes o
                ON o.test_key = json_extract(j.value, '$[0]') AND o.branch = json_extract(j.value, '$[1]')
                AND o.device = json_extract(j.value, '$[2]')
            """, [list.json]
        ) { row in
            while try row.step() {
                rows[keys[row.int(0)]] = StoredOutcomes(
                    newestResultID: row.int64(1), pack: row.withBlob(2) { OutcomePack($0) }, passes: row.int64(3),
                    fails: row.int64(4))
            }
        }
        return rows
    }

    /// Registers the SQL functions the summary statements use on `db` (flaky_summaries.sql's
    /// `failscope_outcome_pack(ran_at, id, failed, commit_sha)`: the group's newest `OutcomePack.capacity`
    /// pass/fail results as an `OutcomePack` BLOB).
    static func registerFunctions(_ db: Database) throws {
        try db.createAggregate("failscope_outcome_pack", argumentCount: 4) { rows in
            let newestFirst = rows.sorted { left, right in
                let (leftTime, rightTime) = (left[0].int64 ?? 0, right[0].int64 ?? 0)
                return leftTime != rightTime ? leftTime > rightTime : (left[1].int64 ?? 0) > (right[1].int64 ?? 0)
            }
            return .blob(
                OutcomePack(
                    newestFirst.prefix(OutcomePack.capacity).map { row in
                        OutcomePack.Outcome(
                            ranAt: row[0].int64 ?? 0, failed: (row[2].int64 ?? 0) != 0,
                            commitKey: OutcomePack.commitKey(row[3].string))
                    }
                ).encoded())
        }
    }

    /// The page list's counts per (project, branch, page, suite, day), one statement per group of the batch.
    private static func recordPageDays(_ db: Database, _ entries: [Entry]) throws {
        struct Group: Hashable {
            var project: String
            var branch: String
            var page: String
            var suite: String
            var day: Int64
        }
        var groups: [Group: (results: Int, fails: Int, lastFail: Int64?)] = [:]
        var order: [Group] = []
        for entry in entries {
            let group = Group(
                project: entry.project, branch: entry.branch ?? "", page: entry.page ?? "",
                suite: entry.page == nil ? entry.suite : "", day: entry.ranAt / millisecondsPerDay)
            var counts = groups[group] ?? (0, 0, nil)
            if groups[group] == nil { order.append(group) }
            counts.results += 1
            if isFailure(entry.status) {
                counts.fails += 1
                counts.lastFail = max(counts.lastFail ?? entry.ranAt, entry.ranAt)
            }
            groups[group] = counts
        }
        for group in order {
            let counts = groups[group]!
            try db.run(
                """
                INSERT INTO page_days (project, branch, page, suite, day, results, fails, last_fail_at)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                ON CONFLICT (project, day, branch, page, suite) DO UPDATE SET results = results + excluded.results,
                    fails = fails + excluded.fails,
                    last_fail_at = CASE WHEN excluded.last_fail_at IS NULL THEN last_fail_at
                        ELSE max(coalesce(last_fail_at, excluded.last_fail_at), excluded.last_fail_at) END
                """,
                [
                    group.project, group.branch, group.page, group.suite, group.day, counts.results, counts.fails,
                    counts.lastFail,
                ])
        }
    }

    /// A failing result's page rows (its device's and the all-devices ones) and call site.
    private static func recordFailure(_ db: Database, _ entry: Entry) throws {
        let branch = entry.branch ?? ""
        let device = entry.device ?? ""
        let page = entry.page ?? ""
        let day = entry.ranAt / millisecondsPerDay
        // The device's page rows, then the all-devices rows with their per-device breakdown.
        for key in [device, allDevices] {
            try db.run(
                """
                INSERT INTO flaky_page_days (test_id, branch, device, page, day, fails, first_fail_at, last_fail_at,
                    last_result_id)
                SELECT ?1, ?2, ?3, ?4, ?5, coalesce(max(fails), 0), ?6, ?6, ?7 FROM (
                    SELECT fails FROM flaky_page_days WHERE test_id = ?1 AND branch = ?2 AND device = ?3 AND page = ?4
                        AND day < ?5 ORDER BY day DESC LIMIT 1) WHERE true
                ON CONFLICT (test_id, branch, device, page, day) DO UPDATE SET
                    first_fail_at = min(first_fail_at, excluded.first_fail_at),
                    last_result_id = CASE WHEN excluded.last_fail_at >= last_fail_at THEN excluded.last_result_id
                        ELSE last_result_id END,
                    last_fail_at = max(last_fail_at, excluded.last_fail_at)
                """, [entry.testID, branch, key, page, day, entry.ranAt, entry.resultID])
            try db.run(
                """
                UPDATE flaky_page_days SET fails = fails + 1
                WHERE test_id = ? AND branch = ? AND device = ? AND page = ? AND day >= ?
                """, [entry.testID, branch, key, page, day])
            try db.run(
                """
                INSERT INTO flaky_test_pages (test_id, branch, device, page, project, last_fail_at, last_result_id, fails)
                VALUES (?, ?, ?, ?, ?, ?, ?, 1)
                ON CONFLICT (test_id, branch, device, page) DO UPDATE SET
                    last_result_id = CASE WHEN excluded.last_fail_at >= last_fail_at THEN excluded.last_result_id
                        ELSE last_result_id END,
                    last_fail_at = max(last_fail_at, excluded.last_fail_at), fails = fails + 1
                """, [entry.testID, branch, key, page, entry.project, entry.ranAt, entry.resultID])
        }
        // What flaky_summaries.sql computes, over the per-device rows just updated: for the
        // day rows, each device's newest cumulative row through the day, its devices found among the
        // (test, branch, device, page) rows (so the cost does not grow with the days of history).
        try db.run(
            """
            UPDATE flaky_page_days SET devices = (
                SELECT json_group_object(device, fails) FROM (
                    SELECT device, fails FROM (
                        SELECT x.device AS device, (SELECT y.fails FROM flaky_page_days y WHERE y.test_id = x.test_id
                            AND y.branch = x.branch AND y.device = x.device AND y.page = x.page
                            AND y.day <= flaky_page_days.day ORDER BY y.day DESC LIMIT 1) AS fails
                        FROM flaky_test_pages x
                        WHERE x.test_id = flaky_page_days.test_id AND x.branch = flaky_page_days.branch
                            AND x.device <> '*' AND x.page = flaky_page_days.page)
                    WHERE fails IS NOT NULL ORDER BY device))
            WHERE test_id = ?1 AND branch = ?2 AND device = '*' AND page = ?3 AND day >= ?4
            """, [entry.testID, branch, page, day])
        try db.run(
            """
            UPDATE flaky_test_pages SET devices = (
                SELECT json_group_object(device, fails) FROM (
                    SELECT x.device, x.fails FROM flaky_test_pages x
                    WHERE x.test_id = flaky_test_pages.test_id AND x.branch = flaky_test_pages.branch
                        AND x.device <> '*' AND x.page = flaky_test_pages.page
                    ORDER BY x.device))
            WHERE test_id = ?1 AND branch = ?2 AND device = '*' AND page = ?3
            """, [entry.testID, branch, page])
        if let callSite = entry.callSite {
            for key in outcomeDeviceKeys(device) {
                try db.run(
                    """
                    INSERT INTO flaky_call_sites (test_id, branch, device, page, file, line, fails, last_fail_at)
                    VALUES (?, ?, ?, ?, ?, ?, 1, ?)
                    ON CONFLICT (test_id, branch, device, page, file, line) DO UPDATE SET fails = fails + 1,
                        last_fail_at = max(last_fail_at, excluded.last_fail_at)
                    """, [entry.testID, branch, key, page, callSite.file, callSite.line, entry.ranAt])
            }
        }
    }

    /// The summary tables keyed by `tests.key` instead of the test's id.
    static let testKeyedTables: Set = ["flaky_outcomes", "flaky_test_days"]

    /// The summary tables, in the order `flaky_summaries.sql` fills them.
    static let tables = [
        "flaky_outcomes", "flaky_commits", "flaky_test_days", "flaky_page_days", "flaky_test_pages", "flaky_call_sites",
        "page_days",
    ]

    /// A UTC day of a project: the key of `page_days` rows.
    struct PageDay: Hashable {
        var project: String
        var day: Int64
    }

    /// Adds the stored results `entries` of one ingest batch to the summaries, but for PostgreSQL's page days
    /// (``addDays(_:_:)``). SQLite records them incrementally (``record(_:_:testSummaries:pageDays:)``);
    /// PostgreSQL, whose writers run side by side, computes the rows of the batch's tests again
    /// (``recompute(_:tests:days:)``).
    static func add(_ db: any SQLConnection, _ entries: [Entry]) throws {
        if let sqlite = db as? Database { return try record(sqlite, entries) }
        try recompute(db, tests: entries.map(\.testID), days: [])
    }

    /// PostgreSQL: computes the `page_days` rows of the days of `entries` again, after ``add(_:_:)``. Every batch
    /// of a project's day waits for the one before (they share the rows), so `addResults` calls it last.
    static func addDays(_ db: any SQLConnection, _ entries: [Entry]) throws {
        guard db.dialect == .postgres else { return }
        try recompute(
            db, tests: [], days: entries.map { PageDay(project: $0.project, day: $0.ranAt / millisecondsPerDay) })
    }

    /// Computes again, with the engine's `flaky_summaries.sql` (the one definition of the rows), every summary
    /// row of the tests `tests` and the `page_days` rows of `days`, from all of their results. Call inside the
    /// transaction that changed their results.
    ///
    /// On PostgreSQL the transaction first takes an advisory lock per test and day (in one order, so two
    /// writers never wait on each other in a cycle): a writer touching the same tests waits, then computes
    /// over the first one's committed results, and no rows are lost or duplicated between them.
    static func recompute(_ db: any SQLConnection, tests: [String], days: [PageDay]) throws {
        guard !tests.isEmpty || !days.isEmpty else { return }
        try db.execute(db.dialect.flakyScopeTables)
        var testRows = BatchJSON()
        for test in Set(tests) { testRows.append([.text(test)]) }
        var dayRows = BatchJSON()
        for day in Set(days) { dayRows.append([.text(day.project), .integer(day.day)]) }
        try db.run(
            """
            INSERT INTO flaky_scope_tests (test_id) SELECT DISTINCT (j.value ->> 0)
            FROM \(db.dialect.jsonArrayRows("?1", as: "j")) WHERE true ON CONFLICT DO NOTHING
            """, [testRows.json])
        try db.run(
            """
            INSERT INTO flaky_scope_days (project, day) SELECT DISTINCT (j.value ->> 0), CAST(j.value ->> 1 AS BIGINT)
            FROM \(db.dialect.jsonArrayRows("?1", as: "j")) WHERE true ON CONFLICT DO NOTHING
            """, [dayRows.json])
        try computeScope(db, tests: !tests.isEmpty, days: !days.isEmpty)
    }

    /// Recomputes every summary table from `results` (a full rebuild: the generator's bulk load, gc, a repair).
    static func rebuildAll(_ db: any SQLConnection) throws {
        try db.execute(db.dialect.flakyScopeTables)
        for table in tables { try db.run("DELETE FROM \(table)") }
        try db.run("INSERT INTO flaky_scope_tests (test_id) SELECT id FROM tests")
        try db.run(
            "INSERT INTO flaky_scope_days (project, day) SELECT DISTINCT project, ran_at / 86400000 FROM results")
        try computeScope(db)
    }

    /// The statements of each engine's `flaky_summaries.sql`, in order: run one by one, each is prepared once
    /// per connection (the script runs at every PostgreSQL ingest).
    private static let sqliteStatements = split(SQLiteMigrations.flakySummaries)
    private static let postgresStatements = split(PostgresMigrations.flakySummaries)

    private static func statements(_ dialect: SQLDialect) -> [String] {
        dialect == .sqlite ? sqliteStatements : postgresStatements
    }

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

    /// Runs the engine's `flaky_summaries.sql` over the filled scope tables, then empties them; with `days`
    /// or `tests` false, leaves out the statements of that scope (it is empty).
    private static func computeScope(_ db: any SQLConnection, tests: Bool = true, days: Bool = true) throws {
        if db.dialect == .postgres {
            try db.run(
                """
                SELECT count(pg_advisory_xact_lock(k)) FROM (
                    SELECT hashtext('t' || test_id) AS k FROM flaky_scope_tests
                    UNION SELECT hashtext('d' || project || ':' || day) FROM flaky_scope_days ORDER BY 1) AS keys
                """)
        }
        for statement in statements(db.dialect) where statement.contains("flaky_scope_days") ? days : tests {
            try db.run(statement)
        }
        try db.run("DELETE FROM flaky_scope_tests")
        try db.run("DELETE FROM flaky_scope_days")
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
}
