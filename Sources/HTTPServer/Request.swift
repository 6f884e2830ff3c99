import Foundation

/// One HTTP request as a handler sees it: method, path, query, headers, the whole body, and what routing found.
///
/// The transport builds it once the body is complete (bodies arrive in chunks and are collected up to the route's
/// `maxBodyBytes`); tests build it directly and pass it to a responder (`HTTPRouting`'s `Router.respond(to:)`).
public struct Request: Sendable {
    /// The request method. A `HEAD` request is routed to the `GET` route of its path.
    public var method: HTTPMethod
    /// The path as received, still percent-encoded, without the query: `/api/v1/runs/r%201`.
    public var path: String
    /// The query parameters, percent-decoded.
    public var query: QueryParameters
    /// The request header fields (case-insensitive lookup).
    public var headers: HTTPHeaders
    /// The request body bytes (empty when there is none).
    public var body: Data
    /// Path parameters filled in by routing, by name: `{runId}` in `/api/v1/runs/{runId}` → `parameters["runId"]`,
    /// percent-decoded. A trailing `{name...}` holds the rest of the path, still percent-encoded (see `StaticFiles`).
    public var parameters: [String: String]
    /// The pattern of the route that matched, for example `/api/v1/runs/{runId}` (empty before routing or if none
    /// matched). Use it as a low-cardinality label in metrics.
    public var route: String
    /// This request's id: the client's `X-Request-Id` if it is 1...64 characters of `[A-Za-z0-9._-]`, otherwise
    /// one the server made. Every response carries it back in `X-Request-Id`.
    public var id: String
    /// The peer address and port (`"127.0.0.1:53422"`, `"[::1]:53422"`); `nil` for requests made in-process.
    /// Formatted when read, so requests that never ask pay nothing.
    public var remoteAddress: String? {
        get { peer?.description }
        set { peer = newValue.map(PeerAddress.text) }
    }
    var peer: PeerAddress?

    /// Makes a request. `target` is a request target as on the request line: a path with an optional query
    /// (`/api/v1/runs?branch=main`).
    public init(
        method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: Data = Data(),
        id: String? = nil, remoteAddress: String? = nil
    ) {
        if let question = target.firstIndex(of: "?") {
            self.path = String(target[..<question])
            self.query = QueryParameters(parsing: target[target.index(after: question)...])
        } else {
            self.path = target
            self.query = QueryParameters()
        }
        self.method = method
        self.headers = headers
        self.body = body
        self.parameters = [:]
        self.route = ""
        self.id = RequestID.accept(id ?? headers["X-Request-Id"]) ?? RequestID.make()
        self.peer = remoteAddress.map(PeerAddress.text)
    }

    /// Makes a request whose path and query are already separated (the transport's way).
    public init(
        method: HTTPMethod, path: String, query: QueryParameters, headers: HTTPHeaders, body: Data, id: String,
        remoteAddress: String?
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.parameters = [:]
        self.route = ""
        self.id = id
        self.peer = remoteAddress.map(PeerAddress.text)
    }

    /// Decodes the body as JSON into `T`.
    ///
    /// - Throws: ``HTTPStatusError`` 400 `invalid_json` naming the decoding problem (never the body itself), or
    ///   415 `unsupported_media_type` when a `Content-Type` is present and is not JSON.
    public func decodeJSON<T: Decodable>(_ type: T.Type, using decoder: JSONDecoder = JSONDecoder()) throws -> T {
        if let contentType = headers["Content-Type"], !contentType.lowercased().contains("json") {
            throw HTTPStatusError(
                .unsupportedMediaType, code: "unsupported_media_type", message: "Expected a JSON body.")
        }
        do {
            return try decoder.decode(T.self, from: body)
        } catch let error as DecodingError {
            throw HTTPStatusError(.badRequest, code: "invalid_json", message: JSONProblem.describe(error, body: body))
        } catch {
            throw HTTPStatusError(.badRequest, code: "invalid_json", message: "The body is not valid JSON.")
        }
    }

    /// ``decodeJSON(_:using:)`` for a body whose top-level object takes only the keys `T` reads: any other key
    /// (a misspelling: `evnts` for `events`) is a 400 `invalid_json` naming it instead of being ignored. The keys
    /// `T` reads are those `encoder` writes for the decoded value, and those the body gives as `null`. For small
    /// bodies that configure something (a webhook, a quarantine entry), where an ignored key silently changes
    /// what is stored; uploads stay open to keys a newer reporter adds.
    ///
    /// - Throws: `HTTPStatusError` (415, 400).
    public func decodeJSONObject<T: Codable>(
        _ type: T.Type, using decoder: JSONDecoder = JSONDecoder(), encoder: JSONEncoder = JSONEncoder()
    ) throws -> T {
        let value = try decodeJSON(type, using: decoder)
        func object(_ data: Data?) -> [String: Any] {
            data.flatMap { try? JSONSerialization.jsonObject(with: $0) } as? [String: Any] ?? [:]
        }
        let read = object(try? encoder.encode(value))
        let unknown = object(body).filter { key, value in read[key] == nil && !(value is NSNull) }.keys.sorted()
        guard unknown.isEmpty else {
            let names = unknown.prefix(5).map { "'\($0.prefix(64))'" }.joined(separator: ", ")
            throw HTTPStatusError(
                .badRequest, code: "invalid_json",
                message: "Unknown key\(unknown.count == 1 ? "" : "s") \(names) in the body.")
        }
        return value
    }

    /// The path parameter `name`, or a 400 error naming it if routing did not fill it.
    public func parameter(_ name: String) throws -> String {
        guard let value = parameters[name] else {
            throw HTTPStatusError(.badRequest, code: "missing_parameter", message: "Missing path parameter '\(name)'.")
        }
        return value
    }
}

/// Turns a `DecodingError` into a message that names the field path and the problem, never the data.
enum JSONProblem {
    /// The message for `error`, thrown decoding `body`.
    ///
    /// Foundation's `JSONDecoder` on Linux reports a number that does not fit its field (`1.5` or `1e30` for an
    /// `Int`) as invalid JSON without a field path; when `JSONSerialization` reads `body` fine, the message says
    /// that instead.
    static func describe(_ error: DecodingError, body: Data) -> String {
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
            (try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])) != nil
        {
            return "A number does not fit its field (a fraction or an out-of-range number where an integer is expected)."
        }
        return describe(error)
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ codingPath: [any CodingKey]) -> String {
            // `events[0].name`: a member after a dot (not the first), an index in brackets.
            let joined = codingPath.enumerated().map { position, key in
                key.intValue.map { "[\($0)]" } ?? (position == 0 ? key.stringValue : "." + key.stringValue)
            }.joined()
            return joined.isEmpty ? "the body" : "'\(joined)'"
        }
        // JSON's names for what the decoder expected, not Swift's (`Array<Any>`, `Dictionary<String, Any>`).
        func json(_ type: Any.Type) -> String {
            switch type {
            case is String.Type: "a string"
            case is Bool.Type: "true or false"
            case is any BinaryInteger.Type: "an integer"
            case is any BinaryFloatingPoint.Type: "a number"
            default: "\(type)".hasPrefix("Array<") ? "an array" : "an object"
            }
        }
        switch error {
        case .typeMismatch(let type, let context):
            return "Wrong type at \(path(context.codingPath)): expected \(json(type))."
        case .valueNotFound(let type, let context):
            return "Missing value at \(path(context.codingPath)): expected \(json(type))."
        case .keyNotFound(let key, let context):
            return "Missing key '\(key.stringValue)' in \(path(context.codingPath))."
        case .dataCorrupted(let context):
            guard !context.codingPath.isEmpty else { return "The body is not valid JSON." }
            // A reason written for the sender (a `LocalizedError` underneath, e.g. `expected one of …`).
            let reason = (context.underlyingError as? any LocalizedError)?.errorDescription.map { ": " + $0 } ?? ""
            return "Invalid value at \(path(context.codingPath))\(reason)."
        @unknown default:
            return "The body is not valid JSON."
        }
    }
}
