import HTTPServer

/// A handler that runs on the server's worker thread and returns at once (blocking work such as SQLite is fine:
/// the transport runs a pool of worker threads). Thrown errors become JSON error responses (see ``HTTPError``).
public typealias Handler = @Sendable (Request) throws -> Response

/// A handler that may suspend (`await` an actor, a task). The transport suspends the connection, runs the handler
/// in a task, and resumes the connection with its response; worker threads are not blocked meanwhile.
public typealias AsyncHandler = @Sendable (Request) async throws -> Response

/// A head middleware: a check of a request's head (method, path and its parameters, query, header fields; the body
/// is empty, not yet read), for example authorization. A ``RouteGroup`` runs its checks after routing and before the
/// body's size limit and any body byte: what a check throws is the answer (an ``HTTPError`` as itself, anything
/// else as 500), sent at once; when the request announces a body the answer also closes the connection, so the body
/// is never read.
public typealias HeadCheck = @Sendable (Request) throws -> Void
