import FailscopeModel
import FailscopeTesting
import XCTest

@testable import FailscopeStore

/// Slowest tests, duration regressions and a test's daily percentiles (docs/durations.md), on both engines.
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
        XCTAssertEqual(slow.results, 20)
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
        XCTAssertEqual(trend.days.map(\.results).reduce(0, +), 20)
        XCTAssertEqual(trend.days.map(\.day), trend.days.map(\.day).sorted())
        XCTAssertNil(try store.durationTrend(String(repeating: "0", count: 32), .init(project: "")))
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
