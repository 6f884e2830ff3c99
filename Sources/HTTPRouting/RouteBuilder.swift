import HTTPServer

/// What routes are added to: a ``Router``, or a ``RouteGroup`` inside one. `get`, `put`, `post` and `delete` are
/// shorthands for ``add(_:_:maxBodyBytes:_:)-(_,_,_,Handler)``; `GET` and `DELETE` routes take no body.
public protocol RouteBuilder {
    /// Adds a route whose handler runs on the worker thread; `maxBodyBytes` is the largest accepted body, in bytes.
    mutating func add(_ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int, _ handler: @escaping Handler)
    /// Adds a route whose handler may suspend (see ``AsyncHandler``).
    mutating func add(_ method: HTTPMethod, _ pattern: String, maxBodyBytes: Int, _ handler: @escaping AsyncHandler)
}

extension RouteBuilder {
    public mutating func get(_ pattern: String, _ handler: @escaping Handler) {
        add(.GET, pattern, maxBodyBytes: 0, handler)
    }
    public mutating func get(_ pattern: String, _ handler: @escaping AsyncHandler) {
        add(.GET, pattern, maxBodyBytes: 0, handler)
    }
    public mutating func put(
        _ pattern: String, maxBodyBytes: Int = Router.defaultMaxBodyBytes, _ handler: @escaping Handler
    ) {
        add(.PUT, pattern, maxBodyBytes: maxBodyBytes, handler)
    }
    public mutating func put(
        _ pattern: String, maxBodyBytes: Int = Router.defaultMaxBodyBytes, _ handler: @escaping AsyncHandler
    ) {
        add(.PUT, pattern, maxBodyBytes: maxBodyBytes, handler)
    }
    public mutating func post(
        _ pattern: String, maxBodyBytes: Int = Router.defaultMaxBodyBytes, _ handler: @escaping Handler
    ) {
        add(.POST, pattern, maxBodyBytes: maxBodyBytes, handler)
    }
    public mutating func post(
        _ pattern: String, maxBodyBytes: Int = Router.defaultMaxBodyBytes, _ handler: @escaping AsyncHandler
    ) {
        add(.POST, pattern, maxBodyBytes: maxBodyBytes, handler)
    }
    public mutating func delete(_ pattern: String, _ handler: @escaping Handler) {
        add(.DELETE, pattern, maxBodyBytes: 0, handler)
    }
    public mutating func delete(_ pattern: String, _ handler: @escaping AsyncHandler) {
        add(.DELETE, pattern, maxBodyBytes: 0, handler)
    }
}
