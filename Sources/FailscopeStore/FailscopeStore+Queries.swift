import FailscopeModel
import Foundation

extension FailscopeStore {
    /// Filters and page size of `runs(_:)`.
    public struct RunQuery: Sendable, Hashable {
        public var project: String?
        public var branch: String?
        public var status: RunStatus?
        /// 1...200.
        public var limit: Int
        /// The `nextCursor` of the previous page.
        public var cursor: String?

        public init(
            project: String? = nil, branch: String? = nil, status: RunStatus? = nil, limit: Int = 50,
            cursor: String? = nil
        ) {
            self.project = project
            self.branch = branch
            self.status = status
            self.limit = limit
            self.cursor = cursor
        }
    }

    /// Runs newest first (by start time, then id), filtered, one page at a time.
    ///
    /// - Throws: `StoreError.invalid` for a malformed cursor or limit, `.busy` / `.unavailable` /
    ///   `.storageFull`.
    public func runs(_ query: RunQuery) throws -> RunList {
        guard (1...200).contains(query.limit) else { throw StoreError.invalid("limit must be 1...200") }
        var conditions: [String] = []
        var values: [any SQLBindable] = []
        if let project = query.project {
            conditions.append("project = ?")
            values.append(project)
        }
        if let branch = query.branch {
            conditions.append("branch = ?")
            values.append(branch)
        }
        if let status = query.status {
            conditions.append("status = ?")
            values.append(status.rawValue)
        }
        if let cursor = query.cursor {
            let position = try Cursor.decode(cursor, list: .runs)
            conditions.append("(started_at < ? OR (started_at = ? AND id < ?))")
            values += [position.time, position.time, position.key]
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let sql = "SELECT \(Self.runColumns) FROM runs \(whereClause) ORDER BY started_at DESC, id DESC LIMIT ?"
        var summaries = try read { db in
            try db.query(sql, values + [query.limit + 1], row: Self.runSummary(from:))
        }
        var next: String?
        if summaries.count > query.limit {
            summaries.removeLast()
            let last = summaries[summaries.count - 1]
            next = Cursor(list: .runs, time: Timestamp.milliseconds(last.run.startedAt), key: last.run.id).encoded
        }
        return RunList(runs: summaries, nextCursor: next)
    }

    /// One run's summary, or `nil` when it does not exist.
    public func runSummary(_ runID: String) throws -> RunSummary? {
        guard Run.isValidID(runID) else { return nil }
        return try read { db in
            try db.queryFirst("SELECT \(Self.runColumns) FROM runs WHERE id = ?", [runID], row: Self.runSummary(from:))
        }
    }

    /// One run with its results grouped by page, then call site (see `RunDetail`), or `nil`.
    ///
    /// `statuses`, when given, keeps only the results of those statuses (the run view asks for the failing
    /// ones first: a 50,000-result run's failures are a few percent of it); the summary's counts stay the
    /// whole run's, the groups' counts are those of the results kept.
    public func runDetail(_ runID: String, statuses: Set<TestStatus>? = nil) throws -> RunDetail? {
        guard Run.isValidID(runID) else { return nil }
        let kept = statuses.map { $0.map(\.rawValue).sorted() } ?? []
        let statusCondition =
            statuses == nil ? "" : " AND r.status IN (" + kept.map { _ in "?" }.joined(separator: ", ") + ")"
        return try read { db -> RunDetail? in
            guard
                let summary = try db.queryFirst(
                    "SELECT \(Self.runColumns) FROM runs WHERE id = ?", [runID], row: Self.runSummary(from:))
            else { return nil }
            let results = try db.query(
                "SELECT \(Self.resultColumns) FROM results r JOIN tests t ON t.id = r.test_id WHERE r.run_id = ?"
                    + statusCondition,
                [runID] + kept, row: Self.resultSummary(from:))
            return RunDetail(summary: summary, pages: Self.group(results))
        }
    }

    /// One result with its failures, artifacts, trail and a passing screenshot of its page, or `nil`.
    public func resultDetail(_ resultID: Int) throws -> ResultDetail? {
        try read { db -> ResultDetail? in
            guard
                let row = try db.queryFirst(
                    """
                    SELECT \(Self.resultColumns), r.skip_reason, r.system_out, r.system_err, r.project, r.ran_at
                    FROM results r JOIN tests t ON t.id = r.test_id WHERE r.id = ?
                    """, [resultID],
                    row: {
                        (
                            summary: try Self.resultSummary(from: $0), skipReason: $0.optionalString(17),
                            systemOut: $0.optionalString(18), systemErr: $0.optionalString(19),
                            project: $0.string(20), ranAt: $0.int64(21)
                        )
                    }),
                let run = try db.queryFirst(
                    "SELECT \(Self.runColumns) FROM runs WHERE id = ?", [row.summary.runId], row: Self.runSummary(from:)
                )
            else { return nil }
            let failures = try db.query(
                """
                SELECT message, location_file, location_line, page, action, call_site_file, call_site_line,
                    element_x, element_y, element_width, element_height, is_error
                FROM failures WHERE result_id = ? ORDER BY position
                """, [resultID]
            ) { statement in
                Failure(
                    message: statement.string(0), location: Self.location(statement, 1),
                    page: statement.optionalString(3), action: statement.optionalString(4),
                    callSite: Self.location(statement, 5),
                    elementFrame: statement.isNull(7)
                        ? nil
                        : Frame(
                            x: statement.double(7), y: statement.double(8), width: statement.double(9),
                            height: statement.double(10)),
                    isError: statement.int(11) != 0)
            }
            let trail = try Self.trail(db, resultID: resultID)
            let pages = try db.query(
                "SELECT page FROM result_pages WHERE result_id = ? ORDER BY position", [resultID]
            ) { $0.string(0) }
            let artifacts = try db.query(
                """
                SELECT ra.sha256, ra.kind, coalesce(a.byte_count, ra.byte_count), coalesce(a.width, ra.width),
                    coalesce(a.height, ra.height), a.sha256 IS NOT NULL
                FROM result_artifacts ra LEFT JOIN artifacts a ON a.sha256 = ra.sha256
                WHERE ra.result_id = ? ORDER BY ra.position
                """, [resultID], row: Self.artifactLink(from:))
            var passing: ResultDetail.PassingScreenshot?
            if let page = row.summary.page {
                passing = try db.queryFirst(
                    """
                    SELECT r.id, r.run_id, a.sha256, a.kind, a.byte_count, a.width, a.height, 1
                    FROM results r
                    JOIN result_artifacts ra ON ra.result_id = r.id AND ra.kind = 'screenshot'
                    JOIN artifacts a ON a.sha256 = ra.sha256
                    WHERE r.project = ? AND r.page = ? AND r.ran_at <= ? AND r.id <> ?
                        AND r.status IN ('passed', 'expected_failure')
                    ORDER BY r.ran_at DESC, r.id DESC LIMIT 1
                    """, [row.project, page, row.ranAt, resultID]
                ) {
                    ResultDetail.PassingScreenshot(
                        resultId: $0.int(0), runId: $0.string(1),
                        artifact: try Self.artifactLink(from: $0, offset: 2))
                }
            }
            // "What changed": the newest passing result of the same test with a trace, on the same device first.
            let passingTrace = try db.queryFirst(
                """
                SELECT r.id, r.run_id, r.device FROM results r
                WHERE r.test_id = ? AND r.id <> ? AND r.status IN ('passed', 'expected_failure')
                    AND EXISTS (SELECT 1 FROM trail_steps s WHERE s.result_id = r.id AND s.element_tree IS NOT NULL)
                ORDER BY CASE WHEN r.device = ? THEN 0 ELSE 1 END, r.ran_at DESC, r.id DESC LIMIT 1
                """, [row.summary.testId, resultID, row.summary.device]
            ) { (id: $0.int(0), runID: $0.string(1), device: $0.optionalString(2)) }
            .map { found in
                ResultDetail.PassingTrace(
                    resultId: found.id, runId: found.runID, device: found.device,
                    trail: try Self.trail(db, resultID: found.id))
            }
            return ResultDetail(
                result: row.summary, run: run, skipReason: row.skipReason, failures: failures, artifacts: artifacts,
                trail: trail, pagesVisited: pages, elementFrame: failures.lazy.compactMap(\.elementFrame).first,
                lastPassingScreenshot: passing, passingTrace: passingTrace, systemOut: row.systemOut,
                systemErr: row.systemErr)
        }
    }

    /// A test's results newest first, `limit` (1...500) at a time, or `nil` when the test is unknown.
    ///
    /// - Throws: `StoreError.invalid` for a malformed cursor or limit, `.busy` / `.unavailable` /
    ///   `.storageFull`.
    public func testHistory(_ testID: String, limit: Int = 100, cursor: String? = nil) throws -> TestHistory? {
        guard TestIdentity.isValidID(testID) else { return nil }
        guard (1...500).contains(limit) else { throw StoreError.invalid("limit must be 1...500") }
        let position = try cursor.map { cursor throws(StoreError) in try Cursor.decode(cursor, list: .history) }
        return try read { db -> TestHistory? in
            guard let test = try Self.testIdentity(db, testID) else { return nil }
            var values: [any SQLBindable] = [testID]
            var cursorCondition = ""
            if let position, let id = Int64(position.key) {  // decode checked the key
                cursorCondition = "AND (r.ran_at < ? OR (r.ran_at = ? AND r.id < ?))"
                values += [position.time, position.time, id]
            }
            var entries = try db.query(
                """
                SELECT \(Self.resultColumns), r.branch, r.commit_sha, r.ran_at
                FROM results r JOIN tests t ON t.id = r.test_id
                WHERE r.test_id = ? \(cursorCondition)
                ORDER BY r.ran_at DESC, r.id DESC LIMIT ?
                """, values + [limit + 1]
            ) {
                TestHistory.Entry(
                    result: try Self.resultSummary(from: $0), branch: $0.optionalString(17),
                    commit: $0.optionalString(18), ranAt: Timestamp.date($0.int64(19)))
            }
            var next: String?
            if entries.count > limit {
                entries.removeLast()
                let last = entries[entries.count - 1]
                next = Cursor(list: .history, time: Timestamp.milliseconds(last.ranAt), key: String(last.result.id)).encoded
            }
            return TestHistory(test: test, entries: entries, nextCursor: next)
        }
    }

    /// Pages with result and failure counts over the last `days` days (1...365) before `now`.
    public func pages(project: String? = nil, branch: String? = nil, days: Int = 14, now: Date = Date()) throws
        -> PageList
    {
        guard (1...365).contains(days) else { throw StoreError.invalid("days must be 1...365") }
        let since = now.addingTimeInterval(-Double(days) * 86_400)
        var conditions = ["ran_at >= ?", "page IS NOT NULL"]
        var values: [any SQLBindable] = [Timestamp.milliseconds(since)]
        if let project {
            conditions.append("project = ?")
            values.append(project)
        }
        if let branch {
            conditions.append("branch = ?")
            values.append(branch)
        }
        let pages = try read { db in
            try db.query(
                """
                SELECT page, count(*), count(*) FILTER (WHERE status IN ('failed', 'error')),
                    count(DISTINCT CASE WHEN status IN ('failed', 'error') THEN test_id END),
                    max(CASE WHEN status IN ('failed', 'error') THEN ran_at END)
                FROM results WHERE \(conditions.joined(separator: " AND "))
                GROUP BY page ORDER BY 3 DESC, page
                """, values
            ) {
                PageSummary(
                    page: $0.string(0), resultCount: $0.int(1), failureCount: $0.int(2), failingTestCount: $0.int(3),
                    lastFailureAt: $0.isNull(4) ? nil : Timestamp.date($0.int64(4)))
            }
        }
        return PageList(since: since, pages: pages)
    }

    /// Total bytes of stored artifacts.
    public func artifactByteCount() throws -> Int {
        try read { try $0.scalar("SELECT coalesce(sum(byte_count), 0) FROM artifacts").int ?? 0 }
    }

    // MARK: Row mapping

    static let runColumns = """
        id, project, branch, commit_sha, device, os_version, ci_provider, ci_build_url, ci_job, source, started_at,
        finished_at, status, result_count, passed_count, failed_count, error_count, skipped_count,
        expected_failure_count, failing_test_count, \(forgivenFailingTestsColumn)
        """

    static func runSummary(from row: any SQLRow) throws -> RunSummary {
        let run = Run(
            id: row.string(0), project: row.string(1), branch: row.optionalString(2), commit: row.optionalString(3),
            device: row.optionalString(4), osVersion: row.optionalString(5), ciProvider: row.optionalString(6),
            ciBuildURL: row.optionalString(7), ciJob: row.optionalString(8),
            source: Run.Source(rawValue: row.string(9)) ?? .reporter, startedAt: Timestamp.date(row.int64(10)),
            finishedAt: row.isNull(11) ? nil : Timestamp.date(row.int64(11)))
        let counts = ResultCounts(
            total: row.int(13), passed: row.int(14), failed: row.int(15), error: row.int(16), skipped: row.int(17),
            expectedFailure: row.int(18), failingTests: row.int(19), quarantinedFailingTests: row.int(20))
        return RunSummary(run: run, status: RunStatus(rawValue: row.string(12)) ?? .incomplete, counts: counts)
    }

    /// 17 columns (0...16); `r` is results, `t` tests.
    static let resultColumns = """
        r.id, r.run_id, r.test_id, t.suite, t.name, t.arguments, r.device, r.attempt, r.status, r.started_at,
        r.duration, r.page, r.call_site_file, r.call_site_line,
        (SELECT f.message FROM failures f WHERE f.result_id = r.id ORDER BY f.position LIMIT 1) AS message,
        (SELECT a.sha256 FROM result_artifacts a WHERE a.result_id = r.id AND a.kind = 'screenshot'
            ORDER BY a.position LIMIT 1) AS screenshot,
        \(quarantinedResultColumn) AS quarantined
        """

    static func resultSummary(from row: any SQLRow) throws -> ResultSummary {
        ResultSummary(
            id: row.int(0), runId: row.string(1), testId: row.string(2), suite: row.string(3), name: row.string(4),
            arguments: row.string(5).isEmpty ? nil : row.string(5), device: row.optionalString(6),
            attempt: row.int(7), status: TestStatus(rawValue: row.string(8)) ?? .error,
            startedAt: row.isNull(9) ? nil : Timestamp.date(row.int64(9)), duration: row.optionalDouble(10),
            page: row.optionalString(11), callSite: location(row, 12), message: row.optionalString(14),
            screenshot: row.optionalString(15), quarantined: row.int(16) != 0)
    }

    /// A result's trail steps in order, with their action trace where they have one.
    static func trail(_ db: any SQLConnection, resultID: Int) throws -> [TrailStep] {
        try db.query(
            """
            SELECT page, action, call_site_file, call_site_line, element_tree, target_x, target_y, target_width,
                target_height, duration
            FROM trail_steps WHERE result_id = ? ORDER BY position
            """, [resultID]
        ) {
            TrailStep(
                page: $0.string(0), action: $0.optionalString(1), callSite: Self.location($0, 2),
                elementTree: $0.optionalString(4),
                target: $0.isNull(5)
                    ? nil : Frame(x: $0.double(5), y: $0.double(6), width: $0.double(7), height: $0.double(8)),
                duration: $0.isNull(9) ? nil : $0.double(9))
        }
    }

    static func location(_ row: any SQLRow, _ index: Int) -> SourceLocation? {
        guard let file = row.optionalString(index) else { return nil }
        return SourceLocation(file: file, line: row.int(index + 1))
    }

    static func artifactLink(from row: any SQLRow) throws -> ArtifactLink {
        try artifactLink(from: row, offset: 0)
    }

    static func artifactLink(from row: any SQLRow, offset: Int) throws -> ArtifactLink {
        ArtifactLink(
            sha256: row.string(offset), kind: ArtifactRef.Kind(rawValue: row.string(offset + 1)) ?? .screenshot,
            byteCount: row.int(offset + 2), width: row.optionalInt(offset + 3), height: row.optionalInt(offset + 4),
            available: row.int(offset + 5) != 0)
    }

    /// Groups results by page (failing pages first), then call site (file, line); see `RunDetail`.
    static func group(_ results: [ResultSummary]) -> [RunDetail.PageGroup] {
        let byPage = Dictionary(grouping: results, by: \.page)
        var groups = byPage.map { page, results -> RunDetail.PageGroup in
            var counts = ResultCounts()
            for result in results { counts.add(result.status) }
            let byCallSite = Dictionary(grouping: results, by: \.callSite)
            let callSites = byCallSite.map { callSite, results in
                RunDetail.CallSiteGroup(
                    callSite: callSite,
                    results: results.sorted {
                        ($0.suite, $0.name, $0.arguments ?? "", $0.attempt, $0.id)
                            < ($1.suite, $1.name, $1.arguments ?? "", $1.attempt, $1.id)
                    })
            }
            .sorted { lhs, rhs in
                switch (lhs.callSite, rhs.callSite) {
                case (nil, nil): return false
                case (nil, _): return false
                case (_, nil): return true
                case (let l?, let r?): return (l.file, l.line) < (r.file, r.line)
                }
            }
            return RunDetail.PageGroup(page: page, counts: counts, callSites: callSites)
        }
        groups.sort { lhs, rhs in
            switch (lhs.page, rhs.page) {
            case (nil, _): return false
            case (_, nil): return true
            case (let l?, let r?):
                let lf = lhs.counts.failed + lhs.counts.error
                let rf = rhs.counts.failed + rhs.counts.error
                return lf != rf ? lf > rf : l < r
            }
        }
        return groups
    }
}

/// An opaque pagination position of one list: a time in milliseconds and a tie-breaking key, base64url
/// of `"<list>:<ms>:<key>"` (list `r`: runs, keyed by run id; `h`: a test's history, keyed by result id).
/// A cursor is accepted only by the list that issued it, in the exact form it was issued.
struct Cursor: Sendable, Hashable {
    enum List: String, Sendable {
        case runs = "r"
        case history = "h"
    }

    var list: List
    var time: Int64
    var key: String

    var encoded: String {
        Data("\(list.rawValue):\(time):\(key)".utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// - Throws: `StoreError.invalid` unless `text` is a cursor of `list` as `encoded` writes it.
    static func decode(_ text: String, list: List) throws(StoreError) -> Cursor {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        let invalid = StoreError.invalid("cursor is not a cursor this list returned")
        guard text.utf8.count <= 200, let data = Data(base64Encoded: base64),
            let decoded = String(data: data, encoding: .utf8)
        else { throw invalid }
        let parts = decoded.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == list.rawValue, let time = Int64(parts[1]), time >= 0,
            String(time) == parts[1]
        else { throw invalid }
        let key = String(parts[2])
        switch list {
        case .runs: guard Run.isValidID(key) else { throw invalid }
        case .history: guard let id = Int64(key), id > 0, String(id) == key else { throw invalid }
        }
        let cursor = Cursor(list: list, time: time, key: key)
        guard cursor.encoded == text else { throw invalid }
        return cursor
    }
}

extension FailscopeStore {
    /// The identity of test `testID` (`tests`), `nil` for an unknown id.
    static func testIdentity(_ db: any SQLConnection, _ testID: String) throws -> TestIdentity? {
        try db.queryFirst(
            "SELECT project, suite, name, arguments FROM tests WHERE id = ?", [testID], row: TestIdentity.init(row:))
    }
}

extension TestIdentity {
    /// The identity in a row whose first four columns are `tests`' project, suite, name and arguments
    /// (`''` for none).
    init(row: any SQLRow) {
        self.init(
            project: row.string(0), suite: row.string(1), name: row.string(2),
            arguments: row.string(3).isEmpty ? nil : row.string(3))
    }
}
