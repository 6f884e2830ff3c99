import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting

/// `GET /api/v1/durations` (a project's slowest tests and duration regressions, `DurationReport`) and
/// `GET /api/v1/tests/{testId}/durations` (one test's p50/p95 per day, `DurationTrend`), docs/durations.md.
///
/// Parameters: `project` (required by `/durations`), `branch`, `days` (1...365, default 14), `limit` (1...200,
/// default 20). Errors: 400 `invalid_parameter`, 404 `test_not_found`.
struct DurationRoutes: Sendable {
    let store: FailscopeStore

    func durations(_ request: Request) throws -> Response {
        guard let project = try request.filterValue("project") else {
            throw ServiceError.invalidParameter("project is required.")
        }
        let query = try Self.query(request, project: project)
        return try APIResponse.json(try ServiceError.wrapping(fromQuery: true) { try store.durations(query) })
    }

    func trend(_ request: Request) throws -> Response {
        let testID = try request.parameter("testId")
        let query = try Self.query(request, project: "")
        guard let trend = try ServiceError.wrapping(fromQuery: true, { try store.durationTrend(testID, query) }) else {
            throw ServiceError.notFound("The test", code: "test_not_found")
        }
        return try APIResponse.json(trend)
    }

    private static func query(_ request: Request, project: String) throws -> FailscopeStore.WindowQuery {
        FailscopeStore.WindowQuery(
            project: project, branch: try request.filterValue("branch"),
            days: try request.queryInteger("days", default: 14, in: 1...365),
            limit: try request.queryInteger("limit", default: 20, in: 1...200))
    }
}
