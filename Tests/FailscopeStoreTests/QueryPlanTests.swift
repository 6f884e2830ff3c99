import FailscopeModel
import XCTest

@_spi(Engine) @testable import FailscopeStore

/// The dashboard's and the flaky analysis' access paths read an index range (or walk an index in
/// order under a LIMIT), never a whole table.
final class QueryPlanTests: XCTestCase {
    private func plan(_ sql: String, _ values: [any SQLBindable]) throws -> String {
        let store = try FailscopeStore(directory: try makeTemporaryDirectory())
        defer { store.close() }
        return try store.pool.read { db in
            try db.query("EXPLAIN QUERY PLAN " + sql, values) { $0.string(3) }.joined(separator: "\n")
        }
    }

    private func assertUsesIndex(
        _ sql: String, _ values: [any SQLBindable], index: String, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let text = try plan(sql, values)
        XCTAssertTrue(text.contains(index), "expected \(index) in:\n\(text)", file: file, line: line)
        // A derived table (a subquery in FROM: `(subquery-N)`, or named, then planned as `CO-ROUTINE name` or
        // `MATERIALIZE name`) holds rows already computed from indexed searches: scanning it scans no table.
        let lines = text.split(separator: "\n")
        let derived = Set(
            lines.compactMap { line -> Substring? in
                for prefix in ["CO-ROUTINE ", "MATERIALIZE "] where line.hasPrefix(prefix) {
                    return line.dropFirst(prefix.count)
                }
                return nil
            })
        let fullScans = lines.filter {
            $0.hasPrefix("SCAN ") && !$0.contains("(subquery") && !$0.contains(" USING INDEX ")
                && !derived.contains($0.dropFirst(5))
        }
        XCTAssertEqual(fullScans, [], "full table scan in:\n\(text)", file: file, line: line)
    }

    func testRunListsUseTimeIndexes() throws {
        let columns = FailscopeStore.runColumns
        try assertUsesIndex(
            "SELECT \(columns) FROM runs ORDER BY started_at DESC, id DESC LIMIT ?", [51], index: "runs_by_time")
        try assertUsesIndex(
            "SELECT \(columns) FROM runs WHERE project = ? AND branch = ? ORDER BY started_at DESC, id DESC LIMIT ?",
            ["Shop", "main", 51], index: "runs_by_project_branch_time")
        try assertUsesIndex(
            "SELECT \(columns) FROM runs WHERE status = ? ORDER BY started_at DESC, id DESC LIMIT ?", ["failed", 51],
            index: "runs_by_status_time")
    }

    func testRunPageAndHistoryUseTheirIndexes() throws {
        let columns = FailscopeStore.resultColumns
        try assertUsesIndex(
            "SELECT \(columns) FROM results r JOIN tests t ON t.id = r.test_id WHERE r.run_id = ?", ["run-1"],
            index: "sqlite_autoindex_results_1")
        try assertUsesIndex(
            """
            SELECT \(columns) FROM results r JOIN tests t ON t.id = r.test_id WHERE r.test_id = ?
            ORDER BY r.ran_at DESC, r.id DESC LIMIT ?
            """, ["0123", 101], index: "results_by_test_time")
    }

    func testQuarantineIsDecidedByIndexSearchesPerResultAndRun() throws {
        // Whether an entry applied to a result: one range of quarantine_entries_by_test.
        let text = try plan(
            "SELECT \(FailscopeStore.resultColumns) FROM results r JOIN tests t ON t.id = r.test_id WHERE r.run_id = ?",
            ["run-1"])
        XCTAssertTrue(
            text.contains(
                "SEARCH q USING INDEX quarantine_entries_by_test (project=? AND suite=? AND name=? AND created_at<?)"),
            text)
        // A run's forgiven failing tests: a guard on the project's entries, then one pass over the run's results.
        let runs = try plan("SELECT \(FailscopeStore.runColumns) FROM runs WHERE id = ?", ["run-1"])
        XCTAssertTrue(
            runs.contains("SEARCH p USING COVERING INDEX quarantine_entries_by_project_end (project=? AND ends_at>?)"),
            runs)
        XCTAssertTrue(runs.contains("SEARCH r USING INDEX sqlite_autoindex_results_1 (run_id=?)"), runs)
        try assertUsesIndex(
            "SELECT \(FailscopeStore.runColumns) FROM runs WHERE id = ?", ["run-1"],
            index: "sqlite_autoindex_results_1")
        // The active entries of a project.
        try assertUsesIndex(
            "SELECT id FROM quarantine_entries e WHERE e.project = ? AND e.ends_at > ? ORDER BY e.created_at DESC",
            ["Shop", 0], index: "quarantine_entries_by_project_end")
    }

    func testFlakySummaryWindowScansReadOneDeviceKey() throws {
        // The page list's window rows: the device-summed '*' rows failing in the window, read from the
        // index `flaky_test_pages_by_time` alone, each with one primary-key lookup of its row before the window.
        let select = FlakyAnalysis.pageRowSelect(withFirstFailure: false)
        let text = try plan(
            select + " WHERE tp.device = ?2 AND tp.last_fail_at >= ?3 AND tp.project = ?4 AND tp.branch = ?5",
            [20_000, "*", 0, "Shop", "main"])
        XCTAssertTrue(text.contains("SEARCH tp USING COVERING INDEX flaky_test_pages_by_time (device=? AND last_fail_at>?)"), text)
        XCTAssertTrue(text.contains("SEARCH d USING PRIMARY KEY (test_id=? AND branch=? AND device=? AND page=? AND day<?)"), text)
        // A pair's rows: its primary-key range, not the window index.
        let pair = try plan(
            select + " WHERE tp.test_id = ?2 AND tp.branch = ?3 AND tp.device = ?4 AND +tp.last_fail_at >= ?5",
            [20_000, "t", "main", "*", 0])
        XCTAssertTrue(pair.contains("SEARCH tp USING PRIMARY KEY (test_id=? AND branch=? AND device=?)"), pair)
    }

    func testContradictingCommitsComeFromTheirIndex() throws {
        // Each flaky pair's contradicting commits in the window: a range of the covering index
        // `flaky_commits_contradicting`, no table lookup.
        let text = try plan(FlakyAnalysis.contradictingCommits(.sqlite), [#"[["t","main"]]"#, "*", 0, 1])
        XCTAssertTrue(
            text.contains(
                "SEARCH c USING COVERING INDEX flaky_commits_contradicting (test_id=? AND branch=? AND device=? AND <expr>>?)"),
            text)
    }

    func testFlakyWindowQueriesReadOneIndexRange() throws {
        // Issue 7's flaky-by-page queries: results of a project/branch (and page) over a window of days.
        try assertUsesIndex(
            """
            SELECT test_id, commit_sha, status, page FROM results
            WHERE project = ? AND branch = ? AND ran_at >= ?
            """, ["Shop", "main", 0], index: "results_by_project_branch_time (project=? AND branch=? AND ran_at>?)")
        try assertUsesIndex(
            """
            SELECT test_id, commit_sha, status FROM results
            WHERE project = ? AND page = ? AND ran_at >= ? AND branch = ?
            """, ["Shop", "LoginPage", 0, "main"],
            index: "results_by_project_page_time (project=? AND page=? AND ran_at>?)")
        try assertUsesIndex(
            """
            SELECT page, count(*) FROM results WHERE ran_at >= ? AND page IS NOT NULL GROUP BY page
            """, [0], index: "results_by_time (ran_at>?)")
    }

    func testGarbageCollectionLookupsUseIndexes() throws {
        try assertUsesIndex(
            "SELECT 1 FROM result_artifacts ra WHERE ra.sha256 = ?", [String(repeating: "a", count: 64)],
            index: "result_artifacts_by_sha256")
        try assertUsesIndex(
            "SELECT 1 FROM results r WHERE r.test_id = ?", ["x"], index: "results_by_test_time (test_id=?)")
    }

    /// A commit's first failure counts the test's results on the commit (flaky_summaries.sql) by one range.
    func testACommitsResultsOfATestAreOneIndexRange() throws {
        try assertUsesIndex(
            "SELECT status, ran_at FROM results r WHERE r.test_id = ? AND r.commit_sha = ?", ["x", "abc"],
            index: "results_by_commit_test (commit_sha=? AND test_id=?)")
    }
}
