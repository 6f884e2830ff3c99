import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting

/// `GET /api/v1/pages` (pages ranked by flaky failures, with the page counts) and `GET /api/v1/flaky`
/// (flaky and broken tests), over `FailscopeStore.flakyPages` / `flakyTests` (docs/flaky.md).
///
/// Parameters: `project`, `branch`, `device`, `page`, `suite` (text; empty means absent; an unknown
/// value gives empty lists) and `days` (1...365, default 14; anything else is a 400 JSON error).
struct FlakyRoutes: Sendable {
    let store: FailscopeStore

    func pages(_ request: Request) throws -> Response {
        let query = try Self.query(request)
        let list = try ServiceError.wrapping(fromQuery: true) { try store.flakyPages(query) }
        return APIResponse.json(bytes: WireJSONWriter.encode(list))
    }

    func flaky(_ request: Request) throws -> Response {
        let query = try Self.query(request)
        if let problem = FlakyReport.filterProblem(page: query.page, suite: query.suite) {
            throw ServiceError.invalidParameter(problem + ".")
        }
        let report = try ServiceError.wrapping(fromQuery: true) { try store.flakyTests(query) }
        return APIResponse.json(bytes: WireJSONWriter.encode(report))
    }

    static func query(_ request: Request) throws -> FailscopeStore.FlakyQuery {
        var query = FailscopeStore.FlakyQuery()
        query.days = try request.queryInteger("days", default: 14, in: 1...365)
        query.project = try text(request, "project")
        query.branch = try text(request, "branch")
        query.device = try text(request, "device")
        query.page = try text(request, "page")
        query.suite = try text(request, "suite")
        return query
    }

    private static func text(_ request: Request, _ name: String) throws -> String? {
        guard let value = try request.filterValue(name) else { return nil }
        guard value.utf8.count <= FailscopeStore.Limits.textFieldBytes else {
            throw ServiceError.invalidParameter("\(name) is longer than \(FailscopeStore.Limits.textFieldBytes) bytes.")
        }
        return value
    }
}
