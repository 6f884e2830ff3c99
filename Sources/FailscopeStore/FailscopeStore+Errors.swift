import FailscopeModel
import Foundation

/// Unique errors (docs/errors.md): failure signatures stored per failed or errored result at ingest, ranked
/// per project, and a run's failures read as problems with a verdict each (docs/flaky.md). Every statement
/// runs unchanged on both engines.
extension FailscopeStore {
    /// Stores the failure signatures `signatures` (FailureSignature(of:) of a batch's results), each once, in
    /// one statement; by id, so writers side by side take the rows' locks in one order. Part of the ingest
    /// transaction.
    static func storeSignatures(_ db: any SQLConnection, _ signatures: [FailureSignature]) throws {
        var rows = BatchRows()
        var seen = Set<String>()
        for signature in signatures.sorted(by: { $0.id < $1.id }) where seen.insert(signature.id).inserted {
            rows.append(values: [signature.id, signature.message, signature.location])
        }
        try db.insert(
            into: "failure_signatures", ["id": .text, "message": .text, "location": .text], rows: rows,
            then: "ON CONFLICT (id) DO NOTHING")
    }

    /// The unique errors of `query.project` in the window, ranked by distinct tests, then runs, then failures,
    /// then signature id; at most `limit`.
    ///
    /// - Throws: `StoreError.invalid` for `days` or `limit` out of range, `.busy` / `.unavailable`.
    public func errors(_ query: WindowQuery) throws -> ErrorList {
        let since = try query.since()
        var filter = "project = ? AND ran_at >= ? AND failure_signature IS NOT NULL"
        var values: [any SQLBindable] = [query.project, since]
        if let branch = query.branch {
            filter += " AND branch = ?"
            values.append(branch)
        }
        return try read { db in
            let ranked = try db.query(
                """
                SELECT failure_signature, count(DISTINCT test_id), count(DISTINCT run_id), count(*) FROM results
                WHERE \(filter) GROUP BY failure_signature
                ORDER BY count(DISTINCT test_id) DESC, count(DISTINCT run_id) DESC, count(*) DESC, failure_signature
                LIMIT ?
                """, values + [query.limit]
            ) { row in (id: row.string(0), tests: row.int(1), runs: row.int(2), failures: row.int(3)) }
            guard !ranked.isEmpty else { return ErrorList(since: Timestamp.date(since), errors: []) }
            // Pages and devices of the ranked signatures, from the same index range.
            var pages: [String: Set<String>] = [:]
            var devices: [String: Set<String>] = [:]
            let list = Array(repeating: "?", count: ranked.count).joined(separator: ", ")
            try db.forEachRow(
                "SELECT DISTINCT failure_signature, page, device FROM results WHERE \(filter) AND failure_signature IN (\(list))",
                values + ranked.map(\.id)
            ) { row in
                let id = row.string(0)
                if let page = row.optionalString(1) { pages[id, default: []].insert(page) }
                if let device = row.optionalString(2) { devices[id, default: []].insert(device) }
                return true
            }
            var entries: [ErrorList.Entry] = []
            for error in ranked {
                guard
                    let signature = try db.queryFirst(
                        "SELECT message, location FROM failure_signatures WHERE id = ?", [error.id],
                        row: { FailureSignature(message: $0.string(0), location: $0.optionalString(1)) }),
                    let first = try Self.sighting(db, of: error.id, query: query, newest: false),
                    let last = try Self.sighting(db, of: error.id, query: query, newest: true)
                else { continue }
                entries.append(
                    ErrorList.Entry(
                        signature: signature, tests: error.tests, runs: error.runs, failures: error.failures,
                        firstSeen: first, lastSeen: last, pages: (pages[error.id] ?? []).sorted(),
                        devices: (devices[error.id] ?? []).sorted()))
            }
            return ErrorList(since: Timestamp.date(since), errors: entries)
        }
    }

    /// The oldest (or newest) result of the project (and branch) failing with signature `id`.
    private static func sighting(_ db: any SQLConnection, of id: String, query: WindowQuery, newest: Bool) throws
        -> ErrorList.Sighting?
    {
        let order = newest ? "DESC" : "ASC"
        var values: [any SQLBindable] = [query.project, id]
        var branch = ""
        if let name = query.branch {
            branch = " AND branch = ?"
            values.append(name)
        }
        return try db.queryFirst(
            """
            SELECT run_id, commit_sha, ran_at FROM results WHERE project = ? AND failure_signature = ?\(branch)
            ORDER BY ran_at \(order), run_id \(order) LIMIT 1
            """, values
        ) { row in
            ErrorList.Sighting(runId: row.string(0), commit: row.optionalString(1), at: Timestamp.date(row.int64(2)))
        }
    }

    /// A run's failed and errored results (`detail`, from `runDetail(_:statuses:)`: only its failed and errored
    /// results are read, so `TestStatus.failing` is enough) with their signatures and verdicts, its new errors and
    /// its failures grouped by signature and by screenshot.
    ///
    /// `base` is the run regressions are judged against (the caller picks it, by `RunComparison.defaultBase`);
    /// only its results' outcomes are read.
    public func runErrors(_ detail: RunDetail, base: RunSummary?) throws -> RunErrors {
        let run = detail.summary.run
        let runID = run.id
        let failing = detail.pages.flatMap(\.callSites).flatMap(\.results).filter { $0.status.outcome == .fail }
            .sorted { $0.id < $1.id }
        return try read { db -> RunErrors in
            // Each test's last attempt in the base (the failed one first among equal attempts, as RunComparison).
            var last: [String: (attempt: Int, passed: Bool)] = [:]
            if let base {
                try db.forEachRow(
                    "SELECT test_id, device, attempt, status FROM results WHERE run_id = ? ORDER BY id", [base.run.id]
                ) { row in
                    let key = row.string(0) + "\u{1F}" + (row.optionalString(1) ?? "")
                    let attempt = row.int(2)
                    if let previous = last[key], previous.attempt > attempt { return true }
                    last[key] = (attempt, TestStatus(rawValue: row.string(3))?.outcome == .pass)
                    return true
                }
            }
            let basePassed = Set(last.filter { $0.value.passed }.keys)
            var signatureOf: [Int: String] = [:]
            var signatures: [String: FailureSignature] = [:]
            try db.forEachRow(
                """
                SELECT r.id, s.id, s.message, s.location FROM results r JOIN failure_signatures s ON s.id = r.failure_signature
                WHERE r.run_id = ?
                """, [runID]
            ) { row in
                signatureOf[row.int(0)] = row.string(1)
                signatures[row.string(1)] = FailureSignature(message: row.string(2), location: row.optionalString(3))
                return true
            }
            var order: [String] = []
            var earliest: [String: Date] = [:]
            for result in failing {
                guard let id = signatureOf[result.id] else { continue }
                if earliest[id] == nil { order.append(id) }
                let time = result.startedAt ?? run.startedAt
                earliest[id] = min(earliest[id] ?? time, time)
            }
            var newErrors = Set<String>()
            for id in order {
                let seen = try db.queryFirst(
                    """
                    SELECT 1 FROM results WHERE project = ? AND failure_signature = ? AND ran_at < ? AND run_id <> ?
                        AND branch IS NOT DISTINCT FROM ? LIMIT 1
                    """, [run.project, id, Timestamp.milliseconds(earliest[id]!), runID, run.branch], row: { _ in true }
                )
                if seen == nil { newErrors.insert(id) }
            }
            var contradicted: [String: Bool] = [:]
            var entries: [RunErrors.FailureEntry] = []
            for result in failing {
                let id = signatureOf[result.id]
                var verdict = FailureVerdict.known
                if let id {
                    let key = result.testId + "\u{1F}" + id
                    if contradicted[key] == nil {
                        contradicted[key] = try Self.passedWithSignature(db, testID: result.testId, signature: id)
                    }
                    if contradicted[key]! {
                        verdict = .likelyFlaky
                    } else if basePassed.contains(result.testId + "\u{1F}" + (result.device ?? "")) {
                        verdict = .regression
                    } else if newErrors.contains(id) {
                        verdict = .new
                    }
                } else if basePassed.contains(result.testId + "\u{1F}" + (result.device ?? "")) {
                    verdict = .regression
                }
                entries.append(RunErrors.FailureEntry(result: result, signatureId: id, verdict: verdict))
            }
            return RunErrors(
                runId: runID, baseRunId: base?.run.id, signatures: order.map { signatures[$0]! },
                newErrors: order.filter(newErrors.contains), failures: entries,
                bySignature: RunErrors.groups(entries, key: \.signatureId, id: \.result.id),
                byScreenshot: RunErrors.groups(entries, key: \.result.screenshot, id: \.result.id))
        }
    }

    /// Whether test `testID` has a commit on which it failed with `signature` and also passed (any run,
    /// device or attempt): the same-input contradiction of docs/flaky.md, with this error.
    private static func passedWithSignature(_ db: any SQLConnection, testID: String, signature: String) throws -> Bool {
        try db.queryFirst(
            """
            SELECT commit_sha FROM results WHERE test_id = ? AND commit_sha IS NOT NULL GROUP BY commit_sha
            HAVING count(*) FILTER (WHERE failure_signature = ?) > 0
                AND count(*) FILTER (WHERE status IN ('passed', 'expected_failure')) > 0
            LIMIT 1
            """, [testID, signature], row: { _ in true }) ?? false
    }
}
