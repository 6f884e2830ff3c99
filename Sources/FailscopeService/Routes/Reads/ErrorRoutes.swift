import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting

/// `GET /api/v1/errors` (a project's unique errors, `ErrorList`) and `GET /api/v1/runs/{runId}/errors` (a run's
/// failures with signatures, verdicts, new errors and groups, `RunErrors`), docs/errors.md.
///
/// `/errors` parameters: `project` (required), `branch`, `days` (1...365, default 14), `limit` (1...200,
/// default 50). `/runs/{runId}/errors` takes the compare route's `baseBranch` and `baseCommit` for the
/// regression verdict's base. Errors: 400 `invalid_parameter`, 404 `run_not_found`.
struct ErrorRoutes: Sendable {
    let store: FailscopeStore

    func errors(_ request: Request) throws -> Response {
        guard let project = try request.filterValue("project") else {
            throw ServiceError.invalidParameter("project is required.")
        }
        let query = FailscopeStore.WindowQuery(
            project: project, branch: try request.filterValue("branch"),
            days: try request.queryInteger("days", default: 14, in: 1...365),
            limit: try request.queryInteger("limit", default: 50, in: 1...200))
        return try APIResponse.json(try ServiceError.wrapping(fromQuery: true) { try store.errors(query) })
    }

    func runErrors(_ request: Request) throws -> Response {
        let runID = try request.parameter("runId")
        let baseBranch = try request.filterValue("baseBranch")
        let baseCommit = try request.filterValue("baseCommit")
        guard let run = try store.runDetail(runID, statuses: TestStatus.failing) else {
            throw ServiceError(.notFound, code: "run_not_found", message: "The run does not exist.")
        }
        let base = try CompareRoute.defaultBase(of: run.summary, store: store, branch: baseBranch, commit: baseCommit)
        return try APIResponse.json(try store.runErrors(run, base: base))
    }
}
