import FailscopeModel
import FailscopeService
import FailscopeStore
import Foundation
import HTTPServer
import XCTest

final class IngestRouteTests: XCTestCase {
    func testPutRunCreatesThenUpdatesIdempotently() async throws {
        let service = try TestService()
        let created = try await service.send(.PUT, "/api/v1/runs/run-1", json: sampleRun())
        XCTAssertEqual(created.status, .created, created.bodyText)
        XCTAssertEqual(try created.decode(RunSummary.self).status, .incomplete)
        XCTAssertEqual(created.headers["Content-Type"], "application/json")
        let again = try await service.send(.PUT, "/api/v1/runs/run-1", json: sampleRun())
        XCTAssertEqual(again.status, .ok)
        XCTAssertEqual(try service.store.runs(.init()).runs.count, 1)
    }

    func testWritesNeedAValidUploadToken() async throws {
        let service = try TestService()
        let missing = try await service.send(.PUT, "/api/v1/runs/run-1", json: sampleRun(), token: nil)
        XCTAssertEqual(missing.status, .unauthorized)
        XCTAssertEqual(missing.errorCode, "unauthorized")
        XCTAssertEqual(missing.headers["WWW-Authenticate"], "Bearer realm=\"failscope\"")
        let wrong = try await service.send(.PUT, "/api/v1/runs/run-1", json: sampleRun(), token: "upload-secret-2")
        XCTAssertEqual(wrong.errorCode, "invalid_token")
        let prefix = try await service.send(.PUT, "/api/v1/runs/run-1", json: sampleRun(), token: "upload-secret-")
        XCTAssertEqual(prefix.status, .unauthorized)
        var basic = HTTPHeaders()
        basic["Authorization"] = "Basic dXNlcjpwYXNz"
        let wrongScheme = await service.send(
            .PUT, "/api/v1/runs/run-1", token: nil, body: try WireCoding.encoder().encode(sampleRun()), headers: basic)
        XCTAssertEqual(wrongScheme.status, .unauthorized)
        XCTAssertTrue(try service.store.runs(.init()).runs.isEmpty, "nothing stored without a token")

        let closed = try TestService(uploadTokens: [])
        let refused = try await closed.send(.PUT, "/api/v1/runs/run-1", json: sampleRun())
        XCTAssertEqual(refused.errorCode, "uploads_disabled")
    }

    func testMalformedBodiesGetJSONErrorsWithoutEchoingInput() async throws {
        let service = try TestService()
        let invalid = await service.send(.PUT, "/api/v1/runs/run-1", body: Data("{\"id\": \"run-1\", <script>".utf8))
        XCTAssertEqual(invalid.status, .badRequest)
        XCTAssertEqual(invalid.errorCode, "invalid_json")
        XCTAssertFalse(invalid.bodyText.contains("<script>"))
        let wrongType = await service.send(
            .PUT, "/api/v1/runs/run-1",
            body: Data(#"{"id":"run-1","project":42,"source":"reporter","startedAt":"2026-01-01T00:00:00Z"}"#.utf8))
        XCTAssertEqual(wrongType.status, .badRequest)
        XCTAssertTrue(wrongType.bodyText.contains("project"), wrongType.bodyText)
        let badDate = await service.send(
            .PUT, "/api/v1/runs/run-1",
            body: Data(#"{"id":"run-1","project":"Shop","source":"reporter","startedAt":"yesterday"}"#.utf8))
        XCTAssertEqual(badDate.status, .badRequest)
        XCTAssertEqual(
            badDate.errorMessage, "Invalid value at 'startedAt': expected an ISO 8601 date (2026-11-30T04:27:58Z).")
        let mismatch = try await service.send(.PUT, "/api/v1/runs/run-2", json: sampleRun())
        XCTAssertEqual(mismatch.status, .unprocessableContent)
        XCTAssertEqual(mismatch.errorCode, "id_mismatch")
        let badID = try await service.send(.PUT, "/api/v1/runs/a%20b", json: sampleRun(id: "a b"))
        XCTAssertEqual(badID.errorCode, "validation_failed")
        let xml = await service.send(
            .PUT, "/api/v1/runs/run-1", contentType: "application/xml", body: Data("<run/>".utf8))
        XCTAssertEqual(xml.status, .unsupportedMediaType)
        let oversize = await service.send(.PUT, "/api/v1/runs/run-1", body: Data(repeating: 0x20, count: 5_000))
        XCTAssertEqual(oversize.status, .contentTooLarge)
        XCTAssertEqual(oversize.errorCode, "body_too_large")
        try await service.send(.PUT, "/api/v1/runs/run-1", json: sampleRun()).assertStatus(.created)
        let moved = try await service.send(.PUT, "/api/v1/runs/run-1", json: sampleRun(project: "Bank"))
        XCTAssertEqual(moved.status, .conflict)
    }

    func testResultBatchesAreIdempotentAndValidated() async throws {
        let service = try TestService()
        let unknown = try await service.send(
            .POST, "/api/v1/runs/nope/results", json: ResultBatch(results: [failingResult()]))
        XCTAssertEqual(unknown.status, .notFound)
        XCTAssertEqual(unknown.errorCode, "run_not_found")
        try await service.send(.PUT, "/api/v1/runs/run-1", json: sampleRun()).assertStatus(.created)
        let batch = ResultBatch(results: [failingResult(), failingResult(name: "testOther")])
        let first = try await service.send(.POST, "/api/v1/runs/run-1/results", json: batch)
        XCTAssertEqual(try first.decode(FailscopeStore.BatchOutcome.self), .init(inserted: 2, duplicates: 0))
        let second = try await service.send(.POST, "/api/v1/runs/run-1/results", json: batch)
        XCTAssertEqual(try second.decode(FailscopeStore.BatchOutcome.self), .init(inserted: 0, duplicates: 2))
        var bad = failingResult(name: "testThird")
        bad.attempt = 0
        let invalid = try await service.send(.POST, "/api/v1/runs/run-1/results", json: ResultBatch(results: [bad]))
        XCTAssertEqual(invalid.status, .unprocessableContent)
        XCTAssertTrue(invalid.bodyText.contains("results[0].attempt"))
        let missingField = await service.send(
            .POST, "/api/v1/runs/run-1/results", body: Data(#"{"results":[{"suite":"S","name":"n"}]}"#.utf8))
        XCTAssertEqual(missingField.status, .badRequest)
        let huge = ResultBatch(
            results: (0..<300).map { index in
                var result = failingResult(name: "t\(index)")
                result.systemOut = String(repeating: "x", count: 1_000)
                return result
            })
        let oversize = try await service.send(.POST, "/api/v1/runs/run-1/results", json: huge)
        XCTAssertEqual(oversize.status, .contentTooLarge)
        XCTAssertEqual(try service.store.runSummary("run-1")?.counts.total, 2)
        let finished = try await service.send(
            .POST, "/api/v1/runs/run-1/finish", json: RunFinish(finishedAt: referenceDate.addingTimeInterval(60)))
        XCTAssertEqual(try finished.decode(RunSummary.self).status, .failed)
        let finishUnknown = try await service.send(
            .POST, "/api/v1/runs/nope/finish", json: RunFinish(finishedAt: referenceDate))
        XCTAssertEqual(finishUnknown.status, .notFound)
    }

    func testSQLInjectionAndHTMLPayloadsAreStoredAndReturnedVerbatim() async throws {
        let service = try TestService()
        let injection = "Robert'); DROP TABLE results;--"
        let html = "<img src=x onerror=alert(1)>&amp;</script>"
        var run = sampleRun()
        run.branch = injection
        run.commit = html
        try await service.send(.PUT, "/api/v1/runs/run-1", json: run).assertStatus(.created)
        var result = failingResult(name: injection)
        result.failures[0].message = html
        result.failures[0].page = html
        try await service.send(.POST, "/api/v1/runs/run-1/results", json: ResultBatch(results: [result])).assertStatus(
            .ok)
        let detail = try await service.send(.GET, "/api/v1/runs/run-1").decode(RunDetail.self)
        XCTAssertEqual(detail.summary.run.branch, injection)
        XCTAssertEqual(detail.summary.run.commit, html)
        XCTAssertEqual(detail.pages.first?.page, html)
        let summary = try XCTUnwrap(detail.pages.first?.callSites.first?.results.first)
        XCTAssertEqual(summary.name, injection)
        XCTAssertEqual(summary.message, html)
        let list = await service.send(
            .GET, "/api/v1/runs?branch=\(injection.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)")
        XCTAssertEqual(try list.decode(RunList.self).runs.map(\.run.id), ["run-1"])
    }
}

extension Response {
    func assertStatus(_ expected: HTTPStatus, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(status, expected, bodyText, file: file, line: line)
    }
}
