import FailscopeStore
import HTTPServer

/// The service's HTTP errors: a status, a stable code and a message safe to show (no SQL, no paths).
struct ServiceError: HTTPError {
    let status: HTTPStatus
    let code: String
    let message: String
    let headers: HTTPHeaders

    init(_ status: HTTPStatus, code: String, message: String, headers: HTTPHeaders = [:]) {
        self.status = status
        self.code = code
        self.message = message
        var headers = headers
        if status == .unauthorized { headers["WWW-Authenticate"] = "Bearer realm=\"failscope\"" }
        self.headers = headers
    }

    static let invalidToken = ServiceError(
        .unauthorized, code: "invalid_token", message: "The bearer token is not valid here.")

    static func notFound(_ what: String, code: String = "not_found") -> ServiceError {
        ServiceError(.notFound, code: code, message: "\(what) does not exist.")
    }

    static func invalidParameter(_ message: String) -> ServiceError {
        ServiceError(.badRequest, code: "invalid_parameter", message: message)
    }

    /// Maps the store's refusals to HTTP; anything else is rethrown (→ 500 without internals, except
    /// SQLite busy/locked → 503 so clients retry). A full disk (`StoreError.storageFull`) → 507
    /// `insufficient_storage`. A value the store finds invalid is a 422
    /// `validation_failed` for a request body, and a 400 `invalid_parameter` for a read
    /// (`fromQuery`: only its query parameters can be, e.g. a malformed cursor).
    static func wrapping<T>(fromQuery: Bool = false, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            switch error {
            case .invalid(let message) where fromQuery:
                throw invalidParameter(message)
            case .invalid(let message):
                throw ServiceError(.unprocessableContent, code: "validation_failed", message: message)
            case .runNotFound: throw ServiceError(.notFound, code: "run_not_found", message: error.description)
            case .conflict(let message): throw ServiceError(.conflict, code: "conflict", message: message)
            case .artifactRejected(let message):
                throw ServiceError(.unprocessableContent, code: "artifact_rejected", message: message)
            case .storageFull:
                // The one answer to a full disk, also given by the transport for a body it cannot spool.
                throw HTTPStatusError.insufficientStorage
            }
        } catch let error as SQLiteError where error.primaryCode == 5 || error.primaryCode == 6 {
            throw ServiceError(
                .serviceUnavailable, code: "busy", message: "The database is busy; retry shortly.",
                headers: ["Retry-After": "1"])
        }
    }
}
