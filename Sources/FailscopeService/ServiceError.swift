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

    /// Maps the store's errors to HTTP, the one place that does; anything else is rethrown (→ 500 without
    /// internals). A value the store finds invalid is a 422 `validation_failed` for a request body, and a
    /// 400 `invalid_parameter` for a read (`fromQuery`: only its query parameters can be, e.g. a malformed
    /// cursor). A busy or unreachable database is a 503 with `Retry-After`, so clients (the uploader
    /// retries) come back; full storage is a 507 `insufficient_storage`: nothing of the request was stored.
    /// An artifact storage that does not answer is a 503 `artifact_storage_unavailable` with `Retry-After`; one
    /// that refuses is the same 503 for a write (nothing was stored; the uploader retries) and a 502
    /// `artifact_storage_error` for a read (`reading`).
    static func wrapping<T>(fromQuery: Bool = false, reading: Bool = false, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreError {
            throw ServiceError(error, fromQuery: fromQuery)
        } catch let error as ArtifactStorageError {
            throw ServiceError(error, reading: reading)
        }
    }

    /// The HTTP answer to an artifact storage error (see ``wrapping(fromQuery:reading:_:)``). The message names
    /// the condition only (the storage's own message may carry its address); /healthz gives the detail.
    init(_ error: ArtifactStorageError, reading: Bool) {
        switch error {
        case .refused where reading:
            self.init(
                .badGateway, code: "artifact_storage_error",
                message: "The artifact storage refused the request; /healthz says why.")
        case .unavailable, .refused:
            self.init(
                .serviceUnavailable, code: "artifact_storage_unavailable",
                message: "The artifact storage is not answering; retry shortly.", headers: ["Retry-After": "5"])
        }
    }

    /// The HTTP answer to a store error (see ``wrapping(fromQuery:_:)``).
    init(_ error: StoreError, fromQuery: Bool = false) {
        switch error {
        case .invalid(let message) where fromQuery:
            self = .invalidParameter(message)
        case .invalid(let message):
            self.init(.unprocessableContent, code: "validation_failed", message: message)
        case .notFound(let kind, _):
            self.init(.notFound, code: "\(kind)_not_found", message: error.description)
        case .conflict(let message): self.init(.conflict, code: "conflict", message: message)
        case .artifactRejected(let message):
            self.init(.unprocessableContent, code: "artifact_rejected", message: message)
        case .busy:
            self.init(
                .serviceUnavailable, code: "busy", message: "The database is busy; retry shortly.",
                headers: ["Retry-After": "1"])
        case .timedOut:
            self.init(
                .serviceUnavailable, code: "database_timeout",
                message: "The database took longer than its limit for one statement; retry shortly.",
                headers: ["Retry-After": "5"])
        case .unavailable:
            self.init(
                .serviceUnavailable, code: "database_unavailable",
                message: "The database is not answering; retry shortly.", headers: ["Retry-After": "5"])
        case .storageFull(let message):
            // The transport's answer to a body it cannot spool is the same status and code.
            self.init(
                .insufficientStorage, code: HTTPStatusError.insufficientStorage.code, message: message,
                headers: ["Retry-After": "60"])
        }
    }
}
