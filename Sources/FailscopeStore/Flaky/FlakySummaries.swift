import FailscopeModel
import Foundation

/// Maintains the summary tables of `Migrations/0002_flaky_summaries.sql` (as 0003 and 0005 redefine
/// them) inside the ingest transaction, so flaky and page queries read a bounded number of rows per
/// test (docs/flaky.md).
///
/// `record` adds a batch of stored results. `rebuildAll` recomputes every table from `results` with the
/// newest migration's "-- populate" statements; `rebuild(_:testsOfRun:)` records the results of a run's
/// tests again when the run's branch, commit, device or start changed. All give the same rows
/// (`FlakySummaryTests` checks it).
enum FlakySummaries {
    /// The newest results kept per (test, branch, device) in `flaky_recent`; bounds `FlakyPolicy`'s windows.
    static let recentCapacity = 64
    /// The device key that sums every device.
    static let allDevices = "*"
    static let millisecondsPerDay: Int64 = 86_400_000

    /// One stored result, as `addResults` wrote it.
    struct Entry {
        var resultID: Int64
        var testID: String
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
        // One row per outcome and device key: test, branch, device, ran_at, result_id, failed, commit, day.
        var rows = BatchJSON()
        struct RecentKey: Hashable {
            var testID: String
            var branch: String
            var device: String
        }
        struct DayKey: Hashable {
            var testID: String
            var branch: String
            var device: String
            var day: Int64
        }
        var keyOrder: [RecentKey] = []
        var seenKeys = Set<RecentKey>()
        var days: [DayKey: (passes: Int, fails: Int)] = [:]
        var dayOrder: [DayKey] = []
        for entry in outcomes {
            let failed = isFailure(entry.status) ? 1 : 0
            let day = entry.ranAt / millisecondsPerDay
            let device = entry.device ?? ""
            let dayKey = DayKey(testID: entry.testID, branch: entry.branch ?? "", device: device, day: day)
            if let known = days[dayKey] {
                days[dayKey] = (known.passes + 1 - failed, known.fails + failed)
            } else {
                days[dayKey] = (1 - failed, failed)
                dayOrder.append(dayKey)
            }
            for key in [device, allDevices] {
                rows.append([
                    .text(entry.testID), .text(entry.branch ?? ""), .text(key), .integer(entry.ranAt),
                    .integer(entry.resultID), .integer(Int64(failed)), .text(entry.commit ?? ""), .integer(day),
                ])
                let recentKey = RecentKey(testID: entry.testID, branch: entry.branch ?? "", device: key)
                if seenKeys.insert(recentKey).inserted { keyOrder.append(recentKey) }
            }
        }
        let batch = rows.json
        let batchRows = """
            b AS MATERIALIZED (SELECT json_extract(value, '$[0]') AS test_id, json_extract(value, '$[1]') AS branch,
                json_extract(value, '$[2]') AS device, json_extract(value, '$[3]') AS ran_at,
                json_extract(value, '$[4]') AS result_id, json_extract(value, '$[5]') AS failed,
                json_extract(value, '$[6]') AS commit_sha, json_extract(value, '$[7]') AS day
                FROM json_each(?1))
            """
        try db.run(
            """
            INSERT INTO flaky_recent (test_id, branch, device, ran_at, result_id, failed, commit_sha)
            SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
                json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]'),
                json_extract(value, '$[6]')
            FROM json_each(?1) WHERE true
            """, [batch])
        // Commits: rows that existed before the batch add its outcomes; a commit failing for the first time
        // starts its row from the outcomes on it among the newest results (the batch's included).
        if outcomes.contains(where: { !($0.commit ?? "").isEmpty }) {
            try db.run(
                """
                WITH \(batchRows), g AS (
                    SELECT test_id, branch, device, commit_sha, sum(1 - failed) AS passes, sum(failed) AS fails,
                        max(CASE WHEN failed = 0 THEN ran_at END) AS last_pass_at,
                        max(CASE WHEN failed = 1 THEN ran_at END) AS last_fail_at
                    FROM b WHERE commit_sha <> '' GROUP BY test_id, branch, device, commit_sha)
                UPDATE flaky_commits SET passes = flaky_commits.passes + g.passes, fails = flaky_commits.fails + g.fails,
                    last_pass_at = CASE WHEN g.last_pass_at IS NULL THEN flaky_commits.last_pass_at
                        ELSE max(coalesce(flaky_commits.last_pass_at, g.last_pass_at), g.last_pass_at) END,
                    last_fail_at = CASE WHEN g.last_fail_at IS NULL THEN flaky_commits.last_fail_at
                        ELSE max(coalesce(flaky_commits.last_fail_at, g.last_fail_at), g.last_fail_at) END
                FROM g
                WHERE flaky_commits.test_id = g.test_id AND flaky_commits.branch = g.branch
                    AND flaky_commits.device = g.device AND flaky_commits.commit_sha = g.commit_sha
                """, [batch])
            try db.run(
                """
                WITH \(batchRows), f AS (
                    SELECT DISTINCT test_id, branch, device, commit_sha FROM b WHERE commit_sha <> '' AND failed = 1)
                INSERT INTO flaky_commits (test_id, branch, device, commit_sha, passes, fails, last_pass_at, last_fail_at)
                SELECT f.test_id, f.branch, f.device, f.commit_sha, sum(1 - r.failed), sum(r.failed),
                    max(CASE WHEN r.failed = 0 THEN r.ran_at END), max(CASE WHEN r.failed = 1 THEN r.ran_at END)
                FROM f JOIN flaky_recent r ON r.test_id = f.test_id AND r.branch = f.branch AND r.device = f.device
                    AND r.commit_sha = f.commit_sha
                GROUP BY f.test_id, f.branch, f.device, f.commit_sha
                ON CONFLICT (test_id, branch, device, commit_sha) DO NOTHING
                """, [batch])
        }
        // Pass/fail counts per (test, branch, device, day): one upsert for the batch.
        var dayCounts = BatchJSON()
        for key in dayOrder {
            let counts = days[key]!
            dayCounts.append([
                .text(key.testID), .text(key.branch), .text(key.device), .integer(key.day), .integer(Int64(counts.passes)),
                .integer(Int64(counts.fails)),
            ])
        }
        try db.run(
            """
            INSERT INTO flaky_test_days (test_id, branch, device, day, passes, fails)
            SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]'),
                json_extract(value, '$[3]'), json_extract(value, '$[4]'), json_extract(value, '$[5]')
            FROM json_each(?1) WHERE true
            ON CONFLICT (test_id, branch, day, device) DO UPDATE SET passes = passes + excluded.passes,
                fails = fails + excluded.fails
            """, [dayCounts.json])
        // The newest `recentCapacity` per key: everything at or before the oldest one beyond it goes (the
        // keys below capacity, most of them, cost one index probe).
        var keys = BatchJSON()
        for key in keyOrder { keys.append([.text(key.testID), .text(key.branch), .text(key.device)]) }
        try db.run(
            """
            WITH over AS MATERIALIZED (
                SELECT test_id, branch, device,
                    (SELECT r.ran_at FROM flaky_recent r WHERE r.test_id = q.test_id AND r.branch = q.branch
                        AND r.device = q.device ORDER BY r.ran_at DESC, r.result_id DESC LIMIT 1 OFFSET ?2) AS ran_at
                FROM (SELECT json_extract(value, '$[0]') AS test_id, json_extract(value, '$[1]') AS branch,
                    json_extract(value, '$[2]') AS device FROM json_each(?1)) q),
            k AS MATERIALIZED (
                SELECT test_id, branch, device, ran_at,
                    (SELECT r.result_id FROM flaky_recent r WHERE r.test_id = over.test_id AND r.branch = over.branch
                        AND r.device = over.device ORDER BY r.ran_at DESC, r.result_id DESC LIMIT 1 OFFSET ?2) AS result_id
                FROM over WHERE ran_at IS NOT NULL)
            DELETE FROM flaky_recent WHERE (test_id, branch, device, ran_at, result_id) IN (
                SELECT r.test_id, r.branch, r.device, r.ran_at, r.result_id FROM k JOIN flaky_recent r
                    ON r.test_id = k.test_id AND r.branch = k.branch AND r.device = k.device
                    AND (r.ran_at, r.result_id) <= (k.ran_at, k.result_id))
            """, [keys.json, recentCapacity])
        for entry in outcomes where isFailure(entry.status) { try recordFailure(db, entry) }
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
                [group.project, group.branch, group.page, group.suite, group.day, counts.results, counts.fails, counts.lastFail])
        }
    }

    /// A failing result's page rows (its device's and the all-devices ones) and call site.
    private static func recordFailure(_ db: Database, _ entry: Entry) throws {
        let branch = entry.branch ?? ""
        let device = entry.device ?? ""
        let page = entry.page ?? ""
        let day = entry.ranAt / millisecondsPerDay
        // The device's page rows, then the all-devices rows with their per-device breakdown (0005).
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
        // What the "-- populate" section of 0005 computes, over the per-device rows just updated: for the
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
            try db.run(
                """
                INSERT INTO flaky_call_sites (test_id, branch, device, page, file, line, fails, last_fail_at)
                VALUES (?, ?, ?, ?, ?, ?, 1, ?)
                ON CONFLICT (test_id, branch, device, page, file, line) DO UPDATE SET fails = fails + 1,
                    last_fail_at = max(last_fail_at, excluded.last_fail_at)
                """, [entry.testID, branch, device, page, callSite.file, callSite.line, entry.ranAt])
        }
    }

    /// The summary tables, in the order the populate statements fill them.
    static let tables = [
        "flaky_recent", "flaky_commits", "flaky_test_days", "flaky_page_days", "flaky_test_pages", "flaky_call_sites",
        "page_days",
    ]

    /// The "-- populate" statements of the newest migration that has them (0005, with device-summed page
    /// rows and per-day test counts), in order: the current definition of the summaries.
    static let populateStatements: [String] = {
        guard
            let (migration, marker) = Migration.embedded.reversed().lazy.compactMap({ migration in
                migration.sql.range(of: "\n-- populate\n").map { (migration, $0) }
            }).first
        else { preconditionFailure("no migration has a '-- populate' section") }
        return migration.sql[marker.upperBound...].components(separatedBy: ";\n")
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
    }()

    /// Recomputes every summary table from `results` (the generator's bulk load; a repair).
    static func rebuildAll(_ db: Database) throws {
        for table in tables { try db.execute("DELETE FROM \(table)") }
        for statement in populateStatements { try db.execute(statement) }
    }

    /// Recomputes the summaries of every test with a result in run `runID`, and the page rows of the
    /// days those tests ran, by recording their results again in time order (a run's branch, commit,
    /// device or start time changed; rare, bounded by those tests' history).
    static func rebuild(_ db: Database, testsOfRun runID: String) throws {
        let tests = try db.query("SELECT DISTINCT test_id FROM results WHERE run_id = ?", [runID]) { $0.string(0) }
        var days = Set<PageDay>()
        for test in tests {
            for table in tables where table != "page_days" {
                try db.run("DELETE FROM \(table) WHERE test_id = ?", [test])
            }
            for entry in try entries(db, "WHERE r.test_id = ?", [test]) {
                try record(db, [entry], pageDays: false)
                days.insert(PageDay(project: entry.project, day: entry.ranAt / millisecondsPerDay))
            }
        }
        for pageDay in days {
            try db.run("DELETE FROM page_days WHERE project = ? AND day = ?", [pageDay.project, pageDay.day])
            let start = pageDay.day * millisecondsPerDay
            for entry in try entries(
                db, "WHERE r.project = ? AND r.ran_at >= ? AND r.ran_at < ?",
                [pageDay.project, start, start + millisecondsPerDay])
            {
                try record(db, [entry], testSummaries: false)
            }
        }
    }

    private struct PageDay: Hashable {
        var project: String
        var day: Int64
    }

    private static func entries(_ db: Database, _ condition: String, _ values: [any SQLBindable]) throws -> [Entry] {
        try db.query(
            """
            SELECT r.id, r.test_id, r.project, t.suite, r.branch, r.commit_sha, r.device, r.page, r.call_site_file,
                r.call_site_line, r.status, r.ran_at
            FROM results r JOIN tests t ON t.id = r.test_id \(condition) ORDER BY r.ran_at, r.id
            """, values
        ) { row in
            Entry(
                resultID: row.int64(0), testID: row.string(1), project: row.string(2), suite: row.string(3),
                branch: row.optionalString(4), commit: row.optionalString(5), device: row.optionalString(6),
                page: row.optionalString(7), callSite: row.optionalString(8).map { (file: $0, line: row.int(9)) },
                status: row.string(10), ranAt: row.int64(11))
        }
    }
}

/// A JSON array of rows of text and integers, for `json_each` (the batch statements of `FlakySummaries`),
/// written by `WireJSONWriter`.
struct BatchJSON {
    enum Value {
        case text(String)
        case integer(Int64)
        case null
    }

    private var writer = WireJSONWriter()

    mutating func append(_ row: [Value]) {
        writer.raw(writer.bytes.isEmpty ? "[" : ",")
        writer.array(row) { json, value in
            switch value {
            case .text(let string): json.string(string)
            case .integer(let integer): json.raw(String(integer))
            case .null: json.raw("null")
            }
        }
    }

    /// The array's text.
    var json: String { writer.bytes.isEmpty ? "[]" : String(decoding: writer.bytes, as: UTF8.self) + "]" }
}
