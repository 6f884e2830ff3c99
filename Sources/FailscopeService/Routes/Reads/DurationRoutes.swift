import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting

/// Durations (docs/durations.md): `GET /api/v1/durations` (a project's slowest tests and duration regressions,
/// `DurationReport`), `GET /api/v1/tests/{testId}/durations` (one test's p50/p95 per day, `DurationTrend`),
/// `GET /api/v1/durations/actions` (the slowest page actions, `ActionDurationReport`) and
/// `GET /api/v1/durations/actions/trend` (one action's p50/p95 per day, `ActionDurationTrend`).
///
/// Parameters: `project` (required but by the test trend), `page` and `action` (required by the action trend),
/// `branch`, `days` (1...365, default 14), `limit` (1...200, default 20). Errors: 400 `invalid_parameter`, 404
/// `test_not_found`.
struct DurationRoutes: Sendable {
    let store: FailscopeStore

    func durations(_ request: Request) throws -> Response {
        let query = try Self.query(request, project: try Self.required(request, "project"))
        return try APIResponse.json(try ServiceError.wrapping(fromQuery: true) { try store.durations(query) })
    }

    func actionDurations(_ request: Request) throws -> Response {
        let query = try Self.query(request, project: try Self.required(request, "project"))
        return try APIResponse.json(try ServiceError.wrapping(fromQuery: true) { try store.actionDurations(query) })
    }

    func actionTrend(_ request: Request) throws -> Response {
        let query = try Self.query(request, project: try Self.required(request, "project"))
        let action = PageAction(page: try Self.required(request, "page"), action: try Self.required(request, "action"))
        return try APIResponse.json(
            try ServiceError.wrapping(fromQuery: true) { try store.actionDurationTrend(action, query) })
    }

    func trend(_ request: Request) throws -> Response {
        let testID = try request.parameter("testId")
        let query = try Self.query(request, project: "")
        guard let trend = try ServiceError.wrapping(fromQuery: true, { try store.durationTrend(testID, query) }) else {
            throw ServiceError.notFound("The test", code: "test_not_found")
        }
        return try APIResponse.json(trend)
    }

    private static func required(_ request: Request, _ name: String) throws -> String {
        guard let value = try request.filterValue(name) else {
            throw ServiceError.invalidParameter("\(name) is required.")
        }
        return value
    }

    private static func query(_ request: Request, project: String) throws -> FailscopeStore.WindowQuery {
        FailscopeStore.WindowQuery(
            project: project, branch: try request.filterValue("branch"),
            days: try request.queryInteger("days", default: 14, in: 1...365),
            limit: try request.queryInteger("limit", default: 20, in: 1...200))
    }
}
