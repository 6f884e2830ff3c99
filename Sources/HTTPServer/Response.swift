import Foundation

/// One HTTP response: status, header fields and a body of bytes or an open file.
///
/// The transport adds `Content-Length` (and `Date`) itself; handlers set `Content-Type` and any other fields.
/// The router adds `X-Request-Id` to every response.
public struct Response: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: ResponseBody

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: ResponseBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The response `prepared` stands for: its status, its header fields and its body (see ``PreparedResponse``).
    public init(prepared: PreparedResponse) {
        self.init(status: prepared.status, headers: prepared.headers, body: .prepared(prepared))
    }

    /// A response whose body is `bytes`, with `Content-Type: contentType`.
    public static func bytes(
        _ bytes: Data, contentType: String, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]
    ) -> Response {
        var headers = headers
        headers["Content-Type"] = contentType
        return Response(status: status, headers: headers, body: .bytes(bytes))
    }

    /// A `text/plain; charset=utf-8` response.
    public static func text(_ text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> Response {
        bytes(Data(text.utf8), contentType: "text/plain; charset=utf-8", status: status, headers: headers)
    }

    /// An `application/json` response of `value` encoded by `encoder`.
    ///
    /// - Throws: the encoder's `EncodingError` (a programmer error in the value; the router turns it into a 500).
    public static func json<T: Encodable>(
        _ value: T, status: HTTPStatus = .ok, headers: HTTPHeaders = [:], encoder: JSONEncoder = JSONEncoder()
    ) throws -> Response {
        bytes(try encoder.encode(value), contentType: "application/json", status: status, headers: headers)
    }

    /// The JSON error response for `error`: its status and headers, `X-Content-Type-Options: nosniff`, body
    /// `{"error":{"code":…,"message":…}}`.
    public static func error(_ error: some HTTPError) -> Response {
        var response = bytes(
            ErrorBody.encode(code: error.code, message: error.message), contentType: "application/json",
            status: error.status, headers: error.headers)
        // The message may quote client text (a path); never let a browser sniff it as HTML.
        response.headers["X-Content-Type-Options"] = "nosniff"
        if error.status.forbidsBody { response.body = .empty }
        return response
    }

    /// The body length in bytes.
    public var bodyLength: Int {
        switch body {
        case .empty: 0
        case .bytes(let data): data.count
        case .file(let file): file.length
        case .shared(let bytes): bytes.count
        case .prepared(let prepared): prepared.body.count
        }
    }

    /// The body's bytes (reads a file body from its file; for tests and small bodies).
    public func bodyBytes() throws -> Data {
        switch body {
        case .empty: Data()
        case .bytes(let data): data
        case .file(let file): try file.readAll()
        case .shared(let bytes): bytes.data
        case .prepared(let prepared): prepared.body.data
        }
    }

    /// The body as UTF-8 text (invalid bytes repaired); for tests.
    public var bodyText: String {
        String(decoding: (try? bodyBytes()) ?? Data(), as: UTF8.self)
    }
}

/// The body of a ``Response``.
public enum ResponseBody: Sendable {
    /// No body (`Content-Length: 0`).
    case empty
    /// Bytes held in memory; the transport copies them once into the response.
    case bytes(Data)
    /// A byte range of an open file; the transport sends it with `sendfile(2)` and closes the file.
    case file(OpenFile)
    /// Immutable bytes shared by many responses (a cache entry): the transport sends them without copying,
    /// header and body in one `sendmsg(2)`, and keeps them alive until libmicrohttpd is done with them.
    case shared(SharedBytes)
    /// The body of a ``PreparedResponse``, whose status and fixed header fields the transport sends as they are.
    case prepared(PreparedResponse)
}

/// An immutable byte buffer that many responses may send at once without copying it (for example a cached file).
public final class SharedBytes: Sendable {
    private nonisolated(unsafe) let storage: UnsafeMutableRawBufferPointer
    /// The number of bytes.
    public let count: Int

    /// Copies `data` once.
    public init(_ data: Data) {
        count = data.count
        storage = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        data.withUnsafeBytes { source in
            if let base = source.baseAddress { storage.baseAddress!.copyMemory(from: base, byteCount: source.count) }
        }
    }

    deinit { storage.deallocate() }

    /// The first byte (valid while this object lives).
    var baseAddress: UnsafeMutableRawPointer { storage.baseAddress! }

    /// A copy of the bytes.
    public var data: Data { Data(bytes: storage.baseAddress!, count: count) }
}

/// The JSON error body `{"error":{"code":"…","message":"…"}}`.
enum ErrorBody {
    private struct Envelope: Encodable {
        struct Inner: Encodable {
            let code: String
            let message: String
        }
        let error: Inner
    }

    static func encode(code: String, message: String) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding two strings cannot fail.
        return (try? encoder.encode(Envelope(error: .init(code: code, message: message)))) ?? Data()
    }
}
