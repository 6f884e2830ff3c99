/// What answers the requests the transport reads: the routing layer (`HTTPRouting`'s `Router`), or a test double.
///
/// The transport asks twice per request. ``decide(head:)`` runs once the head (request line and header fields) has
/// arrived and before any body byte is read, so a request can be refused, or its body capped, unread. An accepted
/// request is then read whole and answered by the decision's ``RequestHandler``. Every response, the transport's
/// own refusals included (414, 431, 400, 408, 413, 507), passes through
/// ``finish(_:method:path:id:route:failure:start:)`` before it is sent.
public protocol Responder: Sendable {
    /// What to do with `head`, a request whose body is empty (not yet read) and whose `parameters` and `route` are
    /// empty. Called on a worker thread; must not block for long.
    func decide(head: Request) -> HeadDecision

    /// `response` completed for sending (per-response header fields such as `X-Request-Id`) after recording what
    /// happened (an access log entry).
    ///
    /// - Parameters:
    ///   - method, path, id: the request's, as in ``Request``.
    ///   - route: the pattern that accepted the request (``HeadDecision/accept(route:parameters:maxBodyBytes:handler:)``),
    ///     empty when none did.
    ///   - failure: the error a 500 hides (recorded, never sent), or `nil`.
    ///   - start: when the head arrived, in ``MonotonicClock/nanoseconds()``.
    func finish(
        _ response: Response, method: HTTPMethod, path: String, id: String, route: String, failure: String?,
        start: UInt64
    ) -> Response
}

/// A responder's answer to a request head (see ``Responder/decide(head:)``).
public enum HeadDecision: Sendable {
    /// Read a body of at most `maxBodyBytes` bytes, then answer with `handler`. The request it gets carries
    /// `parameters` and `route` (the pattern, also the access log's route). A body over the limit is answered 413
    /// `body_too_large` and the handler never runs: at once when `Content-Length` says so; for a chunked body at its
    /// end (the excess is read and dropped, up to the limit again, at least 1 MiB and at most 16 MiB; past that the
    /// connection is closed).
    case accept(route: String, parameters: [String: String], maxBodyBytes: Int, handler: RequestHandler)
    /// Answer `error` once the request is read: such a request takes no body (a body is read and dropped, up to
    /// 1 MiB; more is answered at once). For a request nothing handles (404, 405, a malformed path).
    case answer(HTTPStatusError)
    /// Answer `error` at once, without reading any body; when the head announces a body the answer also closes the
    /// connection, so the body is never read. For a refusal on the head alone, such as authorization.
    case refuse(HTTPStatusError)
}

/// How an accepted request is answered. Either way the result is the response and, for a 500, the error it hides
/// (for the access log, never sent).
public enum RequestHandler: Sendable {
    /// Runs on the worker thread that read the request (blocking work such as SQLite is fine: the transport runs a
    /// pool of worker threads).
    case sync(@Sendable (Request) -> (Response, failure: String?))
    /// Runs in a task while the connection is suspended; the worker thread goes on serving other connections.
    case async(@Sendable (Request) async -> (Response, failure: String?))
}
