import FailscopeModel
import FailscopeStore
import Foundation
import HTTPServer
import XCTest

/// `GET /api/v1/pages` and `GET /api/v1/flaky` over histories uploaded through the ingest routes.
final class FlakyRouteTests: XCTestCase {
    /// Uploads one run of `results` on `commit`, `hoursAgo` before the real now (the routes' window ends now).
    private func upload(
        _ service: TestService, id: String, commit: String, hoursAgo: Double, device: String = "iPhone 15",
        _ results: [TestResult]
    ) async throws {
        let run = Run(
            id: id, project: "Shop", branch: "main", commit: commit, device: device,
            startedAt: Date().addingTimeInterval(-hoursAgo * 3_600))
        let put = try await service.send(.PUT, "/api/v1/runs/\(id)", json: run)
        XCTAssertEqual(put.status, .created)
        let posted = try await service.send(.POST, "/api/v1/runs/\(id)/results", json: ResultBatch(results: results))
        XCTAssertEqual(posted.status, .ok, posted.bodyText)
    }

    private func result(_ name: String, _ status: TestStatus, page: String, attempt: Int = 1, screenshot: String? = nil)
        -> TestResult
    {
        TestResult(
            suite: "LoginTests", name: name, attempt: attempt, status: status,
            failures: status == .failed
                ? [
                    Failure(
                        message: "The button never appeared", page: page,
                        callSite: SourceLocation(file: "/src/LoginTests.swift", line: 40))
                ] : [],
            trail: [TrailStep(page: page)],
            artifacts: screenshot.map { [ArtifactRef(sha256: $0, kind: .screenshot, byteCount: 10)] } ?? [])
    }

    private func seed(_ service: TestService) async throws {
        let sha = String(repeating: "b", count: 64)
        try await upload(
            service, id: "r1", commit: "c1", hoursAgo: 3,
            [
                result("testRetried", .failed, page: "LoginPage", screenshot: sha),
                result("testRetried", .passed, page: "LoginPage", attempt: 2),
                result("testBroken", .failed, page: "CatalogPage"),
                result("testStable", .passed, page: "SettingsPage"),
            ])
        try await upload(
            service, id: "r2", commit: "c1", hoursAgo: 2, device: "iPad",
            [result("testBroken", .failed, page: "CatalogPage"), result("testStable", .passed, page: "SettingsPage")])
    }

    func testPagesRankByFlakyFailuresAndKeepThePageCounts() async throws {
        let service = try TestService()
        try await seed(service)
        let response = await service.send(.GET, "/api/v1/pages?project=Shop&branch=main&days=7")
        XCTAssertEqual(response.status, .ok)
        let list = try response.decode(FlakyPageList.self)
        XCTAssertEqual(list.pages.map(\.page), ["LoginPage", "CatalogPage", "SettingsPage"])
        XCTAssertEqual(list.pages.map(\.flakyTestCount), [1, 0, 0])
        XCTAssertEqual(list.pages.map(\.flakyFailureCount), [1, 0, 0])
        XCTAssertEqual(list.pages.map(\.failureCount), [1, 2, 0])
        XCTAssertEqual(list.pages.map(\.resultCount), [2, 2, 2])
        XCTAssertEqual(list.pages[0].devices, [DeviceCount(device: "iPhone 15", failureCount: 1)])
        // The fields the page list always had still decode as PageList.
        let legacy = try response.decode(PageList.self)
        XCTAssertEqual(legacy.pages.map(\.failingTestCount), [1, 1, 0])
        let otherProject = try await service.send(.GET, "/api/v1/pages?project=Bank").decode(FlakyPageList.self)
        XCTAssertEqual(otherProject.pages, [])
    }

    func testFlakyListsFlakyAndBrokenTestsOfAPage() async throws {
        let service = try TestService()
        try await seed(service)
        let report = try await service.send(.GET, "/api/v1/flaky?page=LoginPage&branch=main&days=14").decode(FlakyReport.self)
        XCTAssertEqual(report.flaky.map(\.name), ["testRetried"])
        let test = try XCTUnwrap(report.flaky.first)
        XCTAssertEqual(test.reasons, [.contradiction])
        XCTAssertEqual(test.contradictingCommits.map(\.commit), ["c1"])
        XCTAssertEqual(test.callSites.map(\.line), [40])
        XCTAssertEqual(test.newestFailure?.screenshot, "/artifacts/\(String(repeating: "b", count: 64)).png")
        XCTAssertEqual(report.broken, [], "testBroken fails on CatalogPage, not on LoginPage")
        let all = try await service.send(.GET, "/api/v1/flaky").decode(FlakyReport.self)
        XCTAssertEqual(all.flaky.map(\.name), ["testRetried"])
        XCTAssertEqual(all.broken.map(\.name), ["testBroken"])
        XCTAssertEqual(all.broken.first?.failCount, 2)
        XCTAssertEqual(all.policy, FlakyPolicy.standard)
        let iPad = try await service.send(.GET, "/api/v1/flaky?device=iPad").decode(FlakyReport.self)
        XCTAssertEqual(iPad.flaky, [])
        let unknown = await service.send(.GET, "/api/v1/flaky?page=NoSuchPage")
        XCTAssertEqual(unknown.status, .ok)
        XCTAssertEqual(try unknown.decode(FlakyReport.self).flaky, [])
    }

    func testBadParametersAreJSON400s() async throws {
        let service = try TestService()
        for target in [
            "/api/v1/flaky?days=abc", "/api/v1/flaky?days=0", "/api/v1/flaky?days=366", "/api/v1/pages?days=1.5",
            "/api/v1/pages?days=-3", "/api/v1/flaky?device=*", "/api/v1/flaky?page=\(String(repeating: "p", count: 5_000))",
            // A parameter given twice is ambiguous: refused, not resolved to the first value.
            "/api/v1/flaky?days=14&days=0", "/api/v1/pages?branch=main&branch=dev", "/api/v1/runs?cursor=a&cursor=b",
            "/api/v1/flaky?page=LoginPage&page=CatalogPage",
            // A suite narrows only the "(no page)" results: with another page or none it is refused, not ignored.
            "/api/v1/flaky?suite=LoginTests", "/api/v1/flaky?page=LoginPage&suite=LoginTests",
        ] {
            let response = await service.send(.GET, target)
            XCTAssertEqual(response.status, .badRequest, target)
            XCTAssertEqual(response.errorCode, "invalid_parameter", target)
        }
    }

    func testReadTokenIsRequiredWhenConfigured() async throws {
        let service = try TestService(readToken: readToken)
        let open = await service.send(.GET, "/api/v1/flaky", token: nil)
        XCTAssertEqual(open.status, .unauthorized)
        let read = await service.send(.GET, "/api/v1/flaky", token: readToken)
        XCTAssertEqual(read.status, .ok)
    }
}
