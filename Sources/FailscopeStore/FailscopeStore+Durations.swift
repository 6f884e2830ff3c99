import FailscopeModel
import Foundation

/// Duration statistics of tests and page actions (docs/durations.md): the store reads the window's durations
/// and the percentiles are computed in Swift (`Percentile`), so both engines give the same numbers. Tests and
/// actions differ only in the SQL that reads their durations; the statistics are one generic code path.
extension FailscopeStore {
    /// The slowest tests of `query.project` by p95 in the window, and the tests whose p50 regressed
    /// (`DurationReport.Regression`). Durations of passing results.
    ///
    /// - Throws: `StoreError.invalid` for `days` or `limit` out of range, `.busy` / `.unavailable`.
    public func durations(_ query: WindowQuery) throws -> DurationReport {
        try read { try Self.durations($0, query) }
    }

    /// The slowest page actions of `query.project` by p95 in the window, and the actions whose p50 regressed.
    /// Durations of timed trail steps (`actionStepsSQL`).
    ///
    /// - Throws: `StoreError.invalid` for `days` or `limit` out of range, `.busy` / `.unavailable`.
    public func actionDurations(_ query: WindowQuery) throws -> ActionDurationReport {
        try read { try Self.actionDurations($0, query) }
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
            return DurationTrend(
                subject: test, days: try Self.days(db, "SELECT ran_at, duration FROM results WHERE \(filter)", values))
        }
    }

    /// Page action `action`'s p50 and p95 per UTC day of the window in `query.project`; no days when the
    /// action has no timed step there.
    ///
    /// - Throws: `StoreError.invalid` for `days` or `limit` out of range, `.busy` / `.unavailable`.
    public func actionDurationTrend(_ action: PageAction, _ query: WindowQuery) throws -> ActionDurationTrend {
        let (filter, values) = try Self.actionStepsFilter(query)
        return try read { db in
            ActionDurationTrend(
                subject: action,
                days: try Self.days(
                    db, "SELECT r.ran_at, s.duration \(filter) AND s.page = ? AND s.action = ?",
                    values + [action.page, action.action]))
        }
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
        // put newest first in Swift (a sort in SQL would sort the whole window).
        return try report(
            db, query, since: since, "SELECT test_id, ran_at, id, 0, duration FROM results WHERE \(filter)", values,
            key: { $0.string(0) }, subject: { try Self.testIdentity(db, $0) })
    }

    /// `actionDurations(_:)` on connection `db`.
    static func actionDurations(_ db: any SQLConnection, _ query: WindowQuery) throws -> ActionDurationReport {
        let (filter, values) = try actionStepsFilter(query)
        return try report(
            db, query, since: try query.since(),
            "SELECT s.page, s.action, r.ran_at, r.id, s.position, s.duration \(filter)", values,
            key: { PageAction(page: $0.string(0), action: $0.string(1)) }, subject: { $0 })
    }

    /// The FROM and WHERE clauses (and their values) of the timed steps of page actions in the window:
    /// `trail_steps` `s` with an action and a duration, joined to their result `r` of the project (and branch).
    ///
    /// A step's duration runs to the next step, so a step followed by another one ran to its end whatever the
    /// result's status; the last step of a result runs to the test's end when it passed, but to the failure
    /// (or the skip) otherwise, and is left out then: it was cut short.
    private static func actionStepsFilter(_ query: WindowQuery) throws -> (String, [any SQLBindable]) {
        var filter = """
            FROM results r JOIN trail_steps s ON s.result_id = r.id \
            WHERE r.project = ? AND r.ran_at >= ? AND s.action IS NOT NULL AND s.duration IS NOT NULL \
            AND (r.status = 'passed' OR EXISTS (SELECT 1 FROM trail_steps n \
            WHERE n.result_id = s.result_id AND n.position = s.position + 1))
            """
        var values: [any SQLBindable] = [query.project, try query.since()]
        if let branch = query.branch {
            filter += " AND r.branch = ?"
            values.append(branch)
        }
        return (filter, values)
    }

    /// The slowest and regressed subjects of the durations `sql` reads: after the columns `key` reads, the
    /// columns are the time (ms), result id and position that order the durations (newest is largest), then
    /// the duration. `subject` names a key (`nil`: gone, left out).
    private static func report<Key: Hashable & Comparable, Subject: DurationSubject>(
        _ db: any SQLConnection, _ query: WindowQuery, since: Int64, _ sql: String, _ values: [any SQLBindable],
        key: (any SQLRow) -> Key, subject: (Key) throws -> Subject?
    ) throws -> SubjectDurationReport<Subject> {
        typealias Report = SubjectDurationReport<Subject>
        var byKey: [Key: [(order: [Int64], duration: Double)]] = [:]
        try db.forEachRow(sql, values) { row in
            let columns = row.columnCount
            byKey[key(row), default: []].append(
                ([row.int64(columns - 4), row.int64(columns - 3), row.int64(columns - 2)], row.double(columns - 1)))
            return true
        }
        var slowest: [(key: Key, count: Int, p50: Double, p95: Double)] = []
        var regressions: [(key: Key, previous: Double, recent: Double)] = []
        for (key, rows) in byKey {
            let newestFirst = rows.sorted { $0.order.lexicographicallyPrecedes($1.order) }.reversed().map(\.duration)
            let sorted = newestFirst.sorted()
            slowest.append((key, sorted.count, Percentile.of(sorted, 50)!, Percentile.of(sorted, 95)!))
            let n = Report.recentCount
            if newestFirst.count >= 2 * n {
                let recent = Percentile.of(newestFirst[0..<n].sorted(), 50)!
                let previous = Percentile.of(newestFirst[n..<2 * n].sorted(), 50)!
                if recent >= previous * Report.regressionRatio, recent - previous >= Report.regressionSeconds {
                    regressions.append((key, previous, recent))
                }
            }
        }
        slowest.sort { $0.p95 != $1.p95 ? $0.p95 > $1.p95 : $0.key < $1.key }
        regressions.sort {
            let (a, b) = ($0.recent - $0.previous, $1.recent - $1.previous)
            return a != b ? a > b : $0.key < $1.key
        }
        let top = Array(slowest.prefix(query.limit))
        let regressed = Array(regressions.prefix(query.limit))
        var subjects: [Key: Subject] = [:]
        for key in Set(top.map(\.key) + regressed.map(\.key)) {
            subjects[key] = try subject(key)
        }
        return Report(
            since: Timestamp.date(since),
            slowest: top.compactMap { entry in
                subjects[entry.key].map { .init(subject: $0, count: entry.count, p50: entry.p50, p95: entry.p95) }
            },
            regressions: regressed.compactMap { entry in
                subjects[entry.key].map { .init(subject: $0, previousP50: entry.previous, recentP50: entry.recent) }
            })
    }

    /// p50 and p95 per UTC day of the durations `sql` reads as (time in ms, seconds), oldest day first.
    private static func days<Subject>(_ db: any SQLConnection, _ sql: String, _ values: [any SQLBindable]) throws
        -> [SubjectDurationTrend<Subject>.Day]
    {
        let day = FlakySummaries.millisecondsPerDay
        var byDay: [Int64: [Double]] = [:]
        try db.forEachRow(sql, values) { row in
            byDay[row.int64(0) / day, default: []].append(row.double(1))
            return true
        }
        return byDay.keys.sorted().map { key in
            let sorted = byDay[key]!.sorted()
            return .init(
                day: Timestamp.date(key * day), count: sorted.count, p50: Percentile.of(sorted, 50)!,
                p95: Percentile.of(sorted, 95)!)
        }
    }
}

extension FlakyReader {
    /// `FailscopeStore.durations(_:)` on this database, read-only (`failscope slowest --data`).
    public func durations(_ query: FailscopeStore.WindowQuery) throws -> DurationReport {
        try reading { try FailscopeStore.durations($0, query) }
    }

    /// `FailscopeStore.actionDurations(_:)` on this database, read-only (`failscope slowest --actions --data`).
    public func actionDurations(_ query: FailscopeStore.WindowQuery) throws -> ActionDurationReport {
        try reading { try FailscopeStore.actionDurations($0, query) }
    }
}
