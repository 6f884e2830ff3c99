import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting

/// The Failscope HTTP application: every route of `/api/v1/openapi.json`, built by one function so tests
/// drive it in-process (`application.router.respond(to:)`) and `failscope serve` hands the same router to
/// the HTTP transport.
///
/// Routes (the OpenAPI document is the contract), by area under `Routes/`: operations `GET /healthz`, `/metrics`,
/// `/api/v1/openapi.json`; ingest `PUT /api/v1/runs/{runId}`, `POST /api/v1/runs/{runId}/results`,
/// `POST /api/v1/runs/{runId}/finish`; artifacts `PUT|GET|HEAD /api/v1/artifacts/{sha256}` and
/// `GET /artifacts/{sha256}.png|.json`; reads `GET /api/v1/runs`, `/api/v1/runs/{runId}`,
/// `/api/v1/results/{resultId}`, `/api/v1/tests/{testId}/history`; flaky `GET /api/v1/pages`, `/api/v1/flaky`;
/// quarantine `GET|POST /api/v1/quarantine`, `GET|PUT /api/v1/quarantine/{entryId}`,
/// `POST /api/v1/quarantine/{entryId}/lift` (writes behind an upload or the admin token); the
/// dashboard (`Web/`) at `/` with a strict CSP (``DashboardAssets``) and Chart.js at `/vendor/chart.js`. Writes are
/// one route group behind the upload token, API reads one behind the read token (``BearerAuthorization``). Errors
/// are always `{"error":{"code","message"}}`.
public struct FailscopeApplication: Sendable {
    public let router: Router
    public let store: FailscopeStore
    public let metrics: ServiceMetrics
    /// The webhook delivery worker; the finish routes feed it, ``FailscopeServer`` starts and stops it.
    public let webhooks: WebhookDispatcher

    /// Builds the router over `store` with `configuration`.
    public static func build(_ configuration: ServiceConfiguration, store: FailscopeStore) -> FailscopeApplication {
        let metrics = ServiceMetrics()
        var router = Router(accessLog: MultiplexAccessLog([configuration.accessLog, metrics]))
        // Authorization is one head middleware per group of routes, decided from the request head before any body
        // byte is read (an unauthorized upload is answered 401 and its connection closed).
        let authorization = BearerAuthorization(
            uploadTokens: configuration.uploadTokens, readToken: configuration.readToken,
            adminToken: configuration.adminToken)

        let operations = OperationsRoutes(store: store, metrics: metrics)
        router.get("/healthz", operations.health)
        router.get("/metrics", operations.metricsText)
        router.get("/api/v1/openapi.json", operations.openAPI)

        let webhooks = WebhookDispatcher(
            store: store, settings: configuration.webhooks, metrics: metrics, log: configuration.webhookLog)
        let ingest = IngestRoutes(store: store, metrics: metrics, webhooks: webhooks)
        let artifacts = ArtifactRoutes(store: store, metrics: metrics)
        router.group({ try authorization.requireUpload($0) }) { uploads in
            uploads.put("/api/v1/runs/{runId}", maxBodyBytes: configuration.maxRunBodyBytes, ingest.putRun)
            uploads.post(
                "/api/v1/runs/{runId}/results", maxBodyBytes: configuration.maxBatchBodyBytes, ingest.postResults)
            uploads.post("/api/v1/runs/{runId}/finish", maxBodyBytes: configuration.maxRunBodyBytes, ingest.finishRun)
            uploads.put("/api/v1/artifacts/{sha256}", maxBodyBytes: configuration.maxArtifactBytes, artifacts.put)
        }

        // Webhooks name receivers whose URLs may carry credentials (Slack's do): reading them needs the admin or an
        // upload token too.
        let webhookRoutes = WebhookRoutes(store: store)
        router.group({ _ = try authorization.requireAdministration($0) }) { admins in
            admins.get("/api/v1/webhooks", webhookRoutes.list)
            admins.post("/api/v1/webhooks", maxBodyBytes: configuration.maxRunBodyBytes, webhookRoutes.create)
            admins.delete("/api/v1/webhooks/{webhookId}", webhookRoutes.delete)
            admins.get("/api/v1/webhooks/{webhookId}/deliveries", webhookRoutes.deliveries)
        }

        let reads = ReadRoutes(store: store)
        let flaky = FlakyRoutes(store: store)
        let comparisons = CompareRoute(store: store)
        let errors = ErrorRoutes(store: store)
        let durations = DurationRoutes(store: store)
        router.group({ try authorization.requireRead($0) }) { readers in
            readers.get("/api/v1/artifacts/{sha256}", artifacts.info)
            readers.get("/api/v1/runs", reads.listRuns)
            readers.get("/api/v1/runs/{runId}", reads.runDetail)
            readers.get("/api/v1/runs/{runId}/compare", comparisons.compare)
            readers.get("/api/v1/runs/{runId}/errors", errors.runErrors)
            readers.get("/api/v1/errors", errors.errors)
            readers.get("/api/v1/durations", durations.durations)
            readers.get("/api/v1/durations/actions", durations.actionDurations)
            readers.get("/api/v1/durations/actions/trend", durations.actionTrend)
            readers.get("/api/v1/tests/{testId}/durations", durations.trend)
            readers.get("/api/v1/results/{resultId}", reads.resultDetail)
            readers.get("/api/v1/tests/{testId}/history", reads.testHistory)
            readers.get("/api/v1/pages", flaky.pages)
            readers.get("/api/v1/flaky", flaky.flaky)
        }

        let quarantine = QuarantineRoutes(store: store, authorization: authorization)
        router.group({ _ = try authorization.requireAdministration($0) }) { writers in
            writers.post("/api/v1/quarantine", maxBodyBytes: QuarantineRoutes.maxBodyBytes, quarantine.add)
            writers.put("/api/v1/quarantine/{entryId}", maxBodyBytes: QuarantineRoutes.maxBodyBytes, quarantine.edit)
            writers.post(
                "/api/v1/quarantine/{entryId}/lift", maxBodyBytes: QuarantineRoutes.maxBodyBytes, quarantine.lift)
        }
        router.group({ try authorization.requireRead($0) }) { readers in
            readers.get("/api/v1/quarantine", quarantine.list)
            readers.get("/api/v1/quarantine/{entryId}", quarantine.entry)
        }

        let memory = configuration.artifactMemoryBytes
        router.get("/artifacts/{sha256}.png", artifacts.file(.screenshot, memoryBudget: memory))
        router.get("/artifacts/{sha256}.json", artifacts.file(.elementTree, memoryBudget: memory))

        router.get("/vendor/chart.js", DashboardAssets.chartJS())
        if let web = configuration.webDirectory {
            let files = StaticFiles(root: web.path, extraHeaders: DashboardAssets.headers)
            router.get("/{path...}", files.respond)
        } else {
            router.get("/") { _ in
                .text("Failscope service is running. No dashboard (Web/) was found; the API is under /api/v1.\n")
            }
        }
        return FailscopeApplication(router: router, store: store, metrics: metrics, webhooks: webhooks)
    }
}
