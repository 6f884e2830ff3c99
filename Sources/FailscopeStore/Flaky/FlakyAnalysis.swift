import FailscopeModel
import Foundation

/// The reads behind `flakyTests` and `flakyPages`, inside one snapshot: candidates are the
/// (test, branch) pairs with a failure in the window (`flaky_test_pages`), each classified from its
/// newest results (`flaky_recent`) and contradicting commits (`flaky_commits`); counts in the window
/// are differences of cumulative rows (`flaky_test_days`, `flaky_page_days`). Every read is an index
/// range bounded by the window or by a constant, never the window's results.
struct FlakyAnalysis {
    let db: Database
    let window: FlakyWindow

    /// One (test, branch, device, page) with a failure in the window.
    struct PageRow {
        var testID: String
        var branch: String
        var device: String
        /// `""`: no page.
        var page: String
        /// The test's suite when `page` is `""` (else `""`: not read).
        var suite: String
        var lastFailAt: Int64
        var lastResultID: Int64
        /// Failures in the window, when the query computed them (`windowPageRows(withCounts: true)`).
        var windowFailures: Int?

        var pageKey: PageKey { PageKey(page: page, suite: page.isEmpty ? suite : "") }
    }

    /// A (test, branch) pair to classify, with its page rows in the window.
    struct Candidate {
        var testID: String
        var branch: String
        var rows: [PageRow]
    }

    /// A candidate's newest results and the rules' verdict.
    struct Evaluated {
        var recent: [FlakyClassifier.Outcome]
        var hasContradiction: Bool
        var classification: FlakyClassifier.Classification
    }

    /// Failures of one page row in the window.
    struct WindowFailures {
        var count: Int
        var firstAt: Int64?
    }

    private static let pageRowColumns = """
        tp.test_id, tp.branch, tp.device, tp.page,
        CASE WHEN tp.page = '' THEN (SELECT t.suite FROM tests t WHERE t.id = tp.test_id) ELSE '' END,
        tp.last_fail_at, tp.last_result_id
        """

    private static func pageRow(_ row: Statement) -> PageRow {
        PageRow(
            testID: row.string(0), branch: row.string(1), device: row.string(2), page: row.string(3),
            suite: row.string(4), lastFailAt: row.int64(5), lastResultID: row.int64(6),
            windowFailures: row.columnCount > 7 ? row.int(7) - row.int(8) : nil)
    }

    /// Columns 7 and 8: the row's cumulative failures now and before the window (`?1` = the first day).
    private static let windowCountColumns = """
        , (SELECT d.fails FROM flaky_page_days d WHERE d.test_id = tp.test_id AND d.branch = tp.branch
            AND d.device = tp.device AND d.page = tp.page ORDER BY d.day DESC LIMIT 1),
        (SELECT d.fails FROM flaky_page_days d WHERE d.test_id = tp.test_id AND d.branch = tp.branch
            AND d.device = tp.device AND d.page = tp.page AND d.day < ?1 ORDER BY d.day DESC LIMIT 1)
        """

    /// Page rows with a failure in the window, filtered by project and branch (and device when asked).
    func windowPageRows(deviceFiltered: Bool, withCounts: Bool = false) throws -> [PageRow] {
        var conditions = ["tp.last_fail_at >= ?2"]
        var values: [any SQLBindable] = [window.sinceDay, window.since]
        if let project = window.query.project {
            conditions.append("tp.project = ?")
            values.append(project)
        }
        if let branch = window.query.branch {
            conditions.append("tp.branch = ?")
            values.append(branch)
        }
        if deviceFiltered, let device = window.device {
            conditions.append("tp.device = ?")
            values.append(device)
        }
        if !withCounts { conditions.append("?1 IS NOT NULL") }
        return try db.query(
            """
            SELECT \(Self.pageRowColumns) \(withCounts ? Self.windowCountColumns : "")
            FROM flaky_test_pages tp
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY tp.test_id, tp.branch
            """, values, row: Self.pageRow)
    }

    /// The (test, branch) pairs of `rows` (sorted by test, then branch), in that order.
    func group(_ rows: [PageRow]) -> [Candidate] {
        var candidates: [Candidate] = []
        for row in rows {
            if let last = candidates.last, last.testID == row.testID, last.branch == row.branch {
                candidates[candidates.count - 1].rows.append(row)
            } else {
                candidates.append(Candidate(testID: row.testID, branch: row.branch, rows: [row]))
            }
        }
        return candidates
    }

    /// The candidates of `flakyTests`: every pair failing in the window, or with `page` those failing on
    /// it (with all their page rows, so their other pages are reported too).
    func candidates() throws -> [Candidate] {
        guard let page = window.query.page else { return group(try windowPageRows(deviceFiltered: true)) }
        let pageKey = page == FlakyReport.noPage ? "" : page
        var conditions = ["tp.page = ?", "tp.last_fail_at >= ?"]
        var values: [any SQLBindable] = [pageKey, window.since]
        if let project = window.query.project {
            conditions.append("tp.project = ?")
            values.append(project)
        }
        if let branch = window.query.branch {
            conditions.append("tp.branch = ?")
            values.append(branch)
        }
        if let device = window.device {
            conditions.append("tp.device = ?")
            values.append(device)
        }
        if pageKey.isEmpty, let suite = window.query.suite {
            conditions.append("t.suite = ?")
            values.append(suite)
        }
        let pairs = try db.query(
            """
            SELECT DISTINCT tp.test_id, tp.branch FROM flaky_test_pages tp JOIN tests t ON t.id = tp.test_id
            WHERE \(conditions.joined(separator: " AND ")) ORDER BY tp.test_id, tp.branch
            """, values
        ) { (testID: $0.string(0), branch: $0.string(1)) }
        return try pairs.map { pair in
            var values: [any SQLBindable] = [pair.testID, pair.branch, window.since]
            var deviceCondition = ""
            if let device = window.device {
                deviceCondition = "AND tp.device = ?"
                values.append(device)
            }
            let rows = try db.query(
                """
                SELECT \(Self.pageRowColumns) FROM flaky_test_pages tp
                WHERE tp.test_id = ? AND tp.branch = ? AND tp.last_fail_at >= ? \(deviceCondition)
                """, values, row: Self.pageRow)
            return Candidate(testID: pair.testID, branch: pair.branch, rows: rows)
        }
    }

    /// Applies the rules to `candidate` on the window's device scope. The contradiction lookup is made
    /// only when the verdict depends on it (not broken, not recovered, flip rate below the threshold).
    func evaluate(_ candidate: Candidate) throws -> Evaluated {
        let recent = try db.query(
            """
            SELECT failed, commit_sha, result_id, ran_at FROM flaky_recent
            WHERE test_id = ? AND branch = ? AND device = ? AND ran_at >= ?
            ORDER BY ran_at DESC, result_id DESC LIMIT ?
            """,
            [
                candidate.testID, candidate.branch, window.deviceKey, window.since,
                max(window.query.policy.recentResults, window.query.policy.recoveryPasses, window.query.policy.brokenMinimum),
            ]
        ) {
            FlakyClassifier.Outcome(failed: $0.int(0) != 0, commit: $0.string(1), resultID: $0.int64(2), ranAt: $0.int64(3))
        }
        let withoutContradiction = window.classifier.classify(newestFirst: recent, hasContradiction: false)
        switch withoutContradiction.verdict {
        case .broken, .recovered, .flaky:
            // A contradiction changes none of these verdicts (it only adds a reason to .flaky).
            if case .flaky = withoutContradiction.verdict {
                let has = try hasContradiction(candidate)
                return Evaluated(
                    recent: recent, hasContradiction: has,
                    classification: has ? window.classifier.classify(newestFirst: recent, hasContradiction: true)
                        : withoutContradiction)
            }
            return Evaluated(recent: recent, hasContradiction: false, classification: withoutContradiction)
        case .stable:
            let has = try hasContradiction(candidate)
            return Evaluated(
                recent: recent, hasContradiction: has,
                classification: has ? window.classifier.classify(newestFirst: recent, hasContradiction: true)
                    : withoutContradiction)
        }
    }

    private func hasContradiction(_ candidate: Candidate) throws -> Bool {
        try db.queryFirst(
            """
            SELECT 1 FROM flaky_commits
            WHERE test_id = ? AND branch = ? AND device = ? AND passes > 0 AND fails > 0
                AND min(last_pass_at, last_fail_at) >= ?
            LIMIT 1
            """, [candidate.testID, candidate.branch, window.deviceKey, window.since]
        ) { _ in true } ?? false
    }

    /// The failures of `row` in the window: cumulative count now minus before the window (one statement).
    func failuresInWindow(_ row: PageRow, withFirst: Bool = false) throws -> WindowFailures {
        let key: [any SQLBindable] = [row.testID, row.branch, row.device, row.page, window.sinceDay]
        let keyCondition = "test_id = ?1 AND branch = ?2 AND device = ?3 AND page = ?4"
        return try db.queryFirst(
            """
            SELECT (SELECT fails FROM flaky_page_days WHERE \(keyCondition) ORDER BY day DESC LIMIT 1),
                (SELECT fails FROM flaky_page_days WHERE \(keyCondition) AND day < ?5 ORDER BY day DESC LIMIT 1),
                \(withFirst
                    ? "(SELECT first_fail_at FROM flaky_page_days WHERE \(keyCondition) AND day >= ?5 ORDER BY day LIMIT 1)"
                    : "NULL")
            """, key
        ) { WindowFailures(count: $0.int(0) - $0.int(1), firstAt: $0.isNull(2) ? nil : $0.int64(2)) }
            ?? WindowFailures(count: 0, firstAt: nil)
    }

    /// Pass and fail counts of a (test, branch) in the window on the device scope.
    func passFailCounts(testID: String, branch: String) throws -> (passes: Int, fails: Int) {
        let key: [any SQLBindable] = [testID, branch, window.deviceKey]
        let keyCondition = "test_id = ? AND branch = ? AND device = ?"
        let total = try db.queryFirst(
            "SELECT passes, fails FROM flaky_test_days WHERE \(keyCondition) ORDER BY day DESC LIMIT 1", key
        ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
        let before = try db.queryFirst(
            "SELECT passes, fails FROM flaky_test_days WHERE \(keyCondition) AND day < ? ORDER BY day DESC LIMIT 1",
            key + [window.sinceDay]
        ) { ($0.int(0), $0.int(1)) } ?? (0, 0)
        return (total.0 - before.0, total.1 - before.1)
    }

    private func identity(_ testID: String) throws -> TestIdentity? {
        try db.queryFirst("SELECT project, suite, name, arguments FROM tests WHERE id = ?", [testID]) {
            TestIdentity(
                project: $0.string(0), suite: $0.string(1), name: $0.string(2),
                arguments: $0.string(3).isEmpty ? nil : $0.string(3))
        }
    }

    /// The result's run, time and first screenshot link.
    func failureLink(_ resultID: Int64) throws -> FailureLink? {
        try db.queryFirst(
            """
            SELECT r.run_id, r.ran_at, (SELECT a.sha256 FROM result_artifacts a
                WHERE a.result_id = r.id AND a.kind = 'screenshot' ORDER BY a.position LIMIT 1)
            FROM results r WHERE r.id = ?
            """, [resultID]
        ) {
            FailureLink(
                resultId: Int(resultID), runId: $0.string(0), ranAt: Timestamp.date($0.int64(1)),
                screenshot: $0.optionalString(2).map { "/artifacts/\($0).png" })
        }
    }

    /// The report entry of a flaky candidate.
    func flakyTest(_ candidate: Candidate, _ evaluated: Evaluated, reasons: [FlakyReason]) throws -> FlakyTest {
        let test = try identity(candidate.testID)
        let deviceKey = window.deviceKey
        let commitKey: [any SQLBindable] = [candidate.testID, candidate.branch, deviceKey, window.since]
        let commitCondition = """
            test_id = ? AND branch = ? AND device = ? AND passes > 0 AND fails > 0
                AND min(last_pass_at, last_fail_at) >= ?
            """
        let commits = try db.query(
            """
            SELECT commit_sha, passes, fails, max(last_pass_at, last_fail_at) FROM flaky_commits
            WHERE \(commitCondition) ORDER BY min(last_pass_at, last_fail_at) DESC, commit_sha LIMIT 20
            """, commitKey
        ) { ContradictingCommit(commit: $0.string(0), passes: $0.int(1), fails: $0.int(2), seenAt: Timestamp.date($0.int64(3))) }
        let commitCount = try db.scalar("SELECT count(*) FROM flaky_commits WHERE \(commitCondition)", commitKey).int ?? 0
        let counts = try passFailCounts(testID: candidate.testID, branch: candidate.branch)

        var pages: [PageKey: (count: Int, last: Int64)] = [:]
        var devices: [String: Int] = [:]
        var first: Int64?
        var last: Int64?
        var newest: PageRow?
        let askedPage = window.query.page.map { $0 == FlakyReport.noPage ? "" : $0 }
        for row in candidate.rows {
            let failures = try failuresInWindow(row, withFirst: true)
            guard failures.count > 0 else { continue }
            let previous = pages[row.pageKey]
            pages[row.pageKey] = (
                (previous?.count ?? 0) + failures.count, max(previous?.last ?? row.lastFailAt, row.lastFailAt)
            )
            devices[row.device, default: 0] += failures.count
            if let firstAt = failures.firstAt { first = min(first ?? firstAt, firstAt) }
            last = max(last ?? row.lastFailAt, row.lastFailAt)
            if askedPage == nil || askedPage == row.page, row.lastFailAt > (newest?.lastFailAt ?? Int64.min) {
                newest = row
            }
        }
        var siteConditions = "test_id = ? AND branch = ? AND last_fail_at >= ?"
        var siteValues: [any SQLBindable] = [candidate.testID, candidate.branch, window.since]
        if let device = window.device {
            siteConditions += " AND device = ?"
            siteValues.append(device)
        }
        let callSites = try db.query(
            """
            SELECT page, file, line, sum(fails), max(last_fail_at) FROM flaky_call_sites WHERE \(siteConditions)
            GROUP BY page, file, line ORDER BY 5 DESC, file, line
            """, siteValues
        ) {
            FlakyCallSite(
                file: $0.string(1), line: $0.int(2), page: $0.string(0).isEmpty ? FlakyReport.noPage : $0.string(0),
                totalFailureCount: $0.int(3), lastFailureAt: Timestamp.date($0.int64(4)))
        }
        let suite = test?.suite ?? candidate.rows.first?.suite ?? ""
        return FlakyTest(
            testId: candidate.testID, project: test?.project ?? "", suite: suite,
            name: test?.name ?? "", arguments: test?.arguments, branch: candidate.branch, reasons: reasons,
            flipRate: evaluated.classification.flipRate, flips: evaluated.classification.flips,
            sampleCount: evaluated.classification.sampleCount, passCount: counts.passes, failCount: counts.fails,
            contradictingCommits: commits, contradictingCommitCount: commitCount,
            firstFlakyFailureAt: first.map(Timestamp.date), lastFlakyFailureAt: last.map(Timestamp.date),
            pages: pages.map { key, value in
                FlakyPageCount(
                    page: key.page.isEmpty ? FlakyReport.noPage : key.page, suite: key.page.isEmpty ? key.suite : nil,
                    failureCount: value.count, lastFailureAt: Timestamp.date(value.last))
            }
            .sorted { ($1.failureCount, $0.page) < ($0.failureCount, $1.page) },
            callSites: callSites, devices: FailscopeStore.deviceCounts(devices),
            newestFailure: try newest.flatMap { try failureLink($0.lastResultID) })
    }

    /// The report entry of a broken candidate.
    func brokenTest(_ candidate: Candidate, _ evaluated: Evaluated, commit: String, failCount: Int) throws -> BrokenTest {
        let test = try identity(candidate.testID)
        return BrokenTest(
            testId: candidate.testID, project: test?.project ?? "", suite: test?.suite ?? "", name: test?.name ?? "",
            arguments: test?.arguments, branch: candidate.branch, commit: commit, failCount: failCount,
            newestFailure: try evaluated.recent.first.flatMap { try failureLink($0.resultID) })
    }
}
