import HTTPServer

/// Routes that share head middleware, such as the routes one token authorizes: built in ``Router/group(_:_:)`` (or
/// nested in another group) and added to the router with the group's checks, outermost first.
///
/// ```swift
/// router.group(requireUploadToken) { uploads in
///     uploads.put("/api/v1/runs/{runId}", maxBodyBytes: 64 << 10, putRun)
/// }
/// ```
public struct RouteGroup: RouteBuilder {
    /// A route as added, before the router compiles its pattern.
    struct Entry {
        let method: HTTPMethod
        let pattern: String
        let maxBodyBytes: Int
        let checks: [HeadCheck]
        let action: Router.Route.Action
    }

    /// The head middleware every route of the group passes, outermost first.
    let checks: [HeadCheck]
    private(set) var routes: [Entry] = []

    init(checks: [HeadCheck]) {
        self.checks = checks
    }

    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int = Router.defaultMaxBodyBytes,
        _ handler: @escaping Handler
    ) {
        routes.append(
            Entry(method: method, pattern: pattern, maxBodyBytes: maxBodyBytes, checks: checks, action: .sync(handler)))
    }

    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int = Router.defaultMaxBodyBytes,
        _ handler: @escaping AsyncHandler
    ) {
        routes.append(
            Entry(method: method, pattern: pattern, maxBodyBytes: maxBodyBytes, checks: checks, action: .async(handler))
        )
    }

    /// A group inside this one: its routes pass this group's checks, then `check`.
    public mutating func group(_ check: @escaping HeadCheck, _ build: (inout RouteGroup) -> Void) {
        var inner = RouteGroup(checks: checks + [check])
        build(&inner)
        routes += inner.routes
    }
}
