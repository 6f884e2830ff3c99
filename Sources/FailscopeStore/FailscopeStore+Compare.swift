import FailscopeModel
import Foundation
import Synchronization

/// Run comparisons (`RunComparison`, `GET /api/v1/runs/{runId}/compare`): the rules read each run's results as
/// lean rows (`RunComparison.Attempt`, one index range of `results` per run), and only the results the lists
/// hold are then read in full. Every statement runs unchanged on both engines.
extension FailscopeStore {
    /// `run` compared with `base` (`nil`: no base, every failure is new). The two runs are read side by side, each
    /// in a read of its own (its lean rows, then its listed results in another): a result deleted in between (by
    /// retention) is left out of the lists.
    ///
    /// - Throws: `StoreError.busy` / `.unavailable`.
    public func runComparison(_ run: RunSummary, base: RunSummary?) throws -> RunComparison {
        let runIDs = [run.run.id] + (base.map { [$0.run.id] } ?? [])
        let attempts = try Self.sideBySide(runIDs) { runID in try self.read { try Self.attempts($0, runID: runID) } }
        return try RunComparison(
            run: run, attempts: attempts[0], base: base, baseAttempts: attempts.count > 1 ? attempts[1] : []
        ) { ids in
            let listed = Set(ids)
            let ofRuns = zip(runIDs, attempts).map { runID, rows in (runID, rows.map(\.id).filter(listed.contains)) }
            let found = try Self.sideBySide(ofRuns) { runID, ids in
                try self.read { try Self.resultSummaries($0, runID: runID, ids: ids) }
            }
            return found.reduce(into: [:]) { all, ofRun in all.merge(ofRun) { first, _ in first } }
        }
    }

    /// `body` of each of `items`, side by side on as many cores as there are (`DispatchQueue.concurrentPerform`),
    /// in `items`' order.
    ///
    /// - Throws: the error of the first item whose `body` threw.
    private static func sideBySide<Item: Sendable, Value: Sendable>(
        _ items: [Item], _ body: @Sendable (Item) throws -> Value
    ) throws -> [Value] {
        let values = Mutex<[Int: Result<Value, any Error>]>([:])
        DispatchQueue.concurrentPerform(iterations: items.count) { index in
            let value = Result { try body(items[index]) }
            values.withLock { $0[index] = value }
        }
        return try values.withLock { stored in try items.indices.map { try stored[$0]!.get() } }
    }

    /// The results of run `runID` as the comparison rules read them; `quarantined` only for a failed or errored
    /// result (the rules read it for no other), so the test and quarantine lookups run for the run's failures
    /// alone.
    private static func attempts(_ db: any SQLConnection, runID: String) throws -> [RunComparison.Attempt] {
        try db.query(
            """
            SELECT r.id, r.test_id, r.device, r.attempt, r.status, r.duration,
                CASE WHEN r.status IN ('failed', 'error')
                    THEN (SELECT \(quarantinedResultColumn) FROM tests t WHERE t.id = r.test_id) ELSE 0 END
            FROM results r WHERE r.run_id = ?
            """, [runID]
        ) { row in
            RunComparison.Attempt(
                id: row.int(0), testId: row.string(1), device: row.optionalString(2), attempt: row.int(3),
                status: TestStatus(rawValue: row.string(4)) ?? .error, duration: row.optionalDouble(5),
                quarantined: row.int(6) != 0)
        }
    }

    /// How many result ids one statement of `resultSummaries` looks up: a fixed count (the last id repeated to
    /// fill it), so the statement's text, prepared once per connection, is always the same; and few, so that
    /// PostgreSQL looks their tests up by key instead of hashing the whole `tests` table (about 8 ms at 10,000
    /// tests, measured at 100 ids).
    static let resultLookupBatch = 20

    /// More listed results of one run than this are read with the whole run, in one statement, instead.
    static let resultLookupLimit = 100

    /// The `ResultSummary` (as `runDetail` lists it) of each of the results `ids` of run `runID`, by id.
    static func resultSummaries(_ db: any SQLConnection, runID: String, ids: [Int]) throws -> [Int: ResultSummary] {
        var found: [Int: ResultSummary] = [:]
        func keep(_ row: any SQLRow) throws -> Bool {
            let summary = try resultSummary(from: row)
            found[summary.id] = summary
            return true
        }
        if ids.count > resultLookupLimit {
            try db.forEachRow(
                "SELECT \(resultColumns) FROM results r JOIN tests t ON t.id = r.test_id WHERE r.run_id = ?", [runID],
                keep)
            let listed = Set(ids)
            return found.filter { listed.contains($0.key) }
        }
        let sql = """
            SELECT \(resultColumns) FROM results r JOIN tests t ON t.id = r.test_id
            WHERE r.id IN (\(Array(repeating: "?", count: resultLookupBatch).joined(separator: ", ")))
            """
        for start in stride(from: 0, to: ids.count, by: resultLookupBatch) {
            let batch = ids[start..<min(start + resultLookupBatch, ids.count)]
            let values: [any SQLBindable] =
                batch.map { $0 } + Array(repeating: batch[batch.endIndex - 1], count: resultLookupBatch - batch.count)
            try db.forEachRow(sql, values, keep)
        }
        return found
    }
}
