import CMicroHTTPD
import Foundation
import Synchronization

/// The state of one request on one connection, kept in libmicrohttpd's `con_cls` from the first handler call
/// to the request-completed callback (which releases it).
///
/// Touched only by the worker thread that owns the connection, except ``pending``, which an async handler's task
/// fills before resuming the connection.
final class Exchange: @unchecked Sendable {
    let start: UInt64
    let method: HTTPMethod
    let path: String
    let query: QueryParameters
    let headers: HTTPHeaders
    let id: String
    /// The route and its parameters, or the error to answer with (404, 405, 400) once the request is read.
    let resolution: Router.Resolution
    let limit: Int
    var body = Data()
    /// Bytes received beyond the route's limit (then discarded); nonzero means the answer is 413.
    var overflow = 0
    /// Whether a response has been queued (or the request refused); later calls only drain the upload.
    var answered = false
    /// The response of an async handler, set by its task before `MHD_resume_connection`.
    let pending = Mutex<Response?>(nil)

    init(
        start: UInt64, method: HTTPMethod, path: String, query: QueryParameters, headers: HTTPHeaders, id: String,
        resolution: Router.Resolution
    ) {
        self.start = start
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.id = id
        self.resolution = resolution
        if case .route(let route, _) = resolution { limit = route.maxBodyBytes } else { limit = 0 }
    }

    /// The request as handlers see it.
    func request() -> Request {
        var request = Request(
            method: method, path: path, query: query, headers: headers, body: body, id: id, remoteAddress: nil)
        if case .route(let route, let parameters) = resolution {
            request.parameters = parameters
            request.route = route.pattern.text
        }
        return request
    }

    var routeText: String {
        if case .route(let route, _) = resolution { return route.pattern.text }
        return ""
    }

    /// Answers 503 to a request that arrived before the server object was ready (a start-up race).
    static func refuse(_ connection: OpaquePointer) -> MHD_Result {
        let body = ErrorBody.encode(code: "starting", message: "The server is starting.")
        return body.withUnsafeBytes { buffer in
            let response = MHD_create_response_from_buffer(
                buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            defer { MHD_destroy_response(response) }
            return MHD_queue_response(connection, 503, response)
        }
    }
}

/// A libmicrohttpd connection handed to an async handler's task, to resume it; libmicrohttpd allows
/// `MHD_resume_connection` from any thread.
struct SuspendedConnection: @unchecked Sendable {
    let pointer: OpaquePointer
}

extension HTTPServer {
    /// The access handler: called once with the headers, once per body chunk, once at the end of the body, and
    /// once more after a resume.
    func handle(
        connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
        uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>,
        state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let existing = state.pointee else {
            let exchange = begin(connection: connection, url: url, method: method)
            state.pointee = Unmanaged.passRetained(exchange).toOpaque()
            inFlight.add(1, ordering: .relaxed)
            _ = queueEarlyRefusal(exchange, connection)
            return MHD_Result.YES
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(existing).takeUnretainedValue()
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0
            if exchange.answered { return MHD_Result.YES }
            if case .error(let error) = exchange.resolution {
                return answer(exchange, Response.error(error), failure: nil, connection)
            }
            if exchange.overflow > 0 || exchange.body.count + size > exchange.limit {
                // A body without Content-Length went over the limit. Answering now would close the connection
                // with unread bytes, and the kernel's reset can destroy the 413 before the client reads it; so
                // discard up to `discardLimit` more bytes and answer at the end of the body (the connection stays
                // usable). A client that keeps sending past that is answered at once.
                exchange.overflow += size
                exchange.body = Data()
                if exchange.overflow > Self.discardLimit(exchange.limit) {
                    return answer(
                        exchange, Response.error(HTTPStatusError.bodyTooLarge(limit: exchange.limit)), failure: nil,
                        connection)
                }
                return MHD_Result.YES
            }
            if Double(MonotonicClock.nanoseconds() &- exchange.start) / 1e9 > configuration.requestTimeout {
                return answer(
                    exchange,
                    Response.error(
                        HTTPStatusError(
                            .requestTimeout, code: "request_timeout", message: "The request body took too long.")),
                    failure: nil, connection)
            }
            if let uploadData {
                exchange.body.append(UnsafeRawPointer(uploadData).assumingMemoryBound(to: UInt8.self), count: size)
            }
            return MHD_Result.YES
        }
        if exchange.answered { return MHD_Result.YES }
        if let response = exchange.pending.withLock({ $0.take() }) {
            return queue(exchange, response, connection)
        }
        if exchange.overflow > 0 {
            return answer(
                exchange, Response.error(HTTPStatusError.bodyTooLarge(limit: exchange.limit)), failure: nil, connection)
        }
        switch exchange.resolution {
        case .error(let error):
            return answer(exchange, Response.error(error), failure: nil, connection)
        case .route(let route, _):
            switch route.action {
            case .sync(let handler):
                let (response, failure) = Router.run(handler, exchange.request())
                return answer(exchange, response, failure: failure, connection)
            case .async(let handler):
                let request = exchange.request()
                let suspended = SuspendedConnection(pointer: connection)
                let router = self.router
                MHD_suspend_connection(connection)
                Task {
                    let (response, failure) = await Router.run(handler, request)
                    let finished = router.finish(
                        response, for: request, route: request.route, failure: failure, start: exchange.start)
                    exchange.pending.withLock { $0 = finished }
                    MHD_resume_connection(suspended.pointer)
                }
                return MHD_Result.YES
            }
        }
    }

    /// How many bytes past `limit` a body without `Content-Length` may send before the 413 is sent at once:
    /// the limit again, at least 1 MiB, at most 16 MiB.
    static func discardLimit(_ limit: Int) -> Int { min(max(limit, 1 << 20), 16 << 20) }

    /// Reads the request line and headers and routes them.
    private func begin(connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>) -> Exchange {
        let start = MonotonicClock.nanoseconds()
        let method = HTTPMethod(rawValue: String(cString: method))
        let path = String(cString: url)
        var headers = HTTPHeaders()
        _ = withUnsafeMutablePointer(to: &headers) { pointer in
            MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, collectHeader, pointer)
        }
        var query = QueryParameters()
        _ = withUnsafeMutablePointer(to: &query) { pointer in
            MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, collectQueryArgument, pointer)
        }
        let id = RequestID.accept(headers["X-Request-Id"]) ?? RequestID.make()
        let exchange = Exchange(
            start: start, method: method, path: path, query: query, headers: headers, id: id,
            resolution: router.resolve(method: method, path: path))
        return exchange
    }

    /// Answers 413 at once when `Content-Length` already exceeds the route's limit. Returns whether it answered.
    private func queueEarlyRefusal(_ exchange: Exchange, _ connection: OpaquePointer) -> Bool {
        guard case .route = exchange.resolution, let declared = exchange.headers["Content-Length"].flatMap(Int.init),
            declared > exchange.limit
        else { return false }
        _ = answer(
            exchange, Response.error(HTTPStatusError.bodyTooLarge(limit: exchange.limit)), failure: nil, connection)
        return true
    }

    /// Finishes (request id, access log) and queues a response.
    private func answer(_ exchange: Exchange, _ response: Response, failure: String?, _ connection: OpaquePointer)
        -> MHD_Result
    {
        let request = Request(
            method: exchange.method, path: exchange.path, query: exchange.query, headers: [:], body: Data(),
            id: exchange.id, remoteAddress: nil)
        let finished = router.finish(
            response, for: request, route: exchange.routeText, failure: failure, start: exchange.start)
        return queue(exchange, finished, connection)
    }

    /// Turns a finished ``Response`` into a libmicrohttpd response and queues it.
    private func queue(_ exchange: Exchange, _ response: Response, _ connection: OpaquePointer) -> MHD_Result {
        exchange.answered = true
        let native: OpaquePointer?
        switch response.body {
        case .empty:
            native = MHD_create_response_from_buffer(0, nil, MHD_ResponseMemoryMode.RESPMEM_PERSISTENT)
        case .bytes(let data):
            native = data.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(
                    buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                    MHD_ResponseMemoryMode.RESPMEM_MUST_COPY)
            }
        case .file(let file):
            let descriptor = file.take()
            native =
                descriptor >= 0
                ? MHD_create_response_from_fd_at_offset64(UInt64(file.length), descriptor, UInt64(file.offset)) : nil
            if native == nil, descriptor >= 0 { close(descriptor) }
        }
        guard let native else { return MHD_Result.NO }
        defer { MHD_destroy_response(native) }
        for (name, value) in response.headers where !Self.transportOwned(name) {
            _ = MHD_add_response_header(native, name, value)
        }
        if draining.load(ordering: .relaxed) { _ = MHD_add_response_header(native, "Connection", "close") }
        return MHD_queue_response(connection, UInt32(response.status.code), native)
    }

    /// Header fields the transport writes itself.
    private static func transportOwned(_ name: String) -> Bool {
        HTTPHeaders.equalNames(name, "Content-Length") || HTTPHeaders.equalNames(name, "Transfer-Encoding")
            || HTTPHeaders.equalNames(name, "Date")
    }
}

private let collectHeader: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return MHD_Result.YES }
    cls.assumingMemoryBound(to: HTTPHeaders.self).pointee.add(
        String(cString: key), value.map { String(cString: $0) } ?? "")
    return MHD_Result.YES
}

private let collectQueryArgument: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return MHD_Result.YES }
    cls.assumingMemoryBound(to: QueryParameters.self).pointee.add(
        PercentDecoding.decodeForm(String(cString: key)),
        value.map { PercentDecoding.decodeForm(String(cString: $0)) } ?? "")
    return MHD_Result.YES
}
