import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting

/// The quarantine (README.md "Quarantine"): `GET /api/v1/quarantine` (`project`, `state=active|all`, default
/// `active`), `POST /api/v1/quarantine` (a `QuarantineRequest`, 201), `GET|PUT /api/v1/quarantine/{entryId}` (a
/// `QuarantineEdit`), `POST /api/v1/quarantine/{entryId}/lift` (a `QuarantineLift`). Every answer is a
/// `QuarantineEntry` with its audit log, or the list. Writes record the token's role (`upload` or `admin`,
/// ``BearerAuthorization/requireAdministration(_:)``); their route group already refused any other token.
struct QuarantineRoutes: Sendable {
    let store: FailscopeStore
    let authorization: BearerAuthorization

    /// Largest body of a quarantine change: the texts' limits with room for JSON escapes.
    static let maxBodyBytes = 64 << 10

    func list(_ request: Request) throws -> Response {
        var query = FailscopeStore.QuarantineQuery(project: try request.filterValue("project"))
        switch try request.queryValue("state") ?? "active" {
        case "active": query.includeEnded = false
        case "all": query.includeEnded = true
        default: throw ServiceError.invalidParameter("state must be active or all.")
        }
        return try APIResponse.json(try ServiceError.wrapping(fromQuery: true) { try store.quarantine(query) })
    }

    func entry(_ request: Request) throws -> Response {
        guard let entry = try store.quarantineEntry(try Self.entryID(request)) else { throw Self.notFound }
        return try APIResponse.json(entry)
    }

    func add(_ request: Request) throws -> Response {
        let role = try authorization.requireAdministration(request)
        let body = try request.decodeJSONObject(
            QuarantineRequest.self, using: WireCoding.decoder(), encoder: WireCoding.encoder())
        let entry = try ServiceError.wrapping { try store.addQuarantine(body, role: role) }
        return try APIResponse.json(entry, status: .created)
    }

    func edit(_ request: Request) throws -> Response {
        let role = try authorization.requireAdministration(request)
        let id = try Self.entryID(request)
        let body = try request.decodeJSONObject(
            QuarantineEdit.self, using: WireCoding.decoder(), encoder: WireCoding.encoder())
        return try APIResponse.json(try ServiceError.wrapping { try store.editQuarantine(id, body, role: role) })
    }

    func lift(_ request: Request) throws -> Response {
        let role = try authorization.requireAdministration(request)
        let id = try Self.entryID(request)
        let body = try request.decodeJSONObject(
            QuarantineLift.self, using: WireCoding.decoder(), encoder: WireCoding.encoder())
        return try APIResponse.json(try ServiceError.wrapping { try store.liftQuarantine(id, body, role: role) })
    }

    private static let notFound = ServiceError.notFound("The quarantine entry", code: "quarantine_not_found")

    private static func entryID(_ request: Request) throws -> Int {
        guard let id = Int(try request.parameter("entryId")), id > 0 else { throw notFound }
        return id
    }
}
