import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting

/// `GET /healthz`, `GET /metrics` and `GET /api/v1/openapi.json`: what an operator and a client's tooling read,
/// open without a token.
struct OperationsRoutes: Sendable {
    let store: FailscopeStore
    let metrics: ServiceMetrics

    /// `GET /healthz`: 200 when the database and the artifact storage answer; else 503 `unhealthy` whose message
    /// names the dependency that fails (and, for the artifact storage, why: unreachable, bucket missing,
    /// credentials refused; never the credentials).
    func health(_ request: Request) throws -> Response {
        do {
            try store.checkHealth()
        } catch {
            throw ServiceError(
                .serviceUnavailable, code: "unhealthy", message: "The database is not answering.",
                headers: ["Retry-After": "5"])
        }
        do {
            try store.artifacts.checkHealth()
        } catch {
            throw ServiceError(
                .serviceUnavailable, code: "unhealthy",
                message: "The artifact storage \(store.artifacts.location) is not answering: \(error).",
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
            storageFull: store.isStorageFull, freeStorageBytes: store.freeStorageBytes,
            dependenciesUp: [
                ("database", (try? store.checkHealth()) != nil),
                ("artifact_storage", (try? store.artifacts.checkHealth()) != nil),
            ])
        return .bytes(Data(text.utf8), contentType: "text/plain; version=0.0.4; charset=utf-8")
    }

    func openAPI(_ request: Request) throws -> Response {
        .bytes(OpenAPIDocument.data, contentType: "application/json")
    }
}
