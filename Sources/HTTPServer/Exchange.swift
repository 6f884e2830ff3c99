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
    let peer: PeerAddress?
    /// What to do once the request is read: run the accepted route's handler, or answer an error (the responder's
    /// 404, 405, 400 or refusal, or the transport's own 414, 431, 400).
    enum Plan: Sendable {
        case run(route: String, parameters: [String: String], handler: RequestHandler)
        case error(HTTPStatusError)
    }
    let plan: Plan
    /// The largest body accepted, in bytes (0 for an error: such requests take no body).
    let limit: Int
    /// The body received so far (in memory, or a temporary file past the configured size).
    var body: BodyBuffer
    /// Bytes received beyond the route's limit (then discarded); nonzero means the answer is 413.
    var overflow = 0
    /// Whether a response has been queued (or the request refused); later calls only drain the upload.
    var answered = false
    /// The response of an async handler, set by its task before `MHD_resume_connection`.
    let pending = Mutex<Response?>(nil)

    init(
        start: UInt64, method: HTTPMethod, path: String, query: QueryParameters, headers: HTTPHeaders, id: String,
        peer: PeerAddress?, plan: Plan, limit: Int, body: BodyBuffer
    ) {
        self.start = start
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.id = id
        self.peer = peer
        self.plan = plan
        self.limit = limit
        self.body = body
    }

    /// The request as handlers see it.
    /// - Throws: what ``BodyBuffer/data()`` throws (507 when the body could not be written to disk).
    func request() throws -> Request {
        var request = Request(
            method: method, path: path, query: query, headers: headers, body: try body.data(), id: id,
            remoteAddress: nil)
        request.peer = peer
        if case .run(let route, let parameters, _) = plan {
            request.parameters = parameters
            request.route = route
        }
        return request
    }

    /// The answer to a body that went over the limit: the routing error (404, 405, 400; such requests accept no
    /// body), otherwise 413.
    var rejection: Response {
        if case .error(let error) = plan { return Response.error(error) }
        return Response.error(HTTPStatusError.bodyTooLarge(limit: limit))
    }

    /// Whether the head announces a body.
    var announcesBody: Bool { Dispatcher.announcesBody(headers) }

    var routeText: String {
        if case .run(let route, _, _) = plan { return route }
        return ""
    }

    /// Adds the request id and logs, through the responder.
    func finish(_ response: Response, responder: any Responder, failure: String?) -> Response {
        responder.finish(
            response, method: method, path: path, id: id, route: routeText, failure: failure, start: start)
    }
}
