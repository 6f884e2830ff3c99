import FailscopeModel
import FailscopeTesting
import XCTest

@testable import FailscopeStore

/// Slowest tests and page actions, duration regressions and daily percentiles (docs/durations.md), on both
/// engines.
final class DurationsTests: StoreTestCase {
    private var store: FailscopeStore!

    override func setUpWithError() throws {
        store = try makeStore()
    }

    override func tearDown() {
        store.close()
    }

    /// 20 runs, one an hour: testSlow takes 1.0...1.9 s (run order), then 3 s from run 10 on; testFast 0.1 s;
    /// testFailing fails (its duration is not counted).
    private func seed() throws {
        for index in 0..<20 {
            let id = "run-\(index)"
            try store.putRun(sampleRun(id: id, startedAt: referenceDate.addingTimeInterval(Double(index) * 3600)))
            try store.addResults(
                ResultBatch(results: [
                    TestResult(
                        suite: "CatalogTests", name: "testSlow", status: .passed,
                        duration: index < 10 ? 1 + Double(index) / 10 : 3),
                    TestResult(suite: "CatalogTests", name: "testFast", status: .passed, duration: 0.1),
                    TestResult(suite: "CatalogTests", name: "testFailing", status: .failed, duration: 9),
                ]), toRun: id)
        }
    }

    func testSlowestTestsAndRegressionsUseNearestRankPercentiles() throws {
        try seed()
        let report = try store.durations(.init(project: "Shop", now: referenceDate.addingTimeInterval(86_400)))
        XCTAssertEqual(report.slowest.map(\.test.name), ["testSlow", "testFast"])
        let slow = report.slowest[0]
        XCTAssertEqual(slow.count, 20)
        // Sorted: 1.0 … 1.9, then ten 3.0. Rank ⌈0.5·20⌉ = 10 → 1.9; rank ⌈0.95·20⌉ = 19 → 3.0.
        XCTAssertEqual(slow.p50, 1.9, accuracy: 1e-9)
        XCTAssertEqual(slow.p95, 3.0, accuracy: 1e-9)
        XCTAssertEqual(report.regressions.map(\.test.name), ["testSlow"])
        XCTAssertEqual(report.regressions[0].recentP50, 3.0, accuracy: 1e-9)
        XCTAssertEqual(report.regressions[0].previousP50, 1.4, accuracy: 1e-9)
        XCTAssertEqual(try store.durations(.init(project: "Shop", limit: 1, now: referenceDate)).slowest.count, 1)
        XCTAssertEqual(try store.durations(.init(project: "Bank", now: referenceDate)).slowest, [])
        XCTAssertThrowsError(try store.durations(.init(project: "Shop", days: 366)))
    }

    func testADaysPercentiles() throws {
        try seed()
        let id = TestIdentity.id(project: "Shop", suite: "CatalogTests", name: "testSlow", arguments: nil)
        let trend = try XCTUnwrap(try store.durationTrend(id, .init(project: "", now: referenceDate.addingTimeInterval(86_400))))
        XCTAssertEqual(trend.test.name, "testSlow")
        XCTAssertEqual(trend.days.map(\.count).reduce(0, +), 20)
        XCTAssertEqual(trend.days.map(\.day), trend.days.map(\.day).sorted())
        XCTAssertNil(try store.durationTrend(String(repeating: "0", count: 32), .init(project: "")))
    }

    /// 20 runs, one an hour: testSearch passes entering CatalogPage, then `search(_:)` in 1.0...1.9 s (run
    /// order) and 3 s from run 10 on, then `open(_:)` in 0.5 s (its last step: it ran to the test's end);
    /// testCheckout fails in `pay()` after `checkout()` in 0.3 s (pay's 9 s ran to the failure: cut short);
    /// testBrowse passes without a trace (untimed steps count nothing).
    private func seedActions(project: String = "Shop", branch: String = "main") throws {
        for index in 0..<20 {
            let id = "\(project)-\(branch)-\(index)"
            try store.putRun(
                sampleRun(
                    id: id, project: project, branch: branch,
                    startedAt: referenceDate.addingTimeInterval(Double(index) * 3600)))
            try store.addResults(
                ResultBatch(results: [
                    TestResult(
                        suite: "CatalogTests", name: "testSearch", status: .passed, duration: 5,
                        trail: [
                            TrailStep(page: "CatalogPage", duration: 0.2),
                            TrailStep(
                                page: "CatalogPage", action: "search(_:)",
                                duration: index < 10 ? 1 + Double(index) / 10 : 3),
                            TrailStep(page: "CatalogPage", action: "open(_:)", duration: 0.5),
                        ]),
                    TestResult(
                        suite: "CartTests", name: "testCheckout", status: .failed, duration: 10,
                        trail: [
                            TrailStep(page: "CartPage", action: "checkout()", duration: 0.3),
                            TrailStep(page: "CartPage", action: "pay()", duration: 9),
                        ]),
                    TestResult(
                        suite: "CatalogTests", name: "testBrowse", status: .passed, duration: 1,
                        trail: [TrailStep(page: "CatalogPage", action: "scroll()")]),
                ]), toRun: id)
        }
    }

    func testSlowestActionsAndRegressionsCountTimedStepsThatRanToTheirEnd() throws {
        try seedActions()
        try seedActions(branch: "release")
        let tomorrow = referenceDate.addingTimeInterval(86_400)
        let report = try store.actionDurations(.init(project: "Shop", branch: "main", now: tomorrow))
        XCTAssertEqual(
            report.slowest.map(\.action.name),
            ["CatalogPage.search(_:)", "CatalogPage.open(_:)", "CartPage.checkout()"])
        XCTAssertEqual(report.slowest.map(\.count), [20, 20, 20])
        // search: sorted 1.0 … 1.9, then ten 3.0: p50 rank 10 → 1.9, p95 rank 19 → 3.0.
        XCTAssertEqual(report.slowest[0].p50, 1.9, accuracy: 1e-9)
        XCTAssertEqual(report.slowest[0].p95, 3.0, accuracy: 1e-9)
        XCTAssertEqual(report.slowest[2].p95, 0.3, accuracy: 1e-9)
        XCTAssertEqual(report.regressions.map(\.action), [PageAction(page: "CatalogPage", action: "search(_:)")])
        XCTAssertEqual(report.regressions[0].previousP50, 1.4, accuracy: 1e-9)
        XCTAssertEqual(report.regressions[0].recentP50, 3.0, accuracy: 1e-9)
        // Every branch: each action twice as often, the same percentiles.
        let everyBranch = try store.actionDurations(.init(project: "Shop", limit: 2, now: tomorrow))
        XCTAssertEqual(everyBranch.slowest.map(\.count), [40, 40])
        XCTAssertEqual(everyBranch.slowest.map(\.p95), [3.0, 0.5])
        XCTAssertEqual(try store.actionDurations(.init(project: "Bank", now: tomorrow)).slowest, [])
        XCTAssertThrowsError(try store.actionDurations(.init(project: "Shop", limit: 0)))
    }

    func testAnActionsDays() throws {
        try seedActions()
        let tomorrow = referenceDate.addingTimeInterval(86_400)
        let search = PageAction(page: "CatalogPage", action: "search(_:)")
        let trend = try store.actionDurationTrend(search, .init(project: "Shop", now: tomorrow))
        XCTAssertEqual(trend.action, search)
        XCTAssertEqual(trend.days.map(\.count).reduce(0, +), 20)
        XCTAssertEqual(trend.days.map(\.day), trend.days.map(\.day).sorted())
        XCTAssertEqual(trend.days.last?.p95, 3.0)
        let pay = PageAction(page: "CartPage", action: "pay()")
        XCTAssertEqual(try store.actionDurationTrend(pay, .init(project: "Shop", now: tomorrow)).days, [])
        XCTAssertEqual(try store.actionDurationTrend(search, .init(project: "Bank", now: tomorrow)).days, [])
    }

    func testPercentileIsNearestRank() {
        XCTAssertEqual(Percentile.of([1, 2, 3, 4], 50), 2)
        XCTAssertEqual(Percentile.of([1, 2, 3, 4], 51), 3)
        XCTAssertEqual(Percentile.of([5], 95), 5)
        XCTAssertNil(Percentile.of([], 50))
        XCTAssertEqual(Percentile.rank(95, of: 20), 19)
        XCTAssertEqual(Percentile.rank(1, of: 1), 1)
    }
}
