import FailscopeModel
import FailscopeStore
import Foundation
import HTTPServer

/// The Failscope HTTP application: every route of `/api/v1/openapi.json`, built by one function so tests
/// drive it in-process (`application.router.respond(to:)`) and `failscope serve` hands the same router to
/// the HTTP transport.
///
/// Routes (the OpenAPI document is the contract): ingest `PUT /api/v1/runs/{runId}`,
/// `POST /api/v1/runs/{runId}/results`, `POST /api/v1/runs/{runId}/finish`, `PUT|GET|HEAD
/// /api/v1/artifacts/{sha256}`; reads `GET /api/v1/runs`, `/api/v1/runs/{runId}`,
/// `/api/v1/results/{resultId}`, `/api/v1/tests/{testId}/history`, `/api/v1/pages`; files
/// `GET /artifacts/{sha256}.png|.json`; `GET /healthz`, `/metrics`, `/api/v1/openapi.json`; the dashboard
/// (`Web/`) at `/` with a strict CSP (``DashboardAssets``) and Chart.js at `/vendor/chart.js`. Errors are always `{"error":{"code","message"}}`.
public struct FailscopeApplication: Sendable {
    public let router: Router
    public let store: FailscopeStore
    public let metrics: ServiceMetrics

    /// Builds the router over `store` with `configuration`.
    public static func build(_ configuration: ServiceConfiguration, store: FailscopeStore) -> FailscopeApplication {
        let metrics = ServiceMetrics()
        var router = Router(accessLog: MultiplexAccessLog([configuration.accessLog, metrics]))
        let handlers = Handlers(store: store, metrics: metrics)
        // Authorization is decided from the request head, before any body byte is read (an unauthorized upload
        // is answered 401 and its connection closed): one check per group of routes.
        let authorization = BearerAuthorization(
            uploadTokens: configuration.uploadTokens, readToken: configuration.readToken)
        let upload: HeadCheck = { try authorization.requireUpload($0) }
        let read: HeadCheck = { try authorization.requireRead($0) }

        router.get("/healthz", handlers.health)
        router.get("/metrics", handlers.metricsText)
        router.get("/api/v1/openapi.json", handlers.openAPI)

        router.put(
            "/api/v1/runs/{runId}", maxBodyBytes: configuration.maxRunBodyBytes, authorize: upload, handlers.putRun)
        router.post(
            "/api/v1/runs/{runId}/results", maxBodyBytes: configuration.maxBatchBodyBytes, authorize: upload,
            handlers.postResults)
        router.post(
            "/api/v1/runs/{runId}/finish", maxBodyBytes: configuration.maxRunBodyBytes, authorize: upload,
            handlers.finishRun)
        router.put(
            "/api/v1/artifacts/{sha256}", maxBodyBytes: configuration.maxArtifactBytes, authorize: upload,
            handlers.putArtifact)
        router.get("/api/v1/artifacts/{sha256}", authorize: read, handlers.artifactInfo)

        router.get("/api/v1/runs", authorize: read, handlers.listRuns)
        router.get("/api/v1/runs/{runId}", authorize: read, handlers.runDetail)
        router.get("/api/v1/results/{resultId}", authorize: read, handlers.resultDetail)
        router.get("/api/v1/tests/{testId}/history", authorize: read, handlers.testHistory)
        let flaky = FlakyRoutes(store: store)
        router.get("/api/v1/pages", authorize: read, flaky.pages)
        router.get("/api/v1/flaky", authorize: read, flaky.flaky)

        let memory = configuration.artifactMemoryBytes
        router.get("/artifacts/{sha256}.png", handlers.artifactFile(.screenshot, memoryBudget: memory))
        router.get("/artifacts/{sha256}.json", handlers.artifactFile(.elementTree, memoryBudget: memory))

        router.get("/vendor/chart.js", DashboardAssets.chartJS())
        if let web = configuration.webDirectory {
            let files = StaticFiles(root: web.path, extraHeaders: DashboardAssets.headers)
            router.get("/{path...}", files.respond)
        } else {
            router.get("/") { _ in
                .text("Failscope service is running. No dashboard (Web/) was found; the API is under /api/v1.\n")
            }
        }
        return FailscopeApplication(router: router, store: store, metrics: metrics)
    }
}
