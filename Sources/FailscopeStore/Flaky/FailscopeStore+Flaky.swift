import FailscopeModel
import Foundation

extension FailscopeStore {
    /// Filters of `flakyTests(_:)` and `flakyPages(_:)`.
    public struct FlakyQuery: Sendable, Hashable {
        public var project: String?
        /// `nil`: every branch, the rules applied per branch.
        public var branch: String?
        /// Window length in whole UTC days ending today (1...365).
        public var days: Int
        /// Only results that ran on this device (the result's device, else its run's).
        public var device: String?
        /// Only tests with a failure on this page in the window (`FlakyReport.noPage`: without a page).
        public var page: String?
        /// With `page == FlakyReport.noPage`: only that suite.
        public var suite: String?
        public var policy: FlakyPolicy
        /// The end of the window (tests pin it).
        public var now: Date

        public init(
            project: String? = nil, branch: String? = nil, days: Int = 14, device: String? = nil, page: String? = nil,
            suite: String? = nil, policy: FlakyPolicy = .standard, now: Date = Date()
        ) {
            self.project = project
            self.branch = branch
            self.days = days
            self.device = device
            self.page = page
            self.suite = suite
            self.policy = policy
            self.now = now
        }
    }

    /// The flaky tests and broken tests of the window (docs/flaky.md), reading only summary rows of
    /// tests that failed in the window (`Migrations/sqlite/0001_baseline.sql`).
    ///
    /// An unknown page, project, branch or device gives empty lists.
    /// - Throws: `StoreError.invalid` for days outside 1...365 or a policy out of range,
    ///   `.busy` / `.unavailable` / `.storageFull`.
    public func flakyTests(_ query: FlakyQuery) throws -> FlakyReport {
        let window = try FlakyWindow(query)
        return try read { db in try Self.flakyTests(db, window) }
    }

    static func flakyTests(_ db: any SQLConnection, _ window: FlakyWindow) throws -> FlakyReport {
        let query = window.query
        let analysis = FlakyAnalysis(db: db, window: window)
        var flakyEntries: [FlakyAnalysis.FlakyEntry] = []
        var brokenEntries: [FlakyAnalysis.BrokenEntry] = []
        let candidates = try analysis.candidates()
        let verdicts = try analysis.evaluate(candidates.map { ($0.testID, $0.branch) })
        for (candidate, evaluated) in zip(candidates, verdicts) {
            switch evaluated.classification.verdict {
            case .flaky(let reasons):
                flakyEntries.append(.init(candidate: candidate, evaluated: evaluated, reasons: reasons))
            case .broken(let commit, let failCount):
                brokenEntries.append(
                    .init(candidate: candidate, evaluated: evaluated, commit: commit, failCount: failCount))
            case .recovered, .stable:
                break
            }
        }
        var (flaky, broken) = try analysis.reportEntries(flaky: flakyEntries, broken: brokenEntries)
        flaky.sort {
            ($1.failCount, $0.suite, $0.name, $0.arguments ?? "", $0.branch)
                < ($0.failCount, $1.suite, $1.name, $1.arguments ?? "", $1.branch)
        }
        broken.sort { ($0.suite, $0.name, $0.arguments ?? "", $0.branch) < ($1.suite, $1.name, $1.arguments ?? "", $1.branch) }
        return FlakyReport(
            since: Timestamp.date(window.since), days: query.days, project: query.project, branch: query.branch,
            device: query.device, page: query.page, suite: query.suite, policy: query.policy, flaky: flaky,
            broken: broken)
    }

    /// Pages of the window ranked by flaky failures, then failures, then name, with `PageSummary`'s
    /// counts and the flaky columns (docs/flaky.md, "By page"). `query.page`/`suite` are ignored;
    /// `device` limits the flaky columns only.
    ///
    /// - Throws: `StoreError.invalid` for days outside 1...365 or a policy out of range,
    ///   `.busy` / `.unavailable` / `.storageFull`.
    public func flakyPages(_ query: FlakyQuery) throws -> FlakyPageList {
        var query = query
        query.page = nil
        query.suite = nil
        let window = try FlakyWindow(query)
        return try read { db in try Self.flakyPages(db, window) }
    }

    static func flakyPages(_ db: any SQLConnection, _ window: FlakyWindow) throws -> FlakyPageList {
        let query = window.query
        let analysis = FlakyAnalysis(db: db, window: window)
        var pages: [PageKey: PageTally] = [:]
        var conditions = ["day >= ?"]
        var values: [any SQLBindable] = [window.sinceDay]
        if let project = query.project {
            conditions.append("project = ?")
            values.append(project)
        }
        if let branch = query.branch {
            conditions.append("branch = ?")
            values.append(branch)
        }
        try db.forEachRow(
            """
            SELECT page, suite, sum(results), sum(fails), max(last_fail_at) FROM page_days
            WHERE \(conditions.joined(separator: " AND ")) GROUP BY page, suite
            """, values
        ) { row in
            let key = PageKey(page: row.string(0), suite: row.string(1))
            pages[key, default: PageTally()].resultCount += row.int(2)
            pages[key, default: PageTally()].failureCount += row.int(3)
            pages[key, default: PageTally()].lastFailureAt = row.isNull(4) ? nil : row.int64(4)
            return true
        }
        // The window's device-summed page rows (one per test, branch and page), each with its failures in
        // the window and per device (cumulative now minus before the window), aggregated here.
        let (filter, filterValues) = analysis.windowPageRowFilter(device: FlakySummaries.allDevices)
        let rows = try db.query(
            "\(FlakyAnalysis.pageRowSelect(withFirstFailure: false)) WHERE \(filter) ORDER BY tp.test_id, tp.branch",
            [window.sinceDay] + filterValues
        , row: FlakyAnalysis.pageRow)
        var failingTests: [PageKey: Set<String>] = [:]
        for row in rows { failingTests[row.pageKey, default: []].insert(row.testID) }
        for (key, tests) in failingTests { pages[key, default: PageTally()].failingTestCount = tests.count }
        let candidates = analysis.group(rows)
        let verdicts = try analysis.evaluate(candidates.map { ($0.testID, $0.branch) })
        var flakyRows: [FlakyAnalysis.PageRow] = []
        for (candidate, evaluated) in zip(candidates, verdicts) where evaluated.classification.isFlaky {
            flakyRows += candidate.rows
        }
        if let device = window.device, !flakyRows.isEmpty {
            // The filter's device rows of the flaky pairs.
            let flakyPairs = Set(flakyRows.map { $0.testID + "\u{1F}" + $0.branch })
            let (deviceFilter, deviceValues) = analysis.windowPageRowFilter(device: device)
            flakyRows = try db.query(
                "\(FlakyAnalysis.pageRowSelect(withFirstFailure: false)) WHERE \(deviceFilter)",
                [window.sinceDay] + deviceValues
            , row: FlakyAnalysis.pageRow)
            .filter { flakyPairs.contains($0.testID + "\u{1F}" + $0.branch) }
        }
        var flakyTests: [PageKey: Set<String>] = [:]
        for row in flakyRows {
            flakyTests[row.pageKey, default: []].insert(row.testID)
            var tally = pages[row.pageKey, default: PageTally()]
            tally.lastFlakyFailureAt = max(tally.lastFlakyFailureAt ?? row.lastFailAt, row.lastFailAt)
            for (device, count) in row.deviceFailures {
                tally.flakyFailureCount += count
                tally.devices[device, default: 0] += count
            }
            pages[row.pageKey] = tally
        }
        for (key, tests) in flakyTests { pages[key, default: PageTally()].flakyTestCount = tests.count }
        let summaries = pages.map { key, tally in
            FlakyPageSummary(
                page: key.page.isEmpty ? FlakyReport.noPage : key.page, suite: key.page.isEmpty ? key.suite : nil,
                resultCount: tally.resultCount, failureCount: tally.failureCount,
                failingTestCount: tally.failingTestCount, lastFailureAt: tally.lastFailureAt.map(Timestamp.date),
                flakyTestCount: tally.flakyTestCount, flakyFailureCount: tally.flakyFailureCount,
                lastFlakyFailureAt: tally.lastFlakyFailureAt.map(Timestamp.date),
                devices: Self.deviceCounts(tally.devices))
        }
        .sorted {
            ($1.flakyFailureCount, $1.failureCount, $0.page, $0.suite ?? "")
                < ($0.flakyFailureCount, $0.failureCount, $1.page, $1.suite ?? "")
        }
        return FlakyPageList(since: Timestamp.date(window.since), pages: summaries)
    }

    static func deviceCounts(_ counts: [String: Int]) -> [DeviceCount] {
        counts.map { DeviceCount(device: $0.key, failureCount: $0.value) }
            .sorted { ($1.failureCount, $0.device) < ($0.failureCount, $1.device) }
    }
}

/// A page as the summaries key it: page `""` with the suite for results without a page.
struct PageKey: Hashable {
    var page: String
    var suite: String
}

private struct PageTally {
    var resultCount = 0
    var failureCount = 0
    var failingTestCount = 0
    var lastFailureAt: Int64?
    var flakyTestCount = 0
    var flakyFailureCount = 0
    var lastFlakyFailureAt: Int64?
    var devices: [String: Int] = [:]
}

/// A validated query in summary-table terms.
struct FlakyWindow {
    var query: FailscopeStore.FlakyQuery
    var sinceDay: Int64
    /// Milliseconds: the start of `sinceDay`.
    var since: Int64
    var device: String?
    var classifier: FlakyClassifier

    init(_ query: FailscopeStore.FlakyQuery) throws(StoreError) {
        guard (1...365).contains(query.days) else { throw .invalid("days must be 1...365") }
        try FlakyClassifier.validate(query.policy)
        if let device = query.device, device == FlakySummaries.allDevices {
            throw .invalid("device '\(device)' is reserved")
        }
        self.query = query
        let today = Timestamp.milliseconds(query.now) / FlakySummaries.millisecondsPerDay
        self.sinceDay = today - Int64(query.days) + 1
        self.since = sinceDay * FlakySummaries.millisecondsPerDay
        self.device = query.device
        self.classifier = FlakyClassifier(policy: query.policy)
    }

    /// The `flaky_outcomes`/`flaky_commits`/`flaky_test_pages` device key.
    var deviceKey: String { device ?? FlakySummaries.allDevices }
}
extension FailscopeStore {
    /// Recomputes every flaky summary table from `results` (after a bulk load that bypassed `addResults`,
    /// or as a repair), with the statements of the engine's `flaky_summaries.sql`: on SQLite in one
    /// transaction, on PostgreSQL a bounded group of tests or days a transaction
    /// (`FlakySummaries.rebuildAll`), so no statement meets the statement timeout however large the store.
    public func rebuildFlakySummaries() throws {
        switch engine {
        case .sqlite: try write { db in try db.transaction { try FlakySummaries.rebuildAll(db) } }
        case .postgres(let database):
            try storing { try database.pool.withConnection { try FlakySummaries.rebuildAll($0) } }
        }
    }

    /// Every row of every flaky summary table, by table name, each table sorted by all its columns: what
    /// checks compare to show that ingest keeps exactly what `rebuildFlakySummaries()` computes.
    public func flakySummaryRows() throws -> [String: [[SQLValue]]] {
        try read { db in
            var tables: [String: [[SQLValue]]] = [:]
            for table in FlakySummaries.tables {
                let columns = try db.queryFirst("SELECT * FROM \(table) LIMIT 1") { $0.columnCount } ?? 1
                let order = (1...max(columns, 1)).map(String.init).joined(separator: ", ")
                tables[table] = try db.query("SELECT * FROM \(table) ORDER BY \(order)") { row in
                    (0..<row.columnCount).map { row.value($0) }
                }
            }
            return tables
        }
    }
}
