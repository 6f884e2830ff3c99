import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A libmicrohttpd connection handed to an async handler's task, to resume it; libmicrohttpd allows
/// `MHD_resume_connection` from any thread.
struct SuspendedConnection: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// What libmicrohttpd calls back: checks each request head and asks the responder about it, collects the body,
/// runs the accepted handler and queues its response; counts requests in flight for a graceful shutdown. Shared by
/// all worker threads.
final class Dispatcher: Sendable {
    let responder: any Responder
    let configuration: HTTPServerConfiguration
    let inFlight = Atomic<Int>(0)
    let draining = Atomic<Bool>(false)
    /// Signalled when draining and the last in-flight request ends.
    let drained = DispatchSemaphore(value: 0)

    init(responder: any Responder, configuration: HTTPServerConfiguration) {
        self.responder = responder
        self.configuration = configuration
    }

    /// The request-completed callback's share: one request fewer in flight.
    func requestCompleted() {
        let remaining = inFlight.subtract(1, ordering: .sequentiallyConsistent).newValue
        if remaining == 0, draining.load(ordering: .sequentiallyConsistent) { drained.signal() }
    }

    /// The access handler: called once with the headers, once per body chunk, once at the end of the body, and
    /// once more after a resume.
    func handle(
        connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>,
        version: UnsafePointer<CChar>, uploadData: UnsafePointer<CChar>?, uploadDataSize: UnsafeMutablePointer<Int>,
        state: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    ) -> MHD_Result {
        guard let existing = state.pointee, fs_mhd_is_uri_tag(existing) == 0 else {
            // The first call: `state` holds the tag the URI callback made from the raw request target.
            let problem = fs_mhd_head_problem(connection, method, url, version, state.pointee)
            let record = ConnectionDeadlines.record(of: connection)
            let exchange = begin(connection: connection, url: url, method: method, headProblem: problem)
            state.pointee = Unmanaged.passRetained(exchange).toOpaque()
            inFlight.add(1, ordering: .relaxed)
            if !queueEarlyRefusal(exchange, connection), exchange.announcesBody {
                record?.enter(.receivingBody)
            } else {
                record?.enter(.answering)
            }
            return MHD_Result.YES
        }
        let exchange = Unmanaged<Exchange>.fromOpaque(existing).takeUnretainedValue()
        let size = uploadDataSize.pointee
        if size > 0 {
            uploadDataSize.pointee = 0
            if exchange.answered { return MHD_Result.YES }
            ConnectionDeadlines.record(of: connection)?.bodyBytes.add(size, ordering: .relaxed)
            if exchange.overflow > 0 || exchange.body.count + size > exchange.limit {
                // A body without Content-Length went over the limit. libmicrohttpd 0.9.75 closes the connection
                // without sending a response queued in the middle of a body, so discard up to `discardLimit` more
                // bytes and answer at the end of the body (the connection stays usable). A client that keeps
                // sending past that is cut off.
                exchange.overflow += size
                exchange.body = BodyBuffer(memoryLimit: 0, directory: "")
                if exchange.overflow > Self.discardLimit(exchange.limit) {
                    return abort(exchange, exchange.rejection)
                }
                return MHD_Result.YES
            }
            if Double(MonotonicClock.nanoseconds() &- exchange.start) / 1e9 > configuration.requestTimeout {
                return abort(
                    exchange,
                    Response.error(
                        HTTPStatusError(
                            .requestTimeout, code: "request_timeout", message: "The request body took too long.")))
            }
            if let uploadData { exchange.body.append(UnsafeRawPointer(uploadData), count: size) }
            return MHD_Result.YES
        }
        if exchange.answered { return MHD_Result.YES }
        ConnectionDeadlines.record(of: connection)?.enter(.answering)
        if let response = exchange.pending.withLock({ $0.take() }) {
            return queue(exchange, response, connection)
        }
        if exchange.overflow > 0 { return answer(exchange, exchange.rejection, failure: nil, connection) }
        switch exchange.plan {
        case .error(let error):
            return answer(exchange, Response.error(error), failure: nil, connection)
        case .run(_, _, let handler):
            let request: Request
            do { request = try exchange.request() } catch {
                return answer(exchange, Self.response(to: error), failure: nil, connection)
            }
            switch handler {
            case .sync(let run):
                let (response, failure) = run(request)
                return answer(exchange, response, failure: failure, connection)
            case .async(let run):
                let suspended = SuspendedConnection(pointer: connection)
                let responder = self.responder
                MHD_suspend_connection(connection)
                Task {
                    let (response, failure) = await run(request)
                    let finished = responder.finish(
                        response, method: request.method, path: request.path, id: request.id, route: request.route,
                        failure: failure, start: exchange.start)
                    exchange.pending.withLock { $0 = finished }
                    MHD_resume_connection(suspended.pointer)
                }
                return MHD_Result.YES
            }
        }
    }

    /// The answer to an error reading the request (507 when its body could not be written to disk).
    static func response(to error: any Error) -> Response {
        if let error = error as? any HTTPError { return Response.error(error) }
        return Response.error(HTTPStatusError.internalError)
    }

    /// How many bytes past `limit` a body without `Content-Length` may send before the 413 is sent at once:
    /// the limit again, at least 1 MiB, at most 16 MiB.
    static func discardLimit(_ limit: Int) -> Int { min(max(limit, 1 << 20), 16 << 20) }

    /// Reads the request line and headers and asks the responder about them; `headProblem` is what
    /// ``fs_mhd_head_problem`` found.
    private func begin(
        connection: OpaquePointer, url: UnsafePointer<CChar>, method: UnsafePointer<CChar>, headProblem: Int32
    ) -> Exchange {
        let start = MonotonicClock.nanoseconds()
        let method = HTTPMethod(rawValue: String(cString: method))
        let path = String(cString: url)
        var headers = HTTPHeaders()
        _ = withUnsafeMutablePointer(to: &headers) { pointer in
            MHD_get_connection_values(connection, MHD_ValueKind.HEADER_KIND, collectHeader, pointer)
        }
        var query = QueryCollector()
        _ = withUnsafeMutablePointer(to: &query) { pointer in
            MHD_get_connection_values(connection, MHD_ValueKind.GET_ARGUMENT_KIND, collectQueryArgument, pointer)
        }
        let id = RequestID.accept(headers["X-Request-Id"]) ?? RequestID.make()
        let peer = PeerAddress(fs_mhd_client_address(connection))
        let plan: Exchange.Plan
        var limit = 0
        if let refusal = Self.oversize(uriBytes: path.utf8.count + query.rawBytes, headers: headers, configuration)
            ?? Self.malformedHead(headProblem) ?? Self.ambiguousLength(headers)
        {
            plan = .error(refusal)
        } else {
            var head = Request(
                method: method, path: path, query: query.parameters, headers: headers, body: Data(), id: id,
                remoteAddress: nil)
            head.peer = peer
            switch responder.decide(head: head) {
            case .accept(let route, let parameters, let maxBodyBytes, let handler):
                precondition(maxBodyBytes >= 0, "maxBodyBytes must not be negative")
                plan = .run(route: route, parameters: parameters, handler: handler)
                limit = maxBodyBytes
            case .answer(let error):
                plan = .error(error)
            case .refuse(let refusal):
                // A body the client was not allowed to send is not read: the answer closes the connection.
                let closes = Self.announcesBody(headers) ? ["Connection": "close"] : HTTPHeaders()
                plan = .error(HTTPStatusError(refusal, adding: closes))
            }
        }
        let exchange = Exchange(
            start: start, method: method, path: path, query: query.parameters, headers: headers, id: id,
            peer: peer, plan: plan, limit: limit,
            body: BodyBuffer(memoryLimit: configuration.bodyMemoryLimit, directory: configuration.bodySpoolDirectory))
        return exchange
    }

    /// Whether the request head announces a body (`Content-Length` above 0, or any `Transfer-Encoding`).
    static func announcesBody(_ headers: HTTPHeaders) -> Bool {
        headers.contains("Transfer-Encoding") || headers.values(for: "Content-Length").contains { $0 != "0" }
    }

    /// The 400 for a request head that holds NUL or other control bytes (see `fs_mhd_head_problem`), or `nil`.
    /// libmicrohttpd reads such a head only up to the NUL, so what a proxy in front saw and what the service reads
    /// would differ; the answer closes the connection.
    static func malformedHead(_ problem: Int32) -> HTTPStatusError? {
        switch problem {
        case 0: return nil
        case 1:
            return HTTPStatusError(
                .badRequest, code: "invalid_target",
                message: "The request target contains a NUL byte, a control character or a space.",
                headers: ["Connection": "close"])
        default:
            return HTTPStatusError(
                .badRequest, code: "invalid_header",
                message: "A request header field contains a NUL byte or a control character, or is malformed.",
                headers: ["Connection": "close"])
        }
    }

    /// The JSON error for a request target or header block over the configured limits, or `nil`. These limits sit
    /// below libmicrohttpd's own (its connection buffer), so such requests get the service's JSON error shape
    /// instead of libmicrohttpd's HTML page.
    static func oversize(uriBytes: Int, headers: HTTPHeaders, _ configuration: HTTPServerConfiguration)
        -> HTTPStatusError?
    {
        if uriBytes > configuration.maxURIBytes {
            return HTTPStatusError(
                .uriTooLong, code: "uri_too_long",
                message: "The request target is longer than \(configuration.maxURIBytes) bytes.")
        }
        var headerBytes = 0
        for field in headers.fields { headerBytes += field.name.utf8.count + field.value.utf8.count + 4 }
        if headers.count > configuration.maxHeaderCount || headerBytes > configuration.maxHeaderBytes {
            return HTTPStatusError(
                .requestHeaderFieldsTooLarge, code: "headers_too_large",
                message:
                    "The request header fields exceed \(configuration.maxHeaderBytes) bytes or "
                    + "\(configuration.maxHeaderCount) fields.")
        }
        return nil
    }

    /// The 400 for a request whose body length is ambiguous (RFC 9112 §6.3): `Content-Length` fields that
    /// disagree or are not a number, `Content-Length` together with `Transfer-Encoding`, or a
    /// `Transfer-Encoding` that does not end with `chunked`. libmicrohttpd uses
    /// the first length; a proxy in front may use another, so the rest of the connection cannot be trusted:
    /// the answer closes it.
    static func ambiguousLength(_ headers: HTTPHeaders) -> HTTPStatusError? {
        let lengths = headers.values(for: "Content-Length")
            .flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let codings = headers.values(for: "Transfer-Encoding").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        // A transfer coding whose last step is not chunked leaves the end of the body unknown (§6.3, item 4).
        if let last = codings.last, last != "chunked" {
            return HTTPStatusError(
                .badRequest, code: "ambiguous_length",
                message: "The request's Transfer-Encoding does not end with chunked; its length is unknown.",
                headers: ["Connection": "close"])
        }
        guard !lengths.isEmpty else { return nil }
        let numeric = lengths.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 48 && $0 <= 57 } }
        if Set(lengths).count > 1 || !numeric || !codings.isEmpty {
            return HTTPStatusError(
                .badRequest, code: "ambiguous_length",
                message: "The request has conflicting Content-Length or Transfer-Encoding header fields.",
                headers: ["Connection": "close"])
        }
        return nil
    }

    /// Answers at once when `Content-Length` already exceeds the route's limit (413), or a request that routing
    /// refused announces more than the discard allowance (its routing error). Returns whether it answered.
    private func queueEarlyRefusal(_ exchange: Exchange, _ connection: OpaquePointer) -> Bool {
        // An error that closes the connection need not wait for a body it would not trust.
        if case .error(let error) = exchange.plan, error.headers["Connection"] == "close" {
            _ = answer(exchange, exchange.rejection, failure: nil, connection)
            return true
        }
        guard let declared = exchange.headers["Content-Length"].flatMap(Int.init) else { return false }
        switch exchange.plan {
        case .run: guard declared > exchange.limit else { return false }
        case .error: guard declared > Self.discardLimit(0) else { return false }
        }
        _ = answer(exchange, exchange.rejection, failure: nil, connection)
        return true
    }

    /// Closes the connection in the middle of a body (the response cannot be sent then; see above) and logs the
    /// status it stands for, with 0 bytes.
    private func abort(_ exchange: Exchange, _ response: Response) -> MHD_Result {
        exchange.answered = true
        var unsent = response
        unsent.body = .empty
        _ = exchange.finish(unsent, responder: responder, failure: nil)
        return MHD_Result.NO
    }

    /// Finishes (request id, access log) and queues a response.
    private func answer(_ exchange: Exchange, _ response: Response, failure: String?, _ connection: OpaquePointer)
        -> MHD_Result
    {
        return queue(exchange, exchange.finish(response, responder: responder, failure: failure), connection)
    }

    /// Turns a finished ``Response`` into a libmicrohttpd response and queues it.
    private func queue(_ exchange: Exchange, _ response: Response, _ connection: OpaquePointer) -> MHD_Result {
        exchange.answered = true
        let draining = self.draining.load(ordering: .relaxed)
        if case .prepared(let prepared) = response.body, !draining {
            guard let native = prepared.nativeResponse() else { return MHD_Result.NO }
            return MHD_queue_response(connection, UInt32(prepared.status.code), native)
        }
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
        case .shared(let bytes):
            native = makeNativeResponse(bytes)
        case .prepared(let prepared):
            native = makeNativeResponse(prepared.body)
        }
        guard let native else { return MHD_Result.NO }
        defer { MHD_destroy_response(native) }
        addHeaders(response.headers, to: native)
        if draining { _ = MHD_add_response_header(native, "Connection", "close") }
        return MHD_queue_response(connection, UInt32(response.status.code), native)
    }
}

private let collectHeader: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return MHD_Result.YES }
    cls.assumingMemoryBound(to: HTTPHeaders.self).pointee.add(
        String(cString: key), value.map { String(cString: $0) } ?? "")
    return MHD_Result.YES
}

/// The query parameters of a request and the bytes they took in the request target (still encoded: the server's
/// unescape callback leaves them so).
struct QueryCollector {
    var parameters = QueryParameters()
    var rawBytes = 0
}

private let collectQueryArgument: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return MHD_Result.YES }
    let rawKey = String(cString: key)
    let rawValue = value.map { String(cString: $0) }
    let collector = cls.assumingMemoryBound(to: QueryCollector.self)
    // "?" or "&", the key, "=" and the value.
    collector.pointee.rawBytes += 1 + rawKey.utf8.count + (rawValue.map { 1 + $0.utf8.count } ?? 0)
    collector.pointee.parameters.add(PercentDecoding.decodeForm(rawKey), rawValue.map(PercentDecoding.decodeForm) ?? "")
    return MHD_Result.YES
}
