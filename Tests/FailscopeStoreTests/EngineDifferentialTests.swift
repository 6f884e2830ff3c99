import FailscopeModel
import FailscopeTesting
import Foundation
import XCTest

@_spi(Engine) @testable import FailscopeStore

/// The two engines give the same answers: one randomized history (runs uploaded out of time order by
/// several processes, retries, re-uploaded batches, several devices, branches, commits and projects, runs
/// whose branch, commit or start changes later, garbage collection in between) is ingested into an SQLite
/// store and a PostgreSQL store, then every read is asked of both and the JSON answers compared: run lists
/// page by page, run details, run comparisons, result details, test histories page by page, pages, flaky
/// tests (with broken tests) and flaky pages under several filters, the durations of tests and page actions,
/// and what each gc reported.
///
/// Result ids are the one thing allowed to differ (each engine numbers its rows; SQLite may reuse the ids of
/// deleted rows): answers are compared with every result id replaced by the result's (run, key), and a
/// history's cursor (which carries an id) by whether there is one.
final class EngineDifferentialTests: XCTestCase {
    private var database: PostgresScratchDatabase?

    override func setUpWithError() throws {
        guard let server = PostgresTestServer.url else {
            if PostgresTestServer.isRequired { XCTFail(PostgresTestServer.missingInCI) }
            throw XCTSkip(PostgresTestServer.skipped)
        }
        database = try PostgresScratchDatabase(server: server)
    }

    override func tearDown() {
        database?.drop()
    }

    func testBothEnginesGiveTheSameAnswersForTheSameRandomHistory() throws {
        let sqlite = try FailscopeStore(directory: try makeTemporaryDirectory())
        let postgres = try FailscopeStore(
            directory: try makeTemporaryDirectory(), database: .postgres(url: try XCTUnwrap(database).url))
        defer {
            sqlite.close()
            postgres.close()
        }
        let stores = [sqlite, postgres]
        var random = SplitMix(seed: 2_026_12_01)
        func pick<T>(_ values: [T]) -> T { values[Int(random.next() % UInt64(values.count))] }
        func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

        let now = referenceDate
        let tests = (0..<14).map { index in
            (
                suite: ["LoginTests", "CatalogTests", "CheckoutTests"][index % 3], name: "test\(index)",
                arguments: index % 5 == 4 ? "(\(index))" : nil
            )
        }
        let pages: [String?] = ["LoginPage", "CatalogPage", "CartPage", nil]
        let devices: [String?] = ["iPhone 15", "iPad Pro", nil]
        var runIDs: [String] = []
        var gcReports: [[FailscopeStore.GarbageReport]] = []
        for step in 0..<70 {
            let runID = "run-\(step)"
            // Out of time order: a run may have started up to 40 days before `now`.
            var run = Run(
                id: runID, project: chance(85) ? "Shop" : "Bank", branch: pick(["main", "main", "feature/x", nil]),
                commit: pick(["c1", "c2", "c3", "c4", nil]), device: pick(devices), osVersion: "17.5",
                startedAt: now.addingTimeInterval(-Double(random.next() % (40 * 24)) * 3_600))
            for store in stores { try store.putRun(run, now: now) }
            runIDs.append(runID)
            // Several processes upload batches of one run; one batch is sometimes uploaded twice (a retry).
            for _ in 0..<(1 + random.next() % 3) {
                var results: [TestResult] = []
                for _ in 0..<(1 + random.next() % 6) {
                    let test = pick(tests)
                    let status = pick([
                        TestStatus.passed, .passed, .passed, .failed, .error, .skipped, .expectedFailure,
                    ])
                    let page = pick(pages)
                    let failing = status == .failed || status == .error
                    let line = 10 + Int(random.next() % 3)
                    let callSite = SourceLocation(file: "/src/\(test.suite).swift", line: line)
                    var result = TestResult(
                        suite: test.suite, name: test.name, arguments: test.arguments,
                        device: chance(20) ? pick(devices) : nil, attempt: 1 + Int(random.next() % 3), status: status,
                        startedAt: chance(50) ? run.startedAt.addingTimeInterval(Double(random.next() % 7_200)) : nil,
                        duration: Double(random.next() % 5_000) / 1_000,
                        failures: failing
                            ? [
                                Failure(
                                    message: "Timed out: \(test.name)", page: page, action: "tap()", callSite: callSite)
                            ]
                            : [],
                        // Timed steps (seconds from the run and the line: no draw, so the history is as before).
                        trail: page.map {
                            [
                                TrailStep(page: "LaunchPage", duration: Double((step + line) % 4) / 10),
                                TrailStep(
                                    page: $0, action: "tap()", callSite: callSite,
                                    duration: Double((step * 7 + line) % 40) / 10),
                            ]
                        }
                            ?? [],
                        artifacts: failing && chance(50)
                            ? [
                                ArtifactRef(
                                    sha256: String(repeating: pick(["a", "b", "c"]), count: 64), kind: .screenshot,
                                    byteCount: 100)
                            ]
                            : [])
                    if status == .skipped { result.skipReason = "not on this device" }
                    results.append(result)
                }
                let batch = ResultBatch(results: results)
                let outcomes = try stores.map { try $0.addResults(batch, toRun: runID, now: now) }
                XCTAssertEqual(outcomes[0], outcomes[1], "batch outcome of \(runID)")
                if chance(20) {
                    let again = try stores.map { try $0.addResults(batch, toRun: runID, now: now) }
                    XCTAssertEqual(again[0], again[1], "re-upload of \(runID)")
                }
            }
            if chance(80) {
                let finish = RunFinish(finishedAt: run.startedAt.addingTimeInterval(600))
                let summaries = try stores.map { try $0.finishRun(runID, finish, now: now) }
                XCTAssertEqual(summaries[0], summaries[1], "finish of \(runID)")
            }
            // A later process of an earlier run reports other metadata (branch, commit, an earlier start).
            if step > 3, chance(15) {
                let earlier = runIDs[Int(random.next() % UInt64(runIDs.count - 1))]
                if let summary = try sqlite.runSummary(earlier) {
                    run = summary.run
                    run.branch = pick(["main", "release", nil])
                    run.commit = pick(["c5", "c1"])
                    run.startedAt = run.startedAt.addingTimeInterval(-Double(random.next() % 3) * 86_400)
                    run.finishedAt = nil
                    for store in stores { try store.putRun(run, now: now) }
                }
            }
            if step % 25 == 24 {
                gcReports.append(try stores.map { try $0.collectGarbage(keepDays: 30, now: now, vacuum: false) })
            }
        }
        for reports in gcReports {
            XCTAssertEqual(reports[0].runsDeleted, reports[1].runsDeleted)
            XCTAssertEqual(reports[0].resultsDeleted, reports[1].resultsDeleted)
            XCTAssertEqual(reports[0].testsDeleted, reports[1].testsDeleted)
        }
        XCTAssertGreaterThan(gcReports.map { $0[0].runsDeleted }.reduce(0, +), 0, "gc deleted runs in between")

        let report = try sqlite.flakyTests(.init(days: 30, now: now))
        XCTAssertFalse(report.flaky.isEmpty, "the history has flaky tests")
        XCTAssertFalse(try sqlite.flakyPages(.init(days: 30, now: now)).pages.isEmpty)
        let answers = try stores.map { try Answers(store: $0, now: now, projects: ["Shop", "Bank"]) }
        XCTAssertGreaterThan(answers[0].count, 200, "answers compared")
        let actions = try sqlite.actionDurations(.init(project: "Shop", days: 30, now: now))
        XCTAssertEqual(actions.slowest.map(\.action.page).sorted(), ["CartPage", "CatalogPage", "LoginPage"])
        XCTAssertFalse(actions.regressions.isEmpty, "the history has an action that became slower")
        XCTAssertEqual(answers[0].keys, answers[1].keys)
        for key in answers[0].keys.sorted() where answers[0][key] != answers[1][key] {
            XCTFail("\(key) differs:\nSQLite:     \(answers[0][key] ?? "-")\nPostgreSQL: \(answers[1][key] ?? "-")")
        }
    }
}

/// Every read of one store, as canonical JSON by a name for the question, result ids replaced.
private struct Answers {
    private var answers: [String: String] = [:]
    private let store: FailscopeStore
    /// Each result id's (run, key): the same result in both engines.
    private let identities: [Int: String]

    var count: Int { answers.count }
    var keys: [String] { answers.keys.sorted() }
    subscript(_ key: String) -> String? { answers[key] }

    init(store: FailscopeStore, now: Date, projects: [String]) throws {
        self.store = store
        identities = Dictionary(
            uniqueKeysWithValues: try store.read { db in
                try db.query("SELECT id, run_id, result_key FROM results") {
                    ($0.int(0), "\($0.string(1))/\($0.string(2))")
                }
            })
        // Run lists, page by page, unfiltered and filtered.
        var runIDs: [String] = []
        for (name, query) in [
            ("all", FailscopeStore.RunQuery(limit: 7)), ("Shop main", .init(project: "Shop", branch: "main", limit: 5)),
            ("failed", .init(status: .failed, limit: 6)),
        ] {
            var query = query
            var page = 0
            while true {
                let list = try store.runs(query)
                try record("runs \(name) page \(page)", list)
                if name == "all" { runIDs += list.runs.map(\.run.id) }
                guard let next = list.nextCursor else { break }
                query.cursor = next
                page += 1
            }
        }
        var details: [RunDetail] = []
        var testIDs = Set<String>()
        for runID in runIDs {
            let detail = try XCTUnwrap(store.runDetail(runID))
            details.append(detail)
            try record("run \(runID)", detail)
            for result in detail.pages.flatMap({ $0.callSites.flatMap(\.results) }) {
                testIDs.insert(result.testId)
                try record("result \(try identity(result.id))", store.resultDetail(result.id))
            }
        }
        for (run, base) in zip(details, details.dropFirst()) {
            let comparison = try store.runComparison(run.summary, base: base.summary)
            XCTAssertEqual(comparison, RunComparison(run: run, base: base), "the lean rows say what the details say")
            try record("compare \(run.summary.run.id) \(base.summary.run.id)", comparison)
        }
        for testID in testIDs.sorted() {
            var cursor: String?
            var page = 0
            repeat {
                let history = try XCTUnwrap(store.testHistory(testID, limit: 4, cursor: cursor))
                try record("history \(testID) page \(page)", history)
                cursor = history.nextCursor
                page += 1
            } while cursor != nil
            try record("duration trend \(testID)", store.durationTrend(testID, .init(project: "", days: 30, now: now)))
        }
        for project in projects + [nil] {
            for branch in ["main", "feature/x", nil] {
                let label = "\(project ?? "*") \(branch ?? "*")"
                try record("pages \(label)", store.pages(project: project, branch: branch, days: 30, now: now))
                for device in ["iPhone 15", "iPad Pro", nil] {
                    let query = FailscopeStore.FlakyQuery(
                        project: project, branch: branch, days: 30, device: device, now: now)
                    try record("flaky \(label) \(device ?? "*")", store.flakyTests(query))
                    try record("flaky pages \(label) \(device ?? "*")", store.flakyPages(query))
                }
                for page in ["LoginPage", "CatalogPage", FlakyReport.noPage] {
                    let query = FailscopeStore.FlakyQuery(
                        project: project, branch: branch, days: 30, page: page, now: now)
                    try record("flaky \(label) on \(page)", store.flakyTests(query))
                }
                if let project {
                    let window = FailscopeStore.WindowQuery(project: project, branch: branch, days: 30, now: now)
                    try record("durations \(label)", store.durations(window))
                    try record("action durations \(label)", store.actionDurations(window))
                    for page in ["LoginPage", "CatalogPage", "CartPage"] {
                        try record(
                            "action trend \(label) \(page)",
                            store.actionDurationTrend(PageAction(page: page, action: "tap()"), window))
                    }
                }
            }
        }
    }

    private func identity(_ resultID: Int) throws -> String {
        try XCTUnwrap(identities[resultID], "result \(resultID)")
    }

    /// Stores `value`'s JSON with result ids replaced and history cursors reduced to whether there is one.
    private mutating func record(_ name: String, _ value: some Encodable) throws {
        let object = try JSONSerialization.jsonObject(
            with: try WireCoding.encoder().encode(value), options: [.fragmentsAllowed])
        let canonical = try JSONSerialization.data(
            withJSONObject: replacingIDs(object), options: [.sortedKeys, .fragmentsAllowed])
        answers[name] = String(decoding: canonical, as: UTF8.self)
    }

    private func replacingIDs(_ value: Any, key: String? = nil) throws -> Any {
        if let object = value as? [String: Any] {
            return try Dictionary(
                uniqueKeysWithValues: object.map { ($0.key, try replacingIDs($0.value, key: $0.key)) })
        }
        if let array = value as? [Any] { return try array.map { try replacingIDs($0, key: key) } }
        switch key {
        case "id", "resultId", "lastResultId":
            if let id = value as? Int { return try identity(id) }
        case "nextCursor" where value is String:
            return "a cursor"
        default: break
        }
        return value
    }
}
