import FailscopeModel
import FailscopeTesting
import Foundation
import HTTPServer
import XCTest

/// The quarantine routes: who may change it (an upload token or the admin token, recorded as the change's role),
/// the 4xx answers to bad requests, and the marks on the run and result pages.
final class QuarantineRouteTests: XCTestCase {
    private let adminToken = "admin-secret-1"
    private var today: String { QuarantineEntry.dayText(Date()) }

    private func request(name: String = "testWrongPassword", reason: String = "flaky wait") -> QuarantineRequest {
        QuarantineRequest(
            project: "Shop", suite: "LoginTests", name: name, owner: "ana", reason: reason, expires: today)
    }

    /// A service with run-1 of "Shop" (one failing test) stored.
    private func service(readToken: String? = nil) async throws -> TestService {
        let service = try TestService(readToken: readToken, adminToken: adminToken)
        var run = sampleRun()
        run.startedAt = Date().addingTimeInterval(-60)
        let created = try await service.send(.PUT, "/api/v1/runs/run-1", json: run)
        XCTAssertEqual(created.status, .created)
        return service
    }

    func testWritesNeedAnUploadOrTheAdminTokenAndRecordItsRole() async throws {
        let service = try await service(readToken: readToken)
        for token in [nil, "wrong", readToken] {
            let response = try await service.send(.POST, "/api/v1/quarantine", json: request(), token: token)
            XCTAssertEqual(response.status, .unauthorized, "\(token ?? "none")")
        }
        let added = try await service.send(.POST, "/api/v1/quarantine", json: request(), token: adminToken)
        XCTAssertEqual(added.status, .created, added.bodyText)
        let entry = try added.decode(QuarantineEntry.self)
        XCTAssertEqual(entry.changes.map(\.role), [.admin])
        XCTAssertEqual(entry.changes.map(\.actor), ["ana"], "the owner when the request names no actor")
        let lifted = try await service.send(
            .POST, "/api/v1/quarantine/\(entry.id)/lift", json: QuarantineLift(why: "fixed", actor: "bo"))
        XCTAssertEqual(try lifted.decode(QuarantineEntry.self).changes.map(\.role), [.admin, .upload])
        // The admin token reads; it does not upload.
        let adminRead = await service.send(.GET, "/api/v1/quarantine", token: adminToken)
        XCTAssertEqual(adminRead.status, .ok)
        let anonymousRead = await service.send(.GET, "/api/v1/quarantine", token: nil)
        XCTAssertEqual(anonymousRead.status, .unauthorized)
        let adminUpload = try await service.send(
            .PUT, "/api/v1/runs/run-2", json: sampleRun(id: "run-2"), token: adminToken)
        XCTAssertEqual(adminUpload.status, .unauthorized)
        XCTAssertEqual(try service.store.quarantine(.init(includeEnded: true)).entries.count, 1)
    }

    func testBadRequestsAreClearJSONErrors() async throws {
        let service = try await service()
        let cases: [(HTTPMethod, String, Data, HTTPStatus, String)] = [
            (.POST, "/api/v1/quarantine", Data("{".utf8), .badRequest, "invalid_json"),
            (
                .POST, "/api/v1/quarantine", try WireCoding.encoder().encode(request(reason: "two\nlines")),
                .unprocessableContent, "validation_failed"
            ),
            (
                .POST, "/api/v1/quarantine",
                try WireCoding.encoder().encode(request(reason: String(repeating: "x", count: 1_001))),
                .unprocessableContent, "validation_failed"
            ),
            (
                .POST, "/api/v1/quarantine",
                try WireCoding.encoder().encode(
                    QuarantineRequest(
                        project: "Bank", suite: "S", name: "n", owner: "o", reason: "r", expires: today)),
                .notFound, "project_not_found"
            ),
            (
                .POST, "/api/v1/quarantine",
                try WireCoding.encoder().encode(
                    QuarantineRequest(
                        project: "Shop", suite: "S", name: "n", owner: "o", reason: "r", expires: "2001-01-01")),
                .unprocessableContent, "validation_failed"
            ),
            (
                .PUT, "/api/v1/quarantine/7",
                try WireCoding.encoder().encode(QuarantineEdit(owner: "o", reason: "r", expires: today, why: "w")),
                .notFound, "quarantine_not_found"
            ),
            (
                .POST, "/api/v1/quarantine/x/lift", try WireCoding.encoder().encode(QuarantineLift(why: "w")),
                .notFound, "quarantine_not_found"
            ),
            (
                .POST, "/api/v1/quarantine",
                Data(#"{"project":"Shop","suite":"S","name":"n","owner":"o","reason":"r","expires":"\#(today)","devcie":"x"}"#.utf8),
                .badRequest, "invalid_json"
            ),
            (.GET, "/api/v1/quarantine?state=expired", Data(), .badRequest, "invalid_parameter"),
            (.GET, "/api/v1/quarantine/0", Data(), .notFound, "quarantine_not_found"),
        ]
        for (method, target, body, status, code) in cases {
            let response = await service.send(method, target, body: body)
            XCTAssertEqual(response.status, status, "\(method) \(target): \(response.bodyText)")
            XCTAssertEqual(response.errorCode, code, "\(method) \(target): \(response.bodyText)")
        }
        let first = try await service.send(.POST, "/api/v1/quarantine", json: request())
        XCTAssertEqual(first.status, .created)
        let again = try await service.send(.POST, "/api/v1/quarantine", json: request())
        XCTAssertEqual(again.status, .conflict, again.bodyText)
        XCTAssertEqual(try service.store.quarantine(.init(includeEnded: true)).entries.count, 1)
    }

    func testRunAndResultPagesMarkQuarantinedFailures() async throws {
        let service = try await service()
        let quarantined = try await service.send(.POST, "/api/v1/quarantine", json: request())
        XCTAssertEqual(quarantined.status, .created)
        var failing = failingResult()
        failing.startedAt = Date()
        let stored = try await service.send(
            .POST, "/api/v1/runs/run-1/results",
            json: ResultBatch(results: [failing, failingResult(name: "testOther")])
        )
        XCTAssertEqual(stored.status, .ok)
        let finished = try await service.send(.POST, "/api/v1/runs/run-1/finish", json: RunFinish(finishedAt: Date()))
        XCTAssertEqual(finished.status, .ok)
        let detail = try await service.send(.GET, "/api/v1/runs/run-1").decode(RunDetail.self)
        XCTAssertEqual(detail.summary.counts.failingTests, 2)
        XCTAssertEqual(detail.summary.counts.quarantinedFailingTests, 1)
        XCTAssertEqual(detail.summary.statusWithQuarantine, .failed)
        let results = detail.pages.flatMap(\.callSites).flatMap(\.results)
        XCTAssertEqual(
            results.map { "\($0.name):\($0.quarantined)" }.sorted(), ["testOther:false", "testWrongPassword:true"])
        let marked = try XCTUnwrap(results.first(where: \.quarantined))
        let result = try await service.send(.GET, "/api/v1/results/\(marked.id)").decode(ResultDetail.self)
        XCTAssertTrue(result.result.quarantined)
        XCTAssertEqual(result.run.counts.quarantinedFailingTests, 1)
        let list = try await service.send(.GET, "/api/v1/runs").decode(RunList.self)
        XCTAssertEqual(list.runs.map(\.counts.quarantinedFailingTests), [1])
    }
}
