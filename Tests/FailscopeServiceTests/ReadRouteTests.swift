import FailscopeModel
import FailscopeTesting
import FailscopeService
import FailscopeStore
import Foundation
import HTTPServer
import XCTest

final class ReadRouteTests: XCTestCase {
    private func seeded() async throws -> TestService {
        let service = try TestService()
        let png = TestPNG.make(width: 4, height: 3)
        let sha = SHA256.hex(of: png)
        _ = await service.send(.PUT, "/api/v1/artifacts/\(sha)", contentType: "image/png", body: Data(png))
        for (index, branch) in ["main", "dev", "main"].enumerated() {
            var run = sampleRun(id: "run-\(index)", branch: branch)
            run.startedAt = referenceDate.addingTimeInterval(Double(index) * 60)
            try await service.send(.PUT, "/api/v1/runs/run-\(index)", json: run).assertStatus(.created)
            try await service.send(
                .POST, "/api/v1/runs/run-\(index)/results",
                json: ResultBatch(results: [
                    failingResult(screenshot: sha), TestResult(suite: "S", name: "ok", status: .passed),
                ])
            ).assertStatus(.ok)
        }
        return service
    }

    func testRunsListFiltersPaginatesAndValidatesParameters() async throws {
        let service = try await seeded()
        let page = try await service.send(.GET, "/api/v1/runs?limit=2").decode(RunList.self)
        XCTAssertEqual(page.runs.map(\.run.id), ["run-2", "run-1"])
        let cursor = try XCTUnwrap(page.nextCursor)
        let next = try await service.send(.GET, "/api/v1/runs?limit=2&cursor=\(cursor)").decode(RunList.self)
        XCTAssertEqual(next.runs.map(\.run.id), ["run-0"])
        // An empty filter is no filter, as on every list.
        let unfiltered = try await service.send(.GET, "/api/v1/runs?project=&branch=").decode(RunList.self)
        XCTAssertEqual(unfiltered.runs.map(\.run.id), ["run-2", "run-1", "run-0"])
        let main = try await service.send(.GET, "/api/v1/runs?project=Shop&branch=main").decode(RunList.self)
        XCTAssertEqual(main.runs.map(\.run.id), ["run-2", "run-0"])
        XCTAssertEqual(main.runs[0].counts.total, 2)
        let none = try await service.send(.GET, "/api/v1/runs?status=passed").decode(RunList.self)
        XCTAssertEqual(none.runs, [])
        let badStatus = await service.send(.GET, "/api/v1/runs?status=green")
        XCTAssertEqual(badStatus.errorCode, "invalid_parameter")
        let badLimit = await service.send(.GET, "/api/v1/runs?limit=100000")
        XCTAssertEqual(badLimit.status, .badRequest)
        let badCursor = await service.send(.GET, "/api/v1/runs?cursor=%27%20OR%201=1--")
        XCTAssertEqual(badCursor.status, .badRequest)
        XCTAssertEqual(badCursor.errorCode, "invalid_parameter")
        // A cursor is accepted only by the list that returned it, exactly as returned: not another list's,
        // not a forged one of the right shape.
        func base64URL(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        }
        let detail = try await service.send(.GET, "/api/v1/runs/run-2").decode(RunDetail.self)
        let failing = try XCTUnwrap(detail.pages.first?.callSites.first?.results.first)
        let historyPage = try await service.send(.GET, "/api/v1/tests/\(failing.testId)/history?limit=1")
            .decode(TestHistory.self)
        let historyCursor = try XCTUnwrap(historyPage.nextCursor)
        let secondPage = await service.send(
            .GET, "/api/v1/tests/\(failing.testId)/history?limit=1&cursor=\(historyCursor)")
        XCTAssertEqual(try secondPage.decode(TestHistory.self).entries.count, 1)
        for target in [
            "/api/v1/runs?cursor=\(historyCursor)", "/api/v1/tests/\(failing.testId)/history?cursor=\(cursor)",
            "/api/v1/runs?cursor=\(base64URL("r:-1:run-1"))", "/api/v1/runs?cursor=\(base64URL("r:+17:run-1"))",
            "/api/v1/runs?cursor=\(base64URL("r:17:no/such id"))", "/api/v1/runs?cursor=\(base64URL("17:run-1"))",
            "/api/v1/tests/\(failing.testId)/history?cursor=\(base64URL("h:17:abc"))",
            "/api/v1/tests/\(failing.testId)/history?cursor=\(base64URL("h:17:0593"))", "/api/v1/runs?cursor=\(cursor)=",
        ] {
            let response = await service.send(.GET, target)
            XCTAssertEqual(response.status, .badRequest, target)
            XCTAssertEqual(response.errorCode, "invalid_parameter", target)
        }
    }

    func testRunResultHistoryAndPages() async throws {
        let service = try await seeded()
        let missing = await service.send(.GET, "/api/v1/runs/nope")
        XCTAssertEqual(missing.errorCode, "run_not_found")
        let detail = try await service.send(.GET, "/api/v1/runs/run-2").decode(RunDetail.self)
        XCTAssertEqual(detail.pages.map(\.page), ["LoginPage", nil])
        let failing = try XCTUnwrap(detail.pages.first?.callSites.first?.results.first)
        XCTAssertEqual(failing.callSite?.description, "LoginTests.swift:40")
        // The run view's first request: the failing results only, the run's counts still the whole run's.
        let failingOnly = try await service.send(.GET, "/api/v1/runs/run-2?status=failed%2Cerror")
            .decode(RunDetail.self)
        XCTAssertEqual(failingOnly.pages.map(\.page), ["LoginPage"])
        XCTAssertEqual(failingOnly.pages.flatMap(\.callSites).flatMap(\.results).map(\.id), [failing.id])
        XCTAssertEqual(failingOnly.summary.counts.total, 2)
        let passedOnly = try await service.send(.GET, "/api/v1/runs/run-2?status=passed").decode(RunDetail.self)
        XCTAssertEqual(passedOnly.pages.flatMap(\.callSites).flatMap(\.results).map(\.name), ["ok"])
        for bad in ["green", "failed,", ""] {
            let response = await service.send(.GET, "/api/v1/runs/run-2?status=\(bad)")
            XCTAssertEqual(response.errorCode, "invalid_parameter", bad)
        }

        let result = try await service.send(.GET, "/api/v1/results/\(failing.id)").decode(ResultDetail.self)
        XCTAssertEqual(result.failures.first?.message, "Expected the error label")
        XCTAssertEqual(result.artifacts.first?.available, true)
        XCTAssertEqual(result.artifacts.first?.url, "/artifacts/\(failing.screenshot!).png")
        XCTAssertEqual(result.elementFrame?.width, 361)
        for bad in ["/api/v1/results/0", "/api/v1/results/abc", "/api/v1/results/99999999999999999999"] {
            let response = await service.send(.GET, bad)
            XCTAssertEqual(response.status, .notFound, bad)
        }

        let history = try await service.send(.GET, "/api/v1/tests/\(failing.testId)/history").decode(TestHistory.self)
        XCTAssertEqual(history.entries.map(\.result.runId), ["run-2", "run-1", "run-0"])
        XCTAssertEqual(history.entries.map(\.branch), ["main", "dev", "main"])
        let unknown = await service.send(.GET, "/api/v1/tests/\(String(repeating: "f", count: 32))/history")
        XCTAssertEqual(unknown.errorCode, "test_not_found")

        // Pages count over a window ending now; the seeded runs are from 2025, so widen it.
        let pages = await service.send(.GET, "/api/v1/pages?days=365")
        XCTAssertEqual(pages.status, .ok)
        XCTAssertNotNil(try pages.decode(PageList.self))
        let badDays = await service.send(.GET, "/api/v1/pages?days=0")
        XCTAssertEqual(badDays.status, .badRequest)
    }

    func testReadTokenWhenConfigured() async throws {
        let service = try TestService(readToken: readToken)
        let open = await service.send(.GET, "/api/v1/runs", token: nil)
        XCTAssertEqual(open.status, .unauthorized)
        let withRead = await service.send(.GET, "/api/v1/runs", token: readToken)
        XCTAssertEqual(withRead.status, .ok)
        let withUpload = await service.send(.GET, "/api/v1/runs", token: uploadToken)
        XCTAssertEqual(withUpload.status, .ok)
        let readCannotWrite = try await service.send(.PUT, "/api/v1/runs/run-1", json: sampleRun(), token: readToken)
        XCTAssertEqual(readCannotWrite.status, .unauthorized)
        let health = await service.send(.GET, "/healthz", token: nil)
        XCTAssertEqual(health.status, .ok)
    }

    func testStoreFailuresBecomeGeneric500s() async throws {
        let service = try TestService()
        service.store.close()
        let response = await service.send(.GET, "/api/v1/runs")
        XCTAssertEqual(response.status, .internalServerError)
        XCTAssertEqual(response.errorCode, "internal_error")
        XCTAssertFalse(response.bodyText.contains("SELECT"))
        XCTAssertFalse(response.bodyText.contains("SQLite"))
        let health = await service.send(.GET, "/healthz")
        XCTAssertEqual(health.status, .serviceUnavailable)
    }
}
