import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting

/// `PUT /api/v1/runs/{runId}`, `POST /api/v1/runs/{runId}/results` and `POST /api/v1/runs/{runId}/finish`: a
/// run, its results in batches, its end. Each validates its body, calls the store once and answers with a shared
/// API type; authorization is the route group's (`FailscopeApplication.build`). A finish (the finish route, or a PUT
/// with `finishedAt`) is also handed to the webhook worker: one insert, the announcing happens apart.
struct IngestRoutes: Sendable {
    let store: FailscopeStore
    let metrics: ServiceMetrics
    let webhooks: WebhookDispatcher

    func putRun(_ request: Request) throws -> Response {
        let runID = try request.parameter("runId")
        let run = try request.decodeJSON(Run.self, using: WireCoding.decoder())
        guard run.id == runID else {
            throw ServiceError(
                .unprocessableContent, code: "id_mismatch", message: "The body's id must equal the runId in the path.")
        }
        let outcome = try ServiceError.wrapping { try store.putRun(run) }
        if run.finishedAt != nil { try ServiceError.wrapping { try webhooks.runFinished(runID) } }
        guard let summary = try store.runSummary(runID) else { throw ServiceError.notFound("The run") }
        return try APIResponse.json(summary, status: outcome == .created ? .created : .ok)
    }

    func postResults(_ request: Request) throws -> Response {
        let runID = try request.parameter("runId")
        let batch = try request.decodeJSON(ResultBatch.self, using: WireCoding.decoder())
        let outcome = try ServiceError.wrapping { try store.addResults(batch, toRun: runID) }
        metrics.recordResultsIngested(outcome.inserted)
        return try APIResponse.json(outcome)
    }

    func finishRun(_ request: Request) throws -> Response {
        let runID = try request.parameter("runId")
        let finish = try request.decodeJSON(RunFinish.self, using: WireCoding.decoder())
        let summary = try ServiceError.wrapping { try store.finishRun(runID, finish) }
        try ServiceError.wrapping { try webhooks.runFinished(runID) }
        return try APIResponse.json(summary)
    }
}
