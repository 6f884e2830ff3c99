/// An error that knows its HTTP response: status, a stable machine-readable code and a message safe to show.
///
/// The router turns a thrown `HTTPError` into `{"error":{"code":…,"message":…}}` with its status; any other
/// thrown error becomes a 500 `internal_error` with a generic message (the error itself is never sent).
/// Model: Hummingbird's `HTTPResponseError`.
public protocol HTTPError: Error {
    /// The response status, for example ``HTTPStatus/notFound``.
    var status: HTTPStatus { get }
    /// A stable snake_case code for clients, for example `"run_not_found"`.
    var code: String { get }
    /// A human-readable message. It must not contain internals (SQL, paths, stack traces).
    var message: String { get }
    /// Extra response header fields (for example `WWW-Authenticate`, `Allow`).
    var headers: HTTPHeaders { get }
}

extension HTTPError {
    public var headers: HTTPHeaders { [:] }
}

extension HTTPStatusError {
    /// The same error as `error`, with `extra` header fields added to its own.
    public init(_ error: any HTTPError, adding extra: HTTPHeaders = [:]) {
        var headers = error.headers
        for (name, value) in extra { headers[name] = value }
        self.init(error.status, code: error.code, message: error.message, headers: headers)
    }
}

/// A plain ``HTTPError``: a status, a code and a message.
public struct HTTPStatusError: HTTPError, Equatable {
    public let status: HTTPStatus
    public let code: String
    public let message: String
    public let headers: HTTPHeaders

    public init(_ status: HTTPStatus, code: String, message: String, headers: HTTPHeaders = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers
    }

    /// 404 `not_found`.
    public static func notFound(_ message: String = "Not found.") -> HTTPStatusError {
        HTTPStatusError(.notFound, code: "not_found", message: message)
    }

    /// 400 `bad_request`.
    public static func badRequest(_ message: String, code: String = "bad_request") -> HTTPStatusError {
        HTTPStatusError(.badRequest, code: code, message: message)
    }

    /// 413 `body_too_large` for a body over `limit` bytes.
    public static func bodyTooLarge(limit: Int) -> HTTPStatusError {
        HTTPStatusError(
            .contentTooLarge, code: "body_too_large", message: "The request body is larger than \(limit) bytes.")
    }

    /// 507 `insufficient_storage`: the request cannot be stored because the disk is full.
    public static let insufficientStorage = HTTPStatusError(
        .insufficientStorage, code: "insufficient_storage",
        message: "The server's disk is full; the request was not stored. Retry later.")

    /// 500 `internal_error`, the answer to any error that is not an ``HTTPError``.
    public static let internalError = HTTPStatusError(
        .internalServerError, code: "internal_error", message: "Internal server error.")
}
