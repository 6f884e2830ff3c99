import Foundation

/// Maintains the summary tables of `Migrations/0002_flaky_summaries.sql` (as 0003 redefines
/// flaky_commits) inside the ingest transaction, so flaky and page queries read a bounded number of
/// rows per test (docs/flaky.md).
///
/// `record` adds one stored result. `rebuildAll` recomputes every table from `results` with the
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

    /// Adds `entry` to every summary table. Call inside the transaction that inserted it.
    static func record(_ db: Database, _ entry: Entry, testSummaries: Bool = true, pageDays: Bool = true) throws {
        let branch = entry.branch ?? ""
        let device = entry.device ?? ""
        let page = entry.page ?? ""
        let day = entry.ranAt / millisecondsPerDay
        let failed = isFailure(entry.status)
        let failedCount = failed ? 1 : 0
        if pageDays {
            try db.run(
            """
            INSERT INTO page_days (project, branch, page, suite, day, results, fails, last_fail_at)
            VALUES (?1, ?2, ?3, ?4, ?5, 1, ?6, CASE WHEN ?6 = 1 THEN ?7 END)
            ON CONFLICT (project, day, branch, page, suite) DO UPDATE SET results = results + 1,
                fails = fails + excluded.fails,
                last_fail_at = CASE WHEN excluded.last_fail_at IS NULL THEN last_fail_at
                    ELSE max(coalesce(last_fail_at, excluded.last_fail_at), excluded.last_fail_at) END
            """, [entry.project, branch, page, entry.page == nil ? entry.suite : "", day, failedCount, entry.ranAt])
        }
        guard testSummaries, entry.status != "skipped" else { return }
        let commit = entry.commit ?? ""
        for key in [device, allDevices] {
            try db.run(
                """
                INSERT INTO flaky_recent (test_id, branch, device, ran_at, result_id, failed, commit_sha)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [entry.testID, branch, key, entry.ranAt, entry.resultID, failedCount, commit])
            try db.run(
                """
                DELETE FROM flaky_recent WHERE test_id = ?1 AND branch = ?2 AND device = ?3
                    AND (ran_at, result_id) <= (SELECT ran_at, result_id FROM flaky_recent
                        WHERE test_id = ?1 AND branch = ?2 AND device = ?3
                        ORDER BY ran_at DESC, result_id DESC LIMIT 1 OFFSET ?4)
                """, [entry.testID, branch, key, recentCapacity])
            if !commit.isEmpty && failed {
                // A commit's row starts at its first failure, with the passes on it among the newest results.
                try db.run(
                    """
                    INSERT INTO flaky_commits (test_id, branch, device, commit_sha, passes, fails, last_pass_at,
                        last_fail_at)
                    SELECT ?1, ?2, ?3, ?4, count(*), 1, max(ran_at), ?5 FROM flaky_recent
                    WHERE test_id = ?1 AND branch = ?2 AND device = ?3 AND commit_sha = ?4 AND failed = 0
                    ON CONFLICT (test_id, branch, device, commit_sha) DO UPDATE SET fails = fails + 1,
                        last_fail_at = max(last_fail_at, excluded.last_fail_at)
                    """, [entry.testID, branch, key, commit, entry.ranAt])
            } else if !commit.isEmpty {
                try db.run(
                    """
                    UPDATE flaky_commits SET passes = passes + 1, last_pass_at = max(coalesce(last_pass_at, ?5), ?5)
                    WHERE test_id = ?1 AND branch = ?2 AND device = ?3 AND commit_sha = ?4
                    """, [entry.testID, branch, key, commit, entry.ranAt])
            }
            // Cumulative through each day: the new day's row starts from the previous day's totals,
            // then this result is added to it and to every later day (only out-of-order results have any).
            // (`WHERE true` resolves the INSERT ... SELECT ... ON CONFLICT parsing ambiguity.)
            try db.run(
                """
                INSERT INTO flaky_test_days (test_id, branch, device, day, passes, fails)
                SELECT ?1, ?2, ?3, ?4, coalesce(max(passes), 0), coalesce(max(fails), 0) FROM (
                    SELECT passes, fails FROM flaky_test_days WHERE test_id = ?1 AND branch = ?2 AND device = ?3
                        AND day < ?4 ORDER BY day DESC LIMIT 1) WHERE true
                ON CONFLICT (test_id, branch, device, day) DO NOTHING
                """, [entry.testID, branch, key, day])
            try db.run(
                """
                UPDATE flaky_test_days SET passes = passes + ?5, fails = fails + ?6
                WHERE test_id = ?1 AND branch = ?2 AND device = ?3 AND day >= ?4
                """, [entry.testID, branch, key, day, 1 - failedCount, failedCount])
        }
        guard failed else { return }
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
        // The same expressions as the "-- populate" section of 0005, over the per-device rows just updated.
        try db.run(
            """
            UPDATE flaky_page_days SET devices = (
                SELECT json_group_object(device, fails) FROM (
                    SELECT x.device, x.fails FROM flaky_page_days x
                    WHERE x.test_id = flaky_page_days.test_id AND x.branch = flaky_page_days.branch AND x.device <> '*'
                        AND x.page = flaky_page_days.page
                        AND x.day = (SELECT max(y.day) FROM flaky_page_days y WHERE y.test_id = x.test_id
                            AND y.branch = x.branch AND y.device = x.device AND y.page = x.page
                            AND y.day <= flaky_page_days.day)
                    ORDER BY x.device))
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

    /// The "-- populate" statements of the newest migration that has them (0003 since flaky_commits keeps
    /// only commits with a failure), one per table of `tables`: the current definition of the summaries.
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
                try record(db, entry, pageDays: false)
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
                try record(db, entry, testSummaries: false)
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
