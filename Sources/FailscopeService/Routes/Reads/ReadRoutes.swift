import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting

/// `GET /api/v1/runs`, `/api/v1/runs/{runId}`, `/api/v1/results/{resultId}` and `/api/v1/tests/{testId}/history`:
/// runs, a run's results by page and call site, one result, one test's history. Cursors are opaque and belong to
/// the list that returned them.
struct ReadRoutes: Sendable {
    let store: FailscopeStore

    func listRuns(_ request: Request) throws -> Response {
        var query = FailscopeStore.RunQuery()
        query.project = try request.filterValue("project")
        query.branch = try request.filterValue("branch")
        if let status = try request.queryValue("status") {
            guard let parsed = RunStatus(rawValue: status) else {
                throw ServiceError.invalidParameter("status must be one of incomplete, passed, failed.")
            }
            query.status = parsed
        }
        query.limit = try request.queryInteger("limit", default: 50, in: 1...200)
        query.cursor = try request.queryValue("cursor")
        let list = try ServiceError.wrapping(fromQuery: true) { try store.runs(query) }
        return try APIResponse.json(list)
    }

    func runDetail(_ request: Request) throws -> Response {
        let runID = try request.parameter("runId")
        var statuses: Set<TestStatus>?
        if let text = try request.queryValue("status") {
            let parsed = text.split(separator: ",", omittingEmptySubsequences: false).map {
                TestStatus(rawValue: String($0))
            }
            guard !parsed.isEmpty, parsed.allSatisfy({ $0 != nil }) else {
                throw ServiceError.invalidParameter(
                    "status must be a comma-separated list of "
                        + TestStatus.allCases.map(\.rawValue).joined(separator: ", ") + ".")
            }
            statuses = Set(parsed.compactMap { $0 })
        }
        guard let detail = try store.runDetail(runID, statuses: statuses) else {
            throw ServiceError(.notFound, code: "run_not_found", message: "The run does not exist.")
        }
        return APIResponse.json(bytes: WireJSONWriter.encode(detail))
    }

    func resultDetail(_ request: Request) throws -> Response {
        guard let id = Int(try request.parameter("resultId")), id > 0, let detail = try store.resultDetail(id) else {
            throw ServiceError.notFound("The result", code: "result_not_found")
        }
        return try APIResponse.json(detail)
    }

    func testHistory(_ request: Request) throws -> Response {
        let limit = try request.queryInteger("limit", default: 100, in: 1...500)
        let cursor = try request.queryValue("cursor")
        let history = try ServiceError.wrapping(fromQuery: true) {
            try store.testHistory(try request.parameter("testId"), limit: limit, cursor: cursor)
        }
        guard let history else { throw ServiceError.notFound("The test", code: "test_not_found") }
        return try APIResponse.json(history)
    }
}
