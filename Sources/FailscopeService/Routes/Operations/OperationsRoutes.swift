import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting

/// `GET /healthz`, `GET /metrics` and `GET /api/v1/openapi.json`: what an operator and a client's tooling read,
/// open without a token.
struct OperationsRoutes: Sendable {
    let store: FailscopeStore
    let metrics: ServiceMetrics

    func health(_ request: Request) throws -> Response {
        do {
            try store.checkHealth()
        } catch {
            throw ServiceError(
                .serviceUnavailable, code: "unhealthy", message: "The database is not answering.",
                headers: ["Retry-After": "5"])
        }
        // Still 200: reads are served. Writes are answered 507 until space is freed.
        if store.isStorageFull {
            return try APIResponse.json([
                "status": "degraded", "storage": "full",
                "message": "The disk holding the data folder is full: uploads are refused (507); reads work.",
            ])
        }
        return try APIResponse.json(["status": "ok"])
    }

    func metricsText(_ request: Request) throws -> Response {
        let text = metrics.render(
            artifactBytes: (try? store.artifactByteCount()) ?? 0, databaseBytes: store.databaseByteCount(),
            storageFull: store.isStorageFull, freeStorageBytes: store.freeStorageBytes)
        return .bytes(Data(text.utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
    }

    func openAPI(_ request: Request) throws -> Response {
        .bytes(OpenAPIDocument.data, contentType: "application/json")
    }
}
