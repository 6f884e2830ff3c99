import FailscopeModel
import FailscopeService
import Foundation
import XCTest

/// `GET /api/v1/runs/{runId}/compare` over a real store: the default base and the ways to choose another, and the
/// errors.
final class CompareRouteTests: XCTestCase {
    /// A test that passes (`true`) or fails, and its duration in seconds.
    private typealias Outcome = (name: String, passes: Bool, duration: Double)

    private func put(
        _ service: TestService, _ id: String, project: String = "Shop", branch: String, commit: String,
        minute: Double, finished: Bool = true, _ outcomes: [Outcome]
    ) async throws {
        var run = sampleRun(id: id, project: project, branch: branch)
        run.commit = commit
        run.startedAt = referenceDate.addingTimeInterval(minute * 60)
        try await service.send(.PUT, "/api/v1/runs/\(id)", json: run).assertStatus(.created)
        let results = outcomes.map { outcome -> TestResult in
            var result =
                outcome.passes
                ? TestResult(suite: "LoginTests", name: outcome.name, status: .passed)
                : failingResult(name: outcome.name)
            result.duration = outcome.duration
            return result
        }
        try await service.send(.POST, "/api/v1/runs/\(id)/results", json: ResultBatch(results: results))
            .assertStatus(.ok)
        if finished {
            try await service.send(
                .POST, "/api/v1/runs/\(id)/finish", json: RunFinish(finishedAt: run.startedAt.addingTimeInterval(30))
            ).assertStatus(.ok)
        }
    }

    private func seeded() async throws -> TestService {
        let service = try TestService()
        let onMain: [Outcome] = [
            ("testA", true, 1), ("testB", false, 1), ("testC", false, 1), ("testGone", true, 1), ("testSlow", true, 1),
        ]
        try await put(service, "main-old", branch: "main", commit: "c0", minute: 0, Array(onMain.prefix(2)))
        try await put(service, "main-new", branch: "main", commit: "c1", minute: 1, onMain)
        try await put(service, "dev-1", branch: "dev", commit: "d1", minute: 2, [("testA", false, 1)])
        try await put(service, "other-project", project: "Other", branch: "main", commit: "o1", minute: 3, onMain)
        try await put(service, "main-running", branch: "main", commit: "c2", minute: 4, finished: false, onMain)
        try await put(
            service, "pr", branch: "feature", commit: "f1", minute: 5,
            [
                ("testA", false, 1), ("testB", false, 1), ("testC", true, 1), ("testSlow", true, 3),
                ("testAdded", true, 1),
            ]
        )
        return service
    }

    func testTheDefaultBaseIsTheNewestFinishedRunOfMainInTheRunsProject() async throws {
        let service = try await seeded()
        let comparison = try await service.send(.GET, "/api/v1/runs/pr/compare").decode(RunComparison.self)
        XCTAssertEqual(comparison.run.run.id, "pr")
        XCTAssertEqual(comparison.base?.run.id, "main-new", "not the incomplete run, not another project's")
        XCTAssertEqual(comparison.newFailures.map(\.name), ["testA"])
        XCTAssertEqual(comparison.stillFailing.map(\.name), ["testB"])
        XCTAssertEqual(comparison.fixed.map(\.name), ["testC"])
        XCTAssertEqual(comparison.newTests.map(\.name), ["testAdded"])
        XCTAssertEqual(comparison.removedTests.map(\.name), ["testGone"])
        XCTAssertEqual(comparison.durationChanges.map(\.result.name), ["testSlow"])
        XCTAssertEqual(comparison.durationChanges.first?.baseDuration, 1)
        XCTAssertEqual(comparison.durationChanges.first?.duration, 3)
        // The same as the CLI's definition over the two details.
        let run = try await service.send(.GET, "/api/v1/runs/pr").decode(RunDetail.self)
        let base = try await service.send(.GET, "/api/v1/runs/main-new").decode(RunDetail.self)
        XCTAssertEqual(comparison, RunComparison(run: run, base: base))
    }

    func testTheBaseCanBeARunABranchOrACommit() async throws {
        let service = try await seeded()
        let byRun = try await service.send(.GET, "/api/v1/runs/pr/compare?base=main-old").decode(RunComparison.self)
        XCTAssertEqual(byRun.base?.run.id, "main-old")
        XCTAssertEqual(byRun.fixed, [])
        XCTAssertEqual(byRun.newTests.map(\.name), ["testC", "testSlow", "testAdded"])
        let byBranch = try await service.send(.GET, "/api/v1/runs/pr/compare?baseBranch=dev").decode(RunComparison.self)
        XCTAssertEqual(byBranch.base?.run.id, "dev-1")
        XCTAssertEqual(byBranch.stillFailing.map(\.name), ["testA"])
        let byCommit = try await service.send(.GET, "/api/v1/runs/pr/compare?baseCommit=c0").decode(RunComparison.self)
        XCTAssertEqual(byCommit.base?.run.id, "main-old", "the merge base's run")
        // A run of the base branch is never its own base.
        let ofMain = try await service.send(.GET, "/api/v1/runs/main-new/compare").decode(RunComparison.self)
        XCTAssertEqual(ofMain.base?.run.id, "main-old")
        // No run on the branch: no base, every failure is new.
        let none = try await service.send(.GET, "/api/v1/runs/pr/compare?baseBranch=nothing").decode(
            RunComparison.self)
        XCTAssertNil(none.base)
        XCTAssertEqual(none.newFailures.map(\.name), ["testA", "testB"])
    }

    func testUnknownRunsAndBadParametersAreJSONErrors() async throws {
        let service = try await seeded()
        let unknownRun = await service.send(.GET, "/api/v1/runs/nope/compare")
        XCTAssertEqual(unknownRun.status, .notFound)
        XCTAssertEqual(unknownRun.errorCode, "run_not_found")
        let unknownBase = await service.send(.GET, "/api/v1/runs/pr/compare?base=nope")
        XCTAssertEqual(unknownBase.status, .notFound)
        XCTAssertEqual(unknownBase.errorCode, "base_not_found")
        for base in ["other-project", "pr"] {
            let refused = await service.send(.GET, "/api/v1/runs/pr/compare?base=\(base)")
            XCTAssertEqual(refused.status, .unprocessableContent, base)
            XCTAssertEqual(refused.errorCode, "validation_failed", base)
        }
        for target in [
            "/api/v1/runs/pr/compare?base=main-old&baseBranch=main",
            "/api/v1/runs/pr/compare?base=main-old&baseCommit=c0",
            "/api/v1/runs/pr/compare?base=main-old&base=main-new",
        ] {
            let response = await service.send(.GET, target)
            XCTAssertEqual(response.status, .badRequest, target)
            XCTAssertEqual(response.errorCode, "invalid_parameter", target)
        }
    }

    func testTheReadTokenGuardsIt() async throws {
        let service = try TestService(readToken: readToken)
        let anonymous = await service.send(.GET, "/api/v1/runs/pr/compare", token: nil)
        XCTAssertEqual(anonymous.status, .unauthorized)
    }
}
