import FailscopeModel
import Foundation
import XCTest

final class RunComparisonTests: XCTestCase {
    private var nextID = 0

    /// A run whose results are `(test, attempt, status, duration)`, one page group; the results of the tests in
    /// `quarantined` are marked quarantined.
    private func detail(
        _ id: String, _ results: [(String, Int, TestStatus, Double)], quarantined: Set<String> = []
    ) -> RunDetail {
        let summaries = results.map { test, attempt, status, duration -> ResultSummary in
            nextID += 1
            return ResultSummary(
                id: nextID, runId: id, testId: "id-\(test)", suite: "Suite", name: test, arguments: nil,
                device: "iPhone 15", attempt: attempt, status: status, startedAt: nil, duration: duration, page: nil,
                callSite: nil, message: status.outcome == .fail ? "boom" : nil, screenshot: nil,
                quarantined: quarantined.contains(test))
        }
        return RunDetail(
            summary: RunSummary(
                run: Run(id: id, project: "P", branch: "main", startedAt: Date(timeIntervalSince1970: 1)),
                status: .failed, counts: ResultCounts(total: results.count)),
            pages: [.init(page: nil, counts: ResultCounts(), callSites: [.init(callSite: nil, results: summaries)])])
    }

    func testEachTestIsJudgedByItsLastAttempt() {
        let base = detail(
            "base",
            [
                ("stays", 1, .passed, 1), ("breaks", 1, .passed, 1), ("heals", 1, .failed, 1), ("stuck", 1, .error, 1),
                ("gone", 1, .passed, 1), ("slower", 1, .passed, 1.0), ("skipped", 1, .skipped, 0),
            ])
        let run = detail(
            "run",
            [
                ("stays", 1, .passed, 1.05), ("breaks", 1, .failed, 1), ("heals", 1, .passed, 1),
                ("stuck", 1, .failed, 1),
                ("retried", 1, .failed, 1), ("retried", 2, .passed, 1), ("slower", 1, .passed, 3.0),
                ("skipped", 1, .failed, 1), ("new", 1, .expectedFailure, 1),
            ])
        let comparison = RunComparison(run: run, base: base)
        XCTAssertEqual(comparison.newFailures.map(\.name), ["breaks", "skipped"])
        XCTAssertEqual(comparison.stillFailing.map(\.name), ["stuck"])
        XCTAssertEqual(comparison.fixed.map(\.name), ["heals"])
        XCTAssertEqual(comparison.flaky.map(\.name), ["retried"])
        XCTAssertEqual(comparison.flaky.first?.attempt, 2, "the last attempt")
        XCTAssertEqual(comparison.newTests.map(\.name), ["retried", "new"])
        XCTAssertEqual(comparison.removedTests.map(\.name), ["gone"])
        XCTAssertEqual(comparison.durationChanges.map(\.result.name), ["slower"], "stays changed by 5 %: noise")
        XCTAssertEqual(comparison.durationChanges.first?.baseDuration, 1.0)
    }

    func testQuarantinedFailuresAreListedApartFromNewAndStillFailing() {
        let base = detail("base", [("known", 1, .failed, 1), ("fresh", 1, .passed, 1), ("retried", 1, .passed, 1)])
        let run = detail(
            "run",
            [
                ("known", 1, .failed, 1), ("fresh", 1, .error, 1), ("retried", 1, .failed, 1),
                ("retried", 2, .passed, 1), ("plain", 1, .failed, 1),
            ], quarantined: ["known", "fresh", "retried"])
        let comparison = RunComparison(run: run, base: base)
        XCTAssertEqual(comparison.quarantined.map(\.name), ["known", "fresh"], "failing last attempts only")
        XCTAssertEqual(comparison.newFailures.map(\.name), ["plain"])
        XCTAssertEqual(comparison.stillFailing, [])
        XCTAssertEqual(comparison.flaky.map(\.name), ["retried"], "a quarantined retry that passed is still flaky")
    }

    func testWithoutABaseEveryFailureIsNew() {
        let comparison = RunComparison(run: detail("run", [("a", 1, .failed, 1), ("b", 1, .passed, 1)]), base: nil)
        XCTAssertEqual(comparison.newFailures.map(\.name), ["a"])
        XCTAssertEqual(comparison.fixed, [])
        XCTAssertEqual(comparison.newTests, [], "nothing to be new against")
        XCTAssertNil(comparison.base)
    }

    func testTheDefaultBaseIsTheNewestFinishedRunOtherThanTheRunItself() {
        func summary(_ id: String, _ status: RunStatus, commit: String? = nil) -> RunSummary {
            RunSummary(
                run: Run(
                    id: id, project: "P", branch: "main", commit: commit, startedAt: Date(timeIntervalSince1970: 1)),
                status: status, counts: ResultCounts())
        }
        let newestFirst = [
            summary("run", .failed), summary("running", .incomplete), summary("newest", .passed, commit: "c2"),
            summary("older", .failed, commit: "c1"),
        ]
        XCTAssertEqual(RunComparison.defaultBase(of: "run", among: newestFirst)?.run.id, "newest")
        XCTAssertEqual(
            RunComparison.defaultBase(of: "run", among: newestFirst, preferringCommit: "c1")?.run.id, "older",
            "the merge base's run when there is one")
        XCTAssertEqual(
            RunComparison.defaultBase(of: "run", among: newestFirst, preferringCommit: "c9")?.run.id, "newest")
        XCTAssertNil(RunComparison.defaultBase(of: "run", among: Array(newestFirst.prefix(2))))
    }

    func testTheDefaultBaseRanOnTheRunsDeviceWhenAnyDid() {
        func summary(_ id: String, device: String?, commit: String? = nil) -> RunSummary {
            RunSummary(
                run: Run(
                    id: id, project: "P", branch: "main", commit: commit, device: device,
                    startedAt: Date(timeIntervalSince1970: 1)),
                status: .passed, counts: ResultCounts())
        }
        // The trial's case: the newest main run was on an iPad, the run on an iPhone.
        let newestFirst = [
            summary("ipad", device: "iPad Pro", commit: "c2"), summary("iphone", device: "iPhone 15", commit: "c1"),
            summary("iphone-older", device: "iPhone 15", commit: "c0"),
        ]
        XCTAssertEqual(RunComparison.defaultBase(of: "run", among: newestFirst, device: "iPhone 15")?.run.id, "iphone")
        XCTAssertEqual(
            RunComparison.defaultBase(of: "run", among: newestFirst, preferringCommit: "c0", device: "iPhone 15")?
                .run.id, "iphone-older")
        XCTAssertEqual(
            RunComparison.defaultBase(of: "run", among: newestFirst, preferringCommit: "c2", device: "iPhone 15")?
                .run.id, "iphone", "the merge base's run on another device loses to the same device")
        XCTAssertEqual(
            RunComparison.defaultBase(of: "run", among: newestFirst, device: "Pixel")?.run.id, "ipad",
            "no run on the device: the newest of any")
        XCTAssertEqual(RunComparison.defaultBase(of: "run", among: newestFirst)?.run.id, "ipad")
    }
}
