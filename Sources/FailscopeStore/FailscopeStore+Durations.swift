import FailscopeModel
import Foundation

/// Duration statistics (docs/durations.md): the store reads the window's passing durations in order and the
/// percentiles are computed in Swift (`Percentile`), so both engines give the same numbers.
extension FailscopeStore {
    /// The slowest tests of `query.project` by p95 in the window, and the tests whose p50 regressed
    /// (`DurationReport.Regression`).
    ///
    /// - Throws: `StoreError.invalid` for `days` or `limit` out of range, `.busy` / `.unavailable`.
    public func durations(_ query: WindowQuery) throws -> DurationReport {
        try read { try Self.durations($0, query) }
    }

    /// `durations(_:)` on connection `db` (the store's reader or `FlakyReader`'s).
    static func durations(_ db: any SQLConnection, _ query: WindowQuery) throws -> DurationReport {
        let since = try query.since()
        var filter = "project = ? AND ran_at >= ? AND status = 'passed' AND duration IS NOT NULL"
        var values: [any SQLBindable] = [query.project, since]
        if let branch = query.branch {
            filter += " AND branch = ?"
            values.append(branch)
        }
        // One range of the partial index `results_passed_durations` in index order; each test's durations are
        // put newest first here (a sort in SQL would sort the whole window).
        var byTest: [String: [(ranAt: Int64, id: Int64, duration: Double)]] = [:]
        try db.forEachRow("SELECT test_id, ran_at, id, duration FROM results WHERE \(filter)", values) { row in
            byTest[row.string(0), default: []].append((row.int64(1), row.int64(2), row.double(3)))
            return true
        }
        var slowest: [(id: String, results: Int, p50: Double, p95: Double)] = []
        var regressions: [(id: String, previous: Double, recent: Double)] = []
        for (id, rows) in byTest {
            let newestFirst = rows.sorted { ($0.ranAt, $0.id) > ($1.ranAt, $1.id) }.map(\.duration)
            let sorted = newestFirst.sorted()
            slowest.append((id, sorted.count, Percentile.of(sorted, 50)!, Percentile.of(sorted, 95)!))
            let n = DurationReport.recentResults
            if newestFirst.count >= 2 * n {
                let recent = Percentile.of(newestFirst[0..<n].sorted(), 50)!
                let previous = Percentile.of(newestFirst[n..<2 * n].sorted(), 50)!
                if recent >= previous * DurationReport.regressionRatio,
                    recent - previous >= DurationReport.regressionSeconds
                {
                    regressions.append((id, previous, recent))
                }
            }
        }
        slowest.sort { ($0.p95, $1.id) > ($1.p95, $0.id) }
        regressions.sort { ($0.recent - $0.previous, $1.id) > ($1.recent - $1.previous, $0.id) }
        let top = Array(slowest.prefix(query.limit))
        let regressed = Array(regressions.prefix(query.limit))
        var identities: [String: TestIdentity] = [:]
        for id in Set(top.map(\.id) + regressed.map(\.id)) {
            identities[id] = try Self.testIdentity(db, id)
        }
        return DurationReport(
            since: Timestamp.date(since),
            slowest: top.compactMap { entry in
                identities[entry.id].map {
                    DurationReport.TestDurations(test: $0, results: entry.results, p50: entry.p50, p95: entry.p95)
                }
            },
            regressions: regressed.compactMap { entry in
                identities[entry.id].map {
                    DurationReport.Regression(test: $0, previousP50: entry.previous, recentP50: entry.recent)
                }
            })
    }

    /// Test `testID`'s p50 and p95 per UTC day of the window (`query.project` is not used: the id names the
    /// test); `nil` when the test does not exist.
    public func durationTrend(_ testID: String, _ query: WindowQuery) throws -> DurationTrend? {
        let since = try query.since()
        guard TestIdentity.isValidID(testID) else { return nil }
        var filter = "test_id = ? AND ran_at >= ? AND status = 'passed' AND duration IS NOT NULL"
        var values: [any SQLBindable] = [testID, since]
        if let branch = query.branch {
            filter += " AND branch = ?"
            values.append(branch)
        }
        return try read { db -> DurationTrend? in
            guard let test = try Self.testIdentity(db, testID) else { return nil }
            let day = FlakySummaries.millisecondsPerDay
            var byDay: [Int64: [Double]] = [:]
            try db.forEachRow("SELECT ran_at, duration FROM results WHERE \(filter)", values) { row in
                byDay[row.int64(0) / day, default: []].append(row.double(1))
                return true
            }
            return DurationTrend(
                test: test,
                days: byDay.keys.sorted().map { key in
                    let sorted = byDay[key]!.sorted()
                    return DurationTrend.Day(
                        day: Timestamp.date(key * day), results: sorted.count, p50: Percentile.of(sorted, 50)!,
                        p95: Percentile.of(sorted, 95)!)
                })
        }
    }

}

extension FlakyReader {
    /// `FailscopeStore.durations(_:)` on this database, read-only (`failscope slowest --data`).
    public func durations(_ query: FailscopeStore.WindowQuery) throws -> DurationReport {
        try reading { try FailscopeStore.durations($0, query) }
    }
}
