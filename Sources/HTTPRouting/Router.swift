import Foundation
import HTTPServer

/// Routes requests by method and path pattern to handlers, and turns what they throw into JSON error responses.
///
/// Build it once with ``add(_:_:maxBodyBytes:_:)-(_,_,_,Handler)`` (or `get`, `put`, `post`, `delete`, and
/// ``group(_:_:)`` for routes behind head middleware), then give it to an ``HTTPServer`` as its ``Responder`` or call
/// ``respond(to:)`` directly in tests (no socket needed).
///
/// Rules, in order:
/// - The path is split on `/` and each segment percent-decoded; a malformed escape, a decoded NUL, or a `.` or
///   `..` segment → 400 `invalid_path` (no route ever sees a dot segment).
/// - The first route (in the order added) whose pattern matches the path and whose method matches wins; a `HEAD`
///   request uses the `GET` route of its path when there is no `HEAD` route, and its response body is dropped.
/// - Catch-all routes (a `{name...}` rest parameter) only see paths that no other route matches: a path claimed
///   by `POST /api/v1/runs/{runId}/finish` answers `GET` with 405 (`Allow: POST`), not with the `GET /{path...}`
///   static files, so `Allow` lists what the path really offers.
/// - A path that matches only under other methods → 405 `method_not_allowed` with `Allow`; no match → 404
///   `not_found`.
/// - A thrown ``HTTPError`` → its status and JSON body; any other error → 500 `internal_error` with a generic
///   message (the error is recorded in the access log entry, never sent).
/// - Every response gets `X-Request-Id: <request.id>` (except a ``PreparedResponse``, whose fields are fixed) and
///   `X-Content-Type-Options: nosniff` (a ``PreparedResponse`` has it from its init); every request gets one
///   ``AccessLogEntry``.
/// - A route's head middleware (the ``HeadCheck`` of each ``RouteGroup`` it is in, such as authorization) runs after
///   routing and before the body limit and the handler.
public struct Router: Responder, RouteBuilder {
    /// The default per-route body limit: 1 MiB.
    public static let defaultMaxBodyBytes = 1 << 20

    /// A class so that routing hands it out with one retain instead of copying its fields.
    final class Route: Sendable {
        enum Action: Sendable {
            case sync(Handler)
            case async(AsyncHandler)
        }
        let method: HTTPMethod
        let pattern: RoutePattern
        let maxBodyBytes: Int
        /// The head middleware of the route's groups, outermost first.
        let checks: [HeadCheck]
        let action: Action
        /// The action as the transport runs it: errors mapped, the hidden error of a 500 kept for the log.
        let handler: RequestHandler

        init(method: HTTPMethod, pattern: RoutePattern, maxBodyBytes: Int, checks: [HeadCheck], action: Action) {
            self.method = method
            self.pattern = pattern
            self.maxBodyBytes = maxBodyBytes
            self.checks = checks
            self.action = action
            switch action {
            case .sync(let handler): self.handler = .sync { Router.run(handler, $0) }
            case .async(let handler): self.handler = .async { await Router.run(handler, $0) }
            }
        }
    }

    private(set) var routes: [Route] = []
    /// What ``decide(head:)`` remembers; replaced whenever a route is added, so it always matches the routes.
    private(set) var resolutions = ResolutionCache()

    /// Where one line per request goes; ``StandardErrorAccessLog`` by default.
    public var accessLog: any AccessLog

    public init(accessLog: any AccessLog = StandardErrorAccessLog()) {
        self.accessLog = accessLog
    }

    /// Adds a route whose handler runs on the calling worker thread.
    ///
    /// - Parameters:
    ///   - pattern: a path pattern (see the grammar on ``Router``), for example `/api/v1/runs/{runId}`.
    ///   - maxBodyBytes: the largest accepted body, in bytes (see ``HeadDecision/accept(route:parameters:maxBodyBytes:handler:)``
    ///     for how a larger one is refused).
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int = Router.defaultMaxBodyBytes,
        _ handler: @escaping Handler
    ) {
        append(method, pattern, maxBodyBytes: maxBodyBytes, checks: [], .sync(handler))
    }

    /// Adds a route whose handler may suspend (see ``AsyncHandler``).
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int = Router.defaultMaxBodyBytes,
        _ handler: @escaping AsyncHandler
    ) {
        append(method, pattern, maxBodyBytes: maxBodyBytes, checks: [], .async(handler))
    }

    /// Adds the routes `build` adds to a group whose every request must pass `check` (a head middleware such as
    /// authorization), run on the request head before its body is read and before the checks of groups nested in it.
    public mutating func group(_ check: @escaping HeadCheck, _ build: (inout RouteGroup) -> Void) {
        var group = RouteGroup(checks: [check])
        build(&group)
        for route in group.routes {
            append(route.method, route.pattern, maxBodyBytes: route.maxBodyBytes, checks: route.checks, route.action)
        }
    }

    private mutating func append(
        _ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int, checks: [HeadCheck], _ action: Route.Action
    ) {
        precondition(maxBodyBytes >= 0, "maxBodyBytes must not be negative")
        routes.append(
            Route(
                method: method, pattern: RoutePattern(pattern), maxBodyBytes: maxBodyBytes, checks: checks,
                action: action))
        resolutions = ResolutionCache()
    }

    // MARK: - Dispatch

    /// What routing decided for a method and path, before the body is read.
    enum Resolution: Sendable {
        case route(Route, parameters: [String: String])
        case error(HTTPStatusError)
    }

    private static let invalidPath = Resolution.error(
        .badRequest("The path is not a valid, normalized URL path.", code: "invalid_path"))

    /// Finds the route for `method` and the raw `path` (percent-encoded, no query).
    func resolve(method: HTTPMethod, path: String) -> Resolution {
        guard path.hasPrefix("/") else {
            return .error(.badRequest("The path must start with '/'.", code: "invalid_path"))
        }
        let raw = path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
            .map { Substring($0) }
        var decoded: [Substring] = []
        decoded.reserveCapacity(raw.count)
        for segment in raw {
            // Segments without an escape are their own decoding (no copy).
            let text: Substring
            if segment.utf8.contains(UInt8(ascii: "%")) {
                guard let decodedText = PercentDecoding.decodePath(segment) else { return Self.invalidPath }
                text = Substring(decodedText)
            } else {
                text = segment
            }
            guard !text.utf8.contains(0), text != ".", text != ".." else { return Self.invalidPath }
            decoded.append(text)
        }
        // Routes without a rest parameter first; catch-alls (`{name...}`) only for paths none of them matches.
        for catchAll in [false, true] {
            if let resolution = resolve(method: method, path: path, raw: raw, decoded: decoded, catchAll: catchAll) {
                return resolution
            }
        }
        return .error(.notFound("No route for \(method) \(LogSanitizer.clip(path))."))
    }

    /// Routing among the routes with (`catchAll`) or without a rest parameter; `nil` when none matches the path.
    private func resolve(method: HTTPMethod, path: String, raw: [Substring], decoded: [Substring], catchAll: Bool)
        -> Resolution?
    {
        var allowed: [HTTPMethod] = []
        var getRoute: (Route, [String: String])?
        for route in routes where route.pattern.hasRest == catchAll {
            guard let parameters = route.pattern.match(raw: raw, decoded: decoded) else { continue }
            if route.method == method { return .route(route, parameters: parameters) }
            if method == .HEAD, route.method == .GET, getRoute == nil { getRoute = (route, parameters) }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        if let (route, parameters) = getRoute { return .route(route, parameters: parameters) }
        if allowed.isEmpty { return nil }
        if allowed.contains(.GET), !allowed.contains(.HEAD) {
            allowed.insert(.HEAD, at: allowed.firstIndex(of: .GET)! + 1)
        }
        let allow = allowed.map(\.rawValue).joined(separator: ", ")
        return .error(
            HTTPStatusError(
                .methodNotAllowed, code: "method_not_allowed",
                message: "\(method) is not allowed here; allowed: \(allow).",
                headers: ["Allow": allow]))
    }

    /// Answers `request` in-process: routing, handler, error mapping, `X-Request-Id`, one access log entry.
    /// A `HEAD` response keeps its headers and gets an empty body.
    public func respond(to request: Request) async -> Response {
        let start = MonotonicClock.nanoseconds()
        var response: Response
        var failure: String?
        var routeText = ""
        switch resolve(method: request.method, path: request.path) {
        case .error(let error):
            response = Response.error(error)
        case .route(let route, let parameters):
            if let refusal = Self.refusal(route, parameters: parameters, head: request) {
                response = Response.error(refusal)
            } else if request.body.count > route.maxBodyBytes {
                response = Response.error(HTTPStatusError.bodyTooLarge(limit: route.maxBodyBytes))
            } else {
                var routed = request
                routed.parameters = parameters
                routed.route = route.pattern.text
                routeText = route.pattern.text
                switch route.action {
                case .sync(let handler): (response, failure) = Self.run(handler, routed)
                case .async(let handler): (response, failure) = await Self.run(handler, routed)
                }
            }
        }
        response = finish(
            response, method: request.method, path: request.path, id: request.id, route: routeText, failure: failure,
            start: start)
        if request.method == .HEAD { response.body = .empty }
        return response
    }

    /// What the route's first failing ``HeadCheck`` throws for `head` (a request whose body is not read; its path
    /// parameters are filled in), as an error to answer with; `nil` when every check passes or there is none. A check
    /// that throws something other than an ``HTTPError`` refuses with 500.
    static func refusal(_ route: Route, parameters: [String: String], head: Request) -> HTTPStatusError? {
        guard !route.checks.isEmpty else { return nil }
        var routed = head
        routed.body = Data()
        routed.parameters = parameters
        routed.route = route.pattern.text
        do {
            for check in route.checks { try check(routed) }
            return nil
        } catch let error as any HTTPError {
            return HTTPStatusError(error)
        } catch {
            return HTTPStatusError.internalError
        }
    }

    /// Routes `head` for the transport (remembering recent answers, see ``ResolutionCache``) and runs the route's
    /// head middleware, before any body byte is read.
    public func decide(head: Request) -> HeadDecision {
        switch resolutions.resolve(self, method: head.method, path: head.path) {
        case .error(let error):
            return .answer(error)
        case .route(let route, let parameters):
            if let refusal = Self.refusal(route, parameters: parameters, head: head) { return .refuse(refusal) }
            return .accept(
                route: route.pattern.text, parameters: parameters, maxBodyBytes: route.maxBodyBytes,
                handler: route.handler)
        }
    }

    /// Runs a synchronous handler and maps its errors. Returns the response and, for a 500, the hidden error.
    static func run(_ handler: Handler, _ request: Request) -> (Response, String?) {
        do {
            return (try handler(request), nil)
        } catch {
            return map(error)
        }
    }

    static func run(_ handler: AsyncHandler, _ request: Request) async -> (Response, String?) {
        do {
            return (try await handler(request), nil)
        } catch {
            return map(error)
        }
    }

    static func map(_ error: any Error) -> (Response, String?) {
        if let error = error as? any HTTPError { return (Response.error(error), nil) }
        return (Response.error(HTTPStatusError.internalError), String(describing: error))
    }

    /// Adds `X-Request-Id: id` and records the access log entry for a request that took `start`...now.
    public func finish(
        _ response: Response, method: HTTPMethod, path: String, id: String, route: String, failure: String?,
        start: UInt64
    ) -> Response {
        var response = response
        // A prepared response's fields are fixed (the transport sends one shared object); its id is in the log.
        if case .prepared = response.body {
        } else {
            response.headers["X-Request-Id"] = id
            if !response.headers.contains("X-Content-Type-Options") {
                response.headers.add("X-Content-Type-Options", "nosniff")
            }
        }
        accessLog.record(
            AccessLogEntry(
                method: method, path: path, route: route, status: response.status.code,
                bytes: method == .HEAD ? 0 : response.bodyLength, nanoseconds: MonotonicClock.nanoseconds() &- start,
                requestID: id, error: failure))
        return response
    }
}
