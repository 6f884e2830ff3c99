import FailscopeModel
import FailscopeTesting
import Foundation
import XCTest

@testable import FailscopeStore

/// `FailscopeStore.runComparison`: the comparison from the runs' lean rows says exactly what `RunComparison`
/// says over the two whole run details, quarantine, retries, devices and durations included; on both engines
/// (`StoreTestCase`).
final class RunComparisonStoreTests: StoreTestCase {
    private var store: FailscopeStore!
    private let start = StoreTestCase.threeDaysAgoOnTheHour

    override func setUpWithError() throws {
        store = try makeStore()
    }

    override func tearDown() {
        store.close()
    }

    /// A finished run of "Shop" started `minutes` after `start` whose results are
    /// `(name, attempt, status, duration, device)`; failures carry a message and a screenshot.
    @discardableResult
    private func run(_ id: String, minutes: Double, _ results: [(String, Int, TestStatus, Double, String?)]) throws
        -> RunSummary
    {
        let started = start.addingTimeInterval(minutes * 60)
        try store.putRun(sampleRun(id: id, startedAt: started))
        try store.addResults(
            ResultBatch(
                results: results.map { name, attempt, status, duration, device in
                    let fails = status.outcome == .fail
                    return TestResult(
                        suite: "LoginTests", name: name, device: device, attempt: attempt, status: status,
                        startedAt: started.addingTimeInterval(60), duration: duration,
                        failures: fails ? [Failure(message: "\(name) broke", page: "LoginPage")] : [],
                        trail: [TrailStep(page: "LoginPage")],
                        artifacts: fails
                            ? [
                                ArtifactRef(
                                    sha256: String(repeating: "a", count: 64), kind: .screenshot, byteCount: 100)
                            ]
                            : [])
                }), toRun: id)
        return try store.finishRun(id, RunFinish(finishedAt: started.addingTimeInterval(600)))
    }

    private func comparison(_ runID: String, base baseID: String?) throws -> RunComparison {
        let run = try XCTUnwrap(store.runSummary(runID))
        let base = try baseID.map { try XCTUnwrap(store.runSummary($0)) }
        return try store.runComparison(run, base: base)
    }

    /// The definition over the whole details, as `GET /api/v1/runs/{runId}` gives them.
    private func fromDetails(_ runID: String, base baseID: String?) throws -> RunComparison {
        RunComparison(
            run: try XCTUnwrap(store.runDetail(runID)), base: try baseID.map { try XCTUnwrap(store.runDetail($0)) })
    }

    func testTheLeanComparisonIsTheComparisonOfTheDetails() throws {
        let iPad = "iPad Pro"
        try run(
            "base", minutes: 0,
            [
                ("stays", 1, .passed, 1, nil), ("breaks", 1, .passed, 1, nil), ("heals", 1, .failed, 1, nil),
                ("stuck", 1, .error, 1, nil), ("gone", 1, .passed, 1, nil), ("slower", 1, .passed, 1, nil),
                ("faster", 1, .passed, 4, nil), ("skipped", 1, .skipped, 0, nil), ("known", 1, .failed, 1, nil),
                ("fresh", 1, .passed, 1, nil), ("breaks", 1, .failed, 1, iPad),
                ("wobbly", 1, .failed, 1, nil), ("wobbly", 2, .passed, 1, nil),
            ])
        _ = try store.addQuarantine(
            QuarantineRequest(
                project: "Shop", suite: "LoginTests", name: "known", owner: "ana", reason: "slow simulator",
                expires: QuarantineEntry.dayText(start.addingTimeInterval(2 * 86_400))),
            role: .upload, now: start.addingTimeInterval(5 * 60))
        _ = try store.addQuarantine(
            QuarantineRequest(
                project: "Shop", suite: "LoginTests", name: "fresh", owner: "ana", reason: "slow simulator",
                expires: QuarantineEntry.dayText(start.addingTimeInterval(2 * 86_400))),
            role: .upload, now: start.addingTimeInterval(5 * 60))
        try run(
            "run", minutes: 10,
            [
                ("stays", 1, .passed, 1.05, nil), ("breaks", 1, .failed, 1, nil), ("heals", 1, .passed, 1, nil),
                ("stuck", 1, .failed, 1, nil), ("retried", 1, .failed, 1, nil), ("retried", 2, .passed, 1, nil),
                ("slower", 1, .passed, 3, nil), ("faster", 1, .passed, 1, nil), ("skipped", 1, .failed, 1, nil),
                ("new", 1, .expectedFailure, 1, nil), ("known", 1, .failed, 1, nil), ("fresh", 1, .error, 1, nil),
                ("breaks", 1, .passed, 1, iPad), ("wobbly", 1, .passed, 1, nil), ("wobbly", 2, .failed, 1, nil),
            ])
        let comparison = try comparison("run", base: "base")
        XCTAssertEqual(comparison, try fromDetails("run", base: "base"))
        XCTAssertEqual(comparison.base?.run.id, "base")
        XCTAssertEqual(comparison.newFailures.map(\.name), ["breaks", "skipped", "wobbly"], "wobbly: its last attempt")
        XCTAssertEqual(comparison.newFailures.first?.message, "breaks broke", "listed results are read in full")
        XCTAssertEqual(comparison.newFailures.first?.screenshot, String(repeating: "a", count: 64))
        XCTAssertEqual(comparison.stillFailing.map(\.name), ["stuck"])
        XCTAssertEqual(comparison.quarantined.map(\.name), ["known", "fresh"])
        XCTAssertEqual(comparison.quarantined.map(\.quarantined), [true, true])
        XCTAssertEqual(comparison.fixed.map(\.name), ["heals", "breaks"])
        XCTAssertEqual(comparison.fixed.last?.device, iPad, "a test on another device is another test")
        XCTAssertEqual(comparison.flaky.map { "\($0.name)#\($0.attempt)" }, ["retried#2"])
        XCTAssertEqual(comparison.newTests.map(\.name), ["retried", "new"])
        XCTAssertEqual(comparison.removedTests.map(\.name), ["gone"])
        XCTAssertEqual(comparison.durationChanges.map(\.result.name), ["faster", "slower"], "largest change first")
        XCTAssertEqual(comparison.durationChanges.map(\.baseDuration), [4, 1])
        XCTAssertEqual(comparison.durationChanges.map(\.duration), [1, 3])

        let alone = try self.comparison("run", base: nil)
        XCTAssertEqual(alone, try fromDetails("run", base: nil))
        XCTAssertNil(alone.base)
        XCTAssertEqual(alone.newFailures.map(\.name), ["breaks", "stuck", "skipped", "wobbly"])
        XCTAssertEqual(alone.newTests, [])
    }

    func testLongListsAreWholeWhetherLookedUpByIdOrReadWithTheRun() throws {
        // Three lookups of `resultLookupBatch` ids (the last one filled up), then more than `resultLookupLimit`.
        for count in [FailscopeStore.resultLookupBatch * 2 + 1, FailscopeStore.resultLookupLimit + 1] {
            try run("base-\(count)", minutes: 0, (0..<count).map { ("testOld\($0)", 1, .passed, 1, nil) })
            try run("run-\(count)", minutes: 10, (0..<count).map { ("testNew\($0)", 1, .failed, 1, nil) })
            let comparison = try comparison("run-\(count)", base: "base-\(count)")
            XCTAssertEqual(comparison, try fromDetails("run-\(count)", base: "base-\(count)"))
            XCTAssertEqual(comparison.newFailures.count, count)
            XCTAssertEqual(comparison.newTests.count, count)
            XCTAssertEqual(comparison.removedTests.count, count)
            XCTAssertEqual(comparison.removedTests.last?.name, "testOld\(count - 1)")
            XCTAssertEqual(comparison.newFailures.last?.message, "testNew\(count - 1) broke")
        }
    }
}
