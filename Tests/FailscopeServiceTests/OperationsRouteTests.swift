import FailscopeModel
import FailscopeService
import FailscopeTesting
import Foundation
import HTTPServer
import XCTest

final class OperationsRouteTests: XCTestCase {
    func testHealthAndMetrics() async throws {
        let service = try TestService()
        let health = await service.send(.GET, "/healthz", token: nil)
        XCTAssertEqual(health.bodyText, #"{"status":"ok"}"#)
        try await service.send(.PUT, "/api/v1/runs/run-1", json: sampleRun()).assertStatus(.created)
        try await service.send(.POST, "/api/v1/runs/run-1/results", json: ResultBatch(results: [failingResult()]))
            .assertStatus(.ok)
        let png = TestPNG.make(width: 3, height: 3)
        _ = await service.send(
            .PUT, "/api/v1/artifacts/\(SHA256.hex(of: png))", contentType: "image/png", body: Data(png))
        _ = await service.send(.GET, "/api/v1/runs/missing")
        let metrics = await service.send(.GET, "/metrics", token: nil)
        XCTAssertEqual(metrics.headers["Content-Type"], "text/plain; version=0.0.4; charset=utf-8")
        let text = metrics.bodyText
        XCTAssertTrue(
            text.contains(#"failscope_http_requests_total{method="PUT",route="/api/v1/runs/{runId}",status="201"} 1"#),
            text)
        XCTAssertTrue(
            text.contains(#"failscope_http_requests_total{method="GET",route="/api/v1/runs/{runId}",status="404"} 1"#))
        XCTAssertTrue(text.contains(#"failscope_http_request_duration_seconds_count{route="/healthz"} 1"#))
        XCTAssertTrue(text.contains("failscope_results_ingested_total 1\n"))
        XCTAssertTrue(text.contains("failscope_artifact_bytes_stored_total \(png.count)\n"))
        XCTAssertTrue(text.contains("failscope_artifact_bytes \(png.count)\n"))
        let size = try XCTUnwrap(text.split(separator: "\n").first { $0.hasPrefix("failscope_database_bytes ") })
        XCTAssertGreaterThan(Int(size.split(separator: " ")[1]) ?? 0, 0)
    }

    /// Any token is a method to libmicrohttpd; made-up ones share one label, so a client cannot grow the
    /// metrics page without bound.
    func testMadeUpMethodsShareOneMetricsLabel() async throws {
        let service = try TestService()
        for index in 0..<20 {
            _ = await service.send(HTTPMethod(rawValue: "M\(index)" + String(repeating: "X", count: 300)), "/healthz")
        }
        _ = await service.send(.PATCH, "/healthz")
        let metrics = await service.send(.GET, "/metrics", token: nil)
        let text = metrics.bodyText
        XCTAssertEqual(metrics.status, .ok, text)
        XCTAssertTrue(
            text.contains(#"failscope_http_requests_total{method="other",route="unmatched",status="405"} 20"#), text)
        XCTAssertTrue(text.contains(#"failscope_http_requests_total{method="PATCH",route="unmatched",status="405"} 1"#))
        XCTAssertFalse(text.contains("XXX"))
    }

    func testOpenAPIDocumentDescribesEveryRoute() async throws {
        let service = try TestService()
        let response = await service.send(.GET, "/api/v1/openapi.json", token: nil)
        XCTAssertEqual(response.status, .ok)
        let document = try XCTUnwrap(JSONSerialization.jsonObject(with: try response.bodyBytes()) as? [String: Any])
        XCTAssertEqual(document["openapi"] as? String, "3.0.3")
        let paths = try XCTUnwrap(document["paths"] as? [String: [String: Any]])
        let expected: [String: Set<String>] = [
            "/healthz": ["get"], "/metrics": ["get"], "/api/v1/openapi.json": ["get"], "/api/v1/runs": ["get"],
            "/api/v1/runs/{runId}": ["get", "put"], "/api/v1/runs/{runId}/results": ["post"],
            "/api/v1/runs/{runId}/finish": ["post"], "/api/v1/runs/{runId}/compare": ["get"],
            "/api/v1/artifacts/{sha256}": ["get", "put"],
            "/api/v1/results/{resultId}": ["get"], "/api/v1/tests/{testId}/history": ["get"], "/api/v1/pages": ["get"],
            "/api/v1/flaky": ["get"], "/api/v1/quarantine": ["get", "post"],
            "/api/v1/quarantine/{entryId}": ["get", "put"], "/api/v1/quarantine/{entryId}/lift": ["post"],
            "/api/v1/webhooks": ["get", "post"], "/api/v1/webhooks/{webhookId}": ["delete"],
            "/api/v1/webhooks/{webhookId}/deliveries": ["get"],
            "/api/v1/errors": ["get"], "/api/v1/runs/{runId}/errors": ["get"],
            "/api/v1/durations": ["get"], "/api/v1/tests/{testId}/durations": ["get"],
            "/api/v1/durations/actions": ["get"], "/api/v1/durations/actions/trend": ["get"],
            "/artifacts/{sha256}.png": ["get"], "/artifacts/{sha256}.json": ["get"],
        ]
        XCTAssertEqual(Set(paths.keys), Set(expected.keys))
        for (path, methods) in expected {
            XCTAssertEqual(Set(paths[path]?.keys.map { $0 } ?? []), methods, path)
        }
        // Every $ref points at a defined schema.
        let schemas = try XCTUnwrap((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let text = response.bodyText
        let refs = text.components(separatedBy: "#/components/schemas/").dropFirst().map { $0.prefix { $0 != "\"" } }
        for name in refs { XCTAssertNotNil(schemas[String(name)], "undefined schema \(name)") }
    }

    func testDashboardFilesAreServedAndUnknownPathsAreJSON404s() async throws {
        let web = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: web, withIntermediateDirectories: true)
        try Data("<!doctype html><title>Failscope</title>".utf8).write(to: web.appendingPathComponent("index.html"))
        defer { try? FileManager.default.removeItem(at: web) }
        let service = try TestService(webDirectory: web)
        let index = await service.send(.GET, "/", token: nil)
        XCTAssertEqual(index.status, .ok)
        XCTAssertTrue(index.bodyText.contains("<title>Failscope</title>"))
        XCTAssertEqual(index.headers["X-Content-Type-Options"], "nosniff")
        let missing = await service.send(.GET, "/nope.js", token: nil)
        XCTAssertEqual(missing.status, .notFound)
        XCTAssertEqual(missing.errorCode, "not_found")
        let escape = await service.send(.GET, "/%2e%2e/%2e%2e/etc/passwd", token: nil)
        XCTAssertTrue([400, 404].contains(escape.status.code))

        let bare = try TestService()
        let notice = await bare.send(.GET, "/", token: nil)
        XCTAssertTrue(notice.bodyText.contains("No dashboard"))
    }

    func testWebDirectoryLookupOrder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent(
            "failscope-layout-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let bin = root.appendingPathComponent("checkout/.build/debug")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: root.appendingPathComponent("checkout/Web"), withIntermediateDirectories: true)
        try Data().write(to: root.appendingPathComponent("checkout/Package.swift"))
        let executable = bin.appendingPathComponent("failscope")
        let elsewhere = root.appendingPathComponent("elsewhere")
        XCTAssertEqual(
            try WebDirectoryLocator.locate(explicit: nil, executable: executable, workingDirectory: elsewhere)?.path,
            root.appendingPathComponent("checkout/Web").path)
        try FileManager.default.createDirectory(
            at: bin.appendingPathComponent("Web"), withIntermediateDirectories: true)
        XCTAssertEqual(
            try WebDirectoryLocator.locate(explicit: nil, executable: executable, workingDirectory: elsewhere)?.path,
            bin.appendingPathComponent("Web").path, "beside the binary wins over the checkout")
        XCTAssertThrowsError(try WebDirectoryLocator.locate(explicit: elsewhere.path))
        XCTAssertNil(
            try WebDirectoryLocator.locate(
                explicit: nil, executable: elsewhere.appendingPathComponent("x"), workingDirectory: elsewhere))
    }
}
