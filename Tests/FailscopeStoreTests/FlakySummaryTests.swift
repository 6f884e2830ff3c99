import FailscopeModel
import XCTest

@_spi(Engine) @testable import FailscopeStore

/// The summary tables kept by ingest equal what flaky_summaries.sql computes from
/// `results`, also after out-of-order results and a run whose branch, commit and device changed.
final class FlakySummaryTests: StoreTestCase {
    private var store: FailscopeStore!

    override func setUpWithError() throws {
        store = try makeStore()
    }

    override func tearDown() {
        store.close()
    }

    private func snapshot() throws -> [String: [[SQLValue]]] { try store.flakySummaryRows() }

    private func assertMatchesRebuild(file: StaticString = #filePath, line: UInt = #line) throws {
        let incremental = try snapshot()
        // A group per test and per day (each test's history whole), as a large store is rebuilt in groups.
        var groups = 0
        try store.write { db in
            try db.transaction {
                try FlakySummaries.rebuildAll(db, resultsPerTransaction: 1) { _, total in groups = total }
            }
        }
        let expected = try store.read { db in
            try db.scalar(
                """
                SELECT (SELECT count(*) FROM tests)
                    + (SELECT count(*) FROM (SELECT DISTINCT project, ran_at / 86400000 FROM results) AS d)
                """
            ).int
        }
        XCTAssertEqual(groups, expected, file: file, line: line)
        let rebuilt = try snapshot()
        for table in FlakySummaries.tables {
            XCTAssertEqual(incremental[table], rebuilt[table], "table \(table)", file: file, line: line)
        }
    }

    /// A deterministic mixed history: 3 tests, 2 devices, 2 branches, retries, skips, pages, no pages,
    /// out-of-order run start times, more than 64 results for one test.
    private func ingestHistory() throws {
        var generator = SplitMix(seed: 7)
        let statuses: [TestStatus] = [.passed, .passed, .failed, .error, .skipped, .expectedFailure]
        for index in 0..<80 {
            let hoursAgo = Double((index * 37) % 400)  // not in time order
            let runID = "run-\(index)"
            try store.putRun(
                Run(
                    id: runID, project: index % 9 == 0 ? "Bank" : "Shop", branch: index % 5 == 0 ? "feature" : "main",
                    commit: index % 7 == 0 ? nil : "c\(index / 3)", device: index % 2 == 0 ? "iPad" : nil,
                    startedAt: referenceDate.addingTimeInterval(-hoursAgo * 3_600)))
            var results: [TestResult] = []
            for name in ["testA", "testB", "testC"] {
                for attempt in 1...(1 + Int(generator.next() % 2)) {
                    let status = statuses[Int(generator.next() % UInt64(statuses.count))]
                    let page: String? = name == "testC" ? nil : ["LoginPage", "CatalogPage"][Int(generator.next() % 2)]
                    results.append(
                        TestResult(
                            suite: "Suite", name: name, device: attempt == 2 && name == "testB" ? "iPhone" : nil,
                            attempt: attempt, status: status,
                            failures: status == .failed || status == .error
                                ? [Failure(message: "m", page: page, callSite: SourceLocation(file: "f.swift", line: attempt))]
                                : [],
                            trail: page.map { [TrailStep(page: $0)] } ?? []))
                }
            }
            try store.addResults(ResultBatch(results: results), toRun: runID)
        }
    }

    func testIngestKeepsTheSameSummariesAsARebuild() throws {
        try ingestHistory()
        let counts = try snapshot()
        XCTAssertGreaterThan(counts["flaky_commits"]?.count ?? 0, 0)
        XCTAssertGreaterThan(counts["flaky_page_days"]?.count ?? 0, 0)
        // Results without a device: their page rows have device "" (the all-devices breakdown counts them),
        // their outcome, commit, day and call-site rows only device "*".
        for table in ["flaky_outcomes", "flaky_commits", "flaky_test_days", "flaky_call_sites"] {
            XCTAssertFalse(counts[table]?.contains { $0[2] == .text("") } ?? true, table)
            XCTAssertTrue(counts[table]?.contains { $0[2] == .text("iPad") } ?? false, table)
        }
        XCTAssertTrue(counts["flaky_page_days"]?.contains { $0[2] == .text("") } ?? false)
        try assertMatchesRebuild()
    }

    func testChangingARunsMetadataRebuildsItsTestsSummaries() throws {
        try ingestHistory()
        try store.putRun(
            Run(
                id: "run-3", project: "Shop", branch: "release", commit: "moved", device: "Pixel",
                startedAt: referenceDate.addingTimeInterval(-90_000)))
        try assertMatchesRebuild()
        let branches = try store.read { db in
            try db.query("SELECT DISTINCT branch FROM flaky_outcomes ORDER BY 1") { $0.string(0) }
        }
        XCTAssertEqual(branches, ["feature", "main", "release"])
    }

    func testMovingARunToAnotherDayMovesItsPageCounts() throws {
        // A test only this run has, on a page only it visits: after the run moves 4 days back, the page
        // counts of its former day are gone, not left beside those of the new day.
        try store.putRun(Run(id: "moved", project: "Shop", branch: "main", startedAt: referenceDate.addingTimeInterval(-2 * 86_400)))
        try store.addResults(
            ResultBatch(results: [
                TestResult(
                    suite: "S", name: "testMoved", status: .failed, failures: [Failure(message: "m", page: "MovePage")],
                    trail: [TrailStep(page: "MovePage")]),
                TestResult(suite: "S", name: "testMoved", attempt: 2, status: .passed, trail: [TrailStep(page: "MovePage")]),
            ]), toRun: "moved")
        try store.putRun(Run(id: "moved", project: "Shop", branch: "main", startedAt: referenceDate.addingTimeInterval(-6 * 86_400)))
        let days = try store.read { db in
            try db.query("SELECT day, results, fails FROM page_days WHERE page = 'MovePage'") {
                "\($0.int64(0)) \($0.int(1)) \($0.int(2))"
            }
        }
        let movedDay = Timestamp.milliseconds(referenceDate.addingTimeInterval(-6 * 86_400)) / FlakySummaries.millisecondsPerDay
        XCTAssertEqual(days, ["\(movedDay) 2 1"])
        try assertMatchesRebuild()
    }

    func testARebuildGivesTheSameFlakyAnswersAsIngest() throws {
        try ingestHistory()
        let answers = try flakyAnswers()
        XCTAssertTrue(answers.contains { $0.contains("\"flakyTestCount\":1") })
        try store.rebuildFlakySummaries()
        XCTAssertEqual(try flakyAnswers(), answers)
    }

    /// The JSON of the flaky queries a user would make over `ingestHistory` (with and without device and page).
    private func flakyAnswers() throws -> [String] {
        let encoder = WireCoding.encoder()
        var answers: [String] = []
        for device in [nil, "iPad", "iPhone"] {
            let query = FailscopeStore.FlakyQuery(project: "Shop", days: 30, device: device, now: referenceDate)
            answers.append(String(decoding: try encoder.encode(try store.flakyPages(query)), as: UTF8.self))
            answers.append(String(decoding: try encoder.encode(try store.flakyTests(query)), as: UTF8.self))
            for page in ["LoginPage", FlakyReport.noPage] {
                var paged = query
                paged.page = page
                answers.append(String(decoding: try encoder.encode(try store.flakyTests(paged)), as: UTF8.self))
            }
        }
        return answers
    }

    func testTestsAreNumberedInTheOrderTheyAreFirstStored() throws {
        try store.putRun(Run(id: "r1", project: "Shop", branch: "main", startedAt: referenceDate))
        try store.addResults(
            ResultBatch(results: ["testC", "testA", "testB"].map { TestResult(suite: "S", name: $0, status: .passed) }),
            toRun: "r1")
        try store.putRun(Run(id: "r2", project: "Shop", branch: "main", startedAt: referenceDate))
        // A new test twice in one batch (a retry) is stored once, with one key.
        var retry = TestResult(suite: "S", name: "testD", status: .passed)
        retry.attempt = 2
        try store.addResults(
            ResultBatch(results: ["testD", "testA"].map { TestResult(suite: "S", name: $0, status: .failed) } + [retry]),
            toRun: "r2")
        let keys = try store.read { db in
            try db.query("SELECT name, key FROM tests ORDER BY key") { "\($0.string(0))=\($0.int(1))" }
        }
        XCTAssertEqual(keys, ["testC=1", "testA=2", "testB=3", "testD=4"])
        try assertMatchesRebuild()
    }

    func testBatchesWhoseResultsSpanDaysKeepTheSameSummariesAsARebuild() throws {
        // Results carrying their own start times: one batch spans several days, out of order, with retries
        // on one commit and more than 64 outcomes per test across batches, so the set-based batch path and
        // the per-result path for multi-day keys both run, and trimming removes rows.
        var generator = SplitMix(seed: 11)
        for index in 0..<24 {
            let runID = "span-\(index)"
            try store.putRun(
                Run(
                    id: runID, project: "Shop", branch: index % 4 == 3 ? "feature" : "main", commit: "c\(index / 2)",
                    device: index % 3 == 0 ? nil : "iPad", startedAt: referenceDate.addingTimeInterval(-Double(index) * 3_600)))
            var results: [TestResult] = []
            for position in 0..<12 {
                let name = ["testA", "testB", "testC"][position % 3]
                let failed = generator.next() % 3 == 0
                let daysAgo = Double((position * 5 + index) % 7)
                let page: String? = name == "testC" ? nil : "LoginPage"
                results.append(
                    TestResult(
                        suite: "Suite", name: name, device: position % 4 == 1 ? "iPhone" : nil, attempt: 1 + position / 3,
                        status: failed ? .failed : (position % 5 == 4 ? .skipped : .passed),
                        startedAt: referenceDate.addingTimeInterval(-daysAgo * 86_400 - Double(position) * 60),
                        failures: failed ? [Failure(message: "m", page: page, callSite: SourceLocation(file: "f.swift", line: 3))] : [],
                        trail: page.map { [TrailStep(page: $0)] } ?? []))
            }
            try store.addResults(ResultBatch(results: results), toRun: runID)
        }
        let counts = try snapshot()
        XCTAssertGreaterThan(Set(counts["flaky_test_days"]?.map { $0[3] } ?? []).count, 5, "several days")
        XCTAssertGreaterThan(counts["flaky_commits"]?.count ?? 0, 0)
        let full = try store.read { db in
            try db.scalar("SELECT max(length(outcomes)) FROM flaky_outcomes").int.map { $0 / OutcomePack.stride }
        }
        XCTAssertEqual(full, FlakySummaries.recentCapacity, "some key was trimmed")
        try assertMatchesRebuild()
    }

    func testRecentKeepsTheNewest64PerTestBranchAndDevice() throws {
        try store.putRun(Run(id: "r", project: "Shop", branch: "main", commit: "c", device: "iPad", startedAt: referenceDate))
        let results = (1...70).map { TestResult(suite: "S", name: "t", attempt: $0, status: $0 % 2 == 0 ? .passed : .failed) }
        try store.addResults(ResultBatch(results: results), toRun: "r")
        let kept = try store.read { db in
            try db.query("SELECT device, newest_result_id, outcomes FROM flaky_outcomes ORDER BY 1") { row in
                (device: row.string(0), newest: row.int64(1), pack: row.withBlob(2) { OutcomePack($0) })
            }
        }
        let newestID = try store.read { try $0.scalar("SELECT max(id) FROM results").int64 }
        XCTAssertEqual(kept.map(\.device), ["*", "iPad"])
        for key in kept {
            XCTAssertEqual(key.newest, newestID, key.device)
            // Attempts 70 (passed), 69 (failed), ... 7 (failed): the newest 64, newest first.
            XCTAssertEqual(key.pack.outcomes.map(\.failed), (7...70).reversed().map { $0 % 2 == 1 }, key.device)
            XCTAssertEqual(Set(key.pack.outcomes.map(\.commitKey)), [OutcomePack.commitKey("c")], key.device)
        }
        try assertMatchesRebuild()
    }
}

/// A tiny deterministic generator (SplitMix64, Steele et al. 2014) for reproducible histories.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
