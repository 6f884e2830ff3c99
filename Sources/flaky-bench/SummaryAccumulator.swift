@_spi(Engine) import FailscopeStore
import Foundation

/// Builds the rows of the flaky summary tables (Migrations/sqlite/0001_baseline.sql; every generated result
/// has a device; test `i` has `tests.key` i + 1) from the generator's results as they are produced in time
/// order, and writes them sorted by primary key. The same rows as flaky_summaries.sql computes
/// (`flaky-bench generate --verify` checks).
final class SummaryAccumulator {
    private let testIDs: [String]
    private let suites: [String]
    private let project: String
    private let pages: [String]
    private var pageIndex: [String: Int] = [:]
    private var branches: [String] = []
    private var branchIndex: [String: Int] = [:]
    private var devices: [String] = []
    private var deviceIndex: [String: Int] = [:]
    private static let allDevices = "*"

    // The current commit.
    private var commit = -1
    private var commitSHA = ""
    private var branch = 0
    private var device = 0

    private struct TestKey: Hashable {
        var test: Int32
        var branch: Int16
        var device: Int16
    }
    private struct PageKey: Hashable {
        var test: Int32
        var branch: Int16
        var device: Int16
        var page: Int16
    }
    private struct SiteKey: Hashable {
        var page: PageKey
        var line: Int32
    }
    private struct Recent {
        var ranAt: Int64
        var resultID: Int64
        var failed: Bool
        var commit: String
    }
    private struct CommitCounts {
        var passes = 0
        var fails = 0
        var lastPass: Int64?
        var lastFail: Int64?
    }
    private struct DayFailures {
        var count = 0
        var first = Int64.max
        var last = Int64.min
        var lastResultID: Int64 = 0
    }

    private var recent: [TestKey: [Recent]] = [:]
    private var commitCounts: [TestKey: CommitCounts] = [:]
    private var commitRows: [(key: TestKey, sha: String, counts: CommitCounts)] = []
    private var day: Int64 = -1
    private var todayOutcomes: [TestKey: (passes: Int, fails: Int)] = [:]
    /// Lifetime counts per key, through the previous day until the day is flushed.
    private var totals: [TestKey: (passes: Int, fails: Int)] = [:]
    private var testDayRows: [(key: TestKey, day: Int64, passesBefore: Int, failsBefore: Int)] = []
    private var todayFailures: [PageKey: DayFailures] = [:]
    private var totalFailures: [PageKey: Int] = [:]
    private var pageDayRows: [(key: PageKey, day: Int64, fails: Int, failures: DayFailures)] = []
    private var lastFailure: [PageKey: (at: Int64, resultID: Int64)] = [:]
    private var sites: [SiteKey: (count: Int, last: Int64)] = [:]
    private var pageDays: [PageDayKey: (results: Int, fails: Int, lastFail: Int64?)] = [:]

    private struct PageDayKey: Hashable {
        var branch: Int16
        var page: Int16
        var day: Int64
    }

    init(testIDs: [String], suites: [String], project: String, pages: [String]) {
        self.testIDs = testIDs
        self.suites = suites
        self.project = project
        self.pages = pages
        for (index, page) in pages.enumerated() { pageIndex[page] = index }
    }

    private func index(_ name: String, _ names: inout [String], _ indexes: inout [String: Int]) -> Int {
        if let index = indexes[name] { return index }
        names.append(name)
        indexes[name] = names.count - 1
        return names.count - 1
    }

    /// Starts the results of a run (the generator's runs of one commit are consecutive).
    func begin(commit: Int, commitSHA: String, branch: String, device: Int, deviceName: String) {
        if commit != self.commit { flushCommit() }
        self.commit = commit
        self.commitSHA = commitSHA
        self.branch = index(branch, &branches, &branchIndex)
        self.device = index(deviceName, &devices, &deviceIndex)
        _ = index(Self.allDevices, &devices, &deviceIndex)
    }

    private func flushCommit() {
        for (key, counts) in commitCounts where counts.fails > 0 { commitRows.append((key, commitSHA, counts)) }
        commitCounts.removeAll(keepingCapacity: true)
    }

    private func flushDay() {
        // Per key and day, the counts before the day .
        for (key, today) in todayOutcomes {
            let before = totals[key] ?? (0, 0)
            testDayRows.append((key, day, before.passes, before.fails))
            totals[key] = (before.passes + today.passes, before.fails + today.fails)
        }
        todayOutcomes.removeAll(keepingCapacity: true)
        for (key, today) in todayFailures {
            let total = (totalFailures[key] ?? 0) + today.count
            totalFailures[key] = total
            pageDayRows.append((key, day, total, today))
        }
        todayFailures.removeAll(keepingCapacity: true)
    }

    /// One result of the current run (results come in time order, then id order).
    func add(test: Int, page: String, line: Int, failed: Bool, ranAt: Int64, resultID: Int64) {
        let resultDay = ranAt / 86_400_000
        if resultDay != day {
            if day >= 0 { flushDay() }
            day = resultDay
        }
        let pageNumber = Int16(pageIndex[page] ?? 0)
        let dayKey = PageDayKey(branch: Int16(branch), page: pageNumber, day: resultDay)
        var pageDay = pageDays[dayKey] ?? (0, 0, nil)
        pageDay.results += 1
        if failed {
            pageDay.fails += 1
            pageDay.lastFail = max(pageDay.lastFail ?? ranAt, ranAt)
        }
        pageDays[dayKey] = pageDay
        for deviceKey in [device, deviceIndex[Self.allDevices]!] {
            let key = TestKey(test: Int32(test), branch: Int16(branch), device: Int16(deviceKey))
            recent[key, default: []].append(Recent(ranAt: ranAt, resultID: resultID, failed: failed, commit: commitSHA))
            if recent[key]!.count > 64 { recent[key]!.removeFirst() }
            var counts = commitCounts[key] ?? CommitCounts()
            if failed {
                counts.fails += 1
                counts.lastFail = max(counts.lastFail ?? ranAt, ranAt)
            } else {
                counts.passes += 1
                counts.lastPass = max(counts.lastPass ?? ranAt, ranAt)
            }
            commitCounts[key] = counts
            var today = todayOutcomes[key] ?? (0, 0)
            if failed { today.fails += 1 } else { today.passes += 1 }
            todayOutcomes[key] = today
        }
        guard failed else { return }
        for deviceKey in [device, deviceIndex[Self.allDevices]!] {
            let key = PageKey(test: Int32(test), branch: Int16(branch), device: Int16(deviceKey), page: pageNumber)
            var today = todayFailures[key] ?? DayFailures()
            today.count += 1
            today.first = min(today.first, ranAt)
            if ranAt >= today.last {
                today.last = ranAt
                today.lastResultID = resultID
            }
            todayFailures[key] = today
            if ranAt >= (lastFailure[key]?.at ?? Int64.min) { lastFailure[key] = (ranAt, resultID) }
        }
        for deviceKey in [device, deviceIndex[Self.allDevices]!] {
            let key = PageKey(test: Int32(test), branch: Int16(branch), device: Int16(deviceKey), page: pageNumber)
            let site = SiteKey(page: key, line: Int32(line))
            let previous = sites[site] ?? (0, Int64.min)
            sites[site] = (previous.count + 1, max(previous.last, ranAt))
        }
    }

    /// Writes every table (call inside a transaction), rows sorted by primary key.
    func write(_ db: Database) throws {
        flushCommit()
        if day >= 0 { flushDay() }
        let testRank = Self.ranks(testIDs)
        let branchRank = Self.ranks(branches)
        let deviceRank = Self.ranks(devices)
        func order(_ key: TestKey) -> (Int, Int, Int) {
            (testRank[Int(key.test)], branchRank[Int(key.branch)], deviceRank[Int(key.device)])
        }
        func order(_ key: PageKey) -> (Int, Int, Int, String) {
            (testRank[Int(key.test)], branchRank[Int(key.branch)], deviceRank[Int(key.device)], pages[Int(key.page)])
        }
        // Tables keyed by tests.key : test i has key i + 1.
        func keyOrder(_ key: TestKey) -> (Int32, Int, Int) {
            (key.test, branchRank[Int(key.branch)], deviceRank[Int(key.device)])
        }
        for (key, entries) in recent.sorted(by: { keyOrder($0.key) < keyOrder($1.key) }) {
            // Results arrive in time order, so the pack is the kept entries reversed.
            let pack = OutcomePack(
                entries.reversed().map {
                    OutcomePack.Outcome(ranAt: $0.ranAt, failed: $0.failed, commitKey: OutcomePack.commitKey($0.commit))
                })
            let total = totals[key] ?? (0, 0)
            try db.run(
                """
                INSERT INTO flaky_outcomes (test_key, branch, device, newest_result_id, outcomes, passes, fails)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    Int(key.test) + 1, branches[Int(key.branch)], devices[Int(key.device)], entries.last?.resultID ?? 0,
                    SQLValue.blob(pack.encoded()), total.passes, total.fails,
                ])
        }
        for row in commitRows.sorted(by: { order($0.key) != order($1.key) ? order($0.key) < order($1.key) : $0.sha < $1.sha }) {
            try db.run(
                """
                INSERT INTO flaky_commits (test_id, branch, device, commit_sha, passes, fails, last_pass_at, last_fail_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    testIDs[Int(row.key.test)], branches[Int(row.key.branch)], devices[Int(row.key.device)], row.sha,
                    row.counts.passes, row.counts.fails, row.counts.lastPass, row.counts.lastFail,
                ])
        }
        for row in testDayRows.sorted(by: {
            keyOrder($0.key) != keyOrder($1.key) ? keyOrder($0.key) < keyOrder($1.key) : $0.day < $1.day
        }) {
            try db.run(
                """
                INSERT INTO flaky_test_days (test_key, branch, device, day, passes_before, fails_before)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    Int(row.key.test) + 1, branches[Int(row.key.branch)], devices[Int(row.key.device)], row.day,
                    row.passesBefore, row.failsBefore,
                ])
        }
        for row in pageDayRows.sorted(by: { order($0.key) != order($1.key) ? order($0.key) < order($1.key) : $0.day < $1.day }) {
            try db.run(
                """
                INSERT INTO flaky_page_days (test_id, branch, device, page, day, fails, first_fail_at, last_fail_at,
                    last_result_id)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    testIDs[Int(row.key.test)], branches[Int(row.key.branch)], devices[Int(row.key.device)],
                    pages[Int(row.key.page)], row.day, row.fails, row.failures.first, row.failures.last,
                    row.failures.lastResultID,
                ])
        }
        for (key, last) in lastFailure.sorted(by: { order($0.key) < order($1.key) }) {
            try db.run(
                """
                INSERT INTO flaky_test_pages (test_id, branch, device, page, project, last_fail_at, last_result_id,
                    fails)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    testIDs[Int(key.test)], branches[Int(key.branch)], devices[Int(key.device)], pages[Int(key.page)],
                    project, last.at, last.resultID, totalFailures[key] ?? 0,
                ])
        }
        for (key, site) in sites {
            try db.run(
                """
                INSERT INTO flaky_call_sites (test_id, branch, device, page, file, line, fails, last_fail_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    testIDs[Int(key.page.test)], branches[Int(key.page.branch)], devices[Int(key.page.device)],
                    pages[Int(key.page.page)], "Tests/UITests/\(suites[Int(key.page.test)]).swift", Int(key.line),
                    site.count, site.last,
                ])
        }
        // The per-device breakdown of the all-devices page rows: flaky_summaries.sql's own statements over the
        // per-device rows written above.
        for statement in FailscopeStore.flakySummaryStatements where statement.hasPrefix("UPDATE") {
            try db.execute(statement)
        }
        for (key, counts) in pageDays {
            try db.run(
                """
                INSERT INTO page_days (project, branch, page, suite, day, results, fails, last_fail_at)
                VALUES (?, ?, ?, '', ?, ?, ?, ?)
                """,
                [
                    project, branches[Int(key.branch)], pages[Int(key.page)], key.day, counts.results, counts.fails,
                    counts.lastFail,
                ])
        }
    }

    /// The position of each name in the sorted names (SQLite's BINARY order is byte order = UTF-8 order).
    private static func ranks(_ names: [String]) -> [Int] {
        var ranks = [Int](repeating: 0, count: names.count)
        for (rank, index) in names.indices.sorted(by: { Array(names[$0].utf8).lexicographicallyPrecedes(Array(names[$1].utf8)) }).enumerated() {
            ranks[index] = rank
        }
        return ranks
    }
}
