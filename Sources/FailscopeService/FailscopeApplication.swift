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
        let handlers = Handlers(
            store: store, metrics: metrics,
            authorization: BearerAuthorization(
                uploadTokens: configuration.uploadTokens, readToken: configuration.readToken))

        router.get("/healthz", handlers.health)
        router.get("/metrics", handlers.metricsText)
        router.get("/api/v1/openapi.json", handlers.openAPI)

        router.put("/api/v1/runs/{runId}", maxBodyBytes: configuration.maxRunBodyBytes, handlers.putRun)
        router.post("/api/v1/runs/{runId}/results", maxBodyBytes: configuration.maxBatchBodyBytes, handlers.postResults)
        router.post("/api/v1/runs/{runId}/finish", maxBodyBytes: configuration.maxRunBodyBytes, handlers.finishRun)
        router.put("/api/v1/artifacts/{sha256}", maxBodyBytes: configuration.maxArtifactBytes, handlers.putArtifact)
        router.get("/api/v1/artifacts/{sha256}", handlers.artifactInfo)

        router.get("/api/v1/runs", handlers.listRuns)
        router.get("/api/v1/runs/{runId}", handlers.runDetail)
        router.get("/api/v1/results/{resultId}", handlers.resultDetail)
        router.get("/api/v1/tests/{testId}/history", handlers.testHistory)
        let flaky = FlakyRoutes(store: store, authorization: handlers.authorization)
        router.get("/api/v1/pages", flaky.pages)
        router.get("/api/v1/flaky", flaky.flaky)

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
