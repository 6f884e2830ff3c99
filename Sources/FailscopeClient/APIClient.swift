import FailscopeModel
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The URLSession client of the Failscope API (`/api/v1`, OpenAPI document at
/// `/api/v1/openapi.json`): ingest calls with a bearer token, JSON through `WireCoding`.
///
/// Errors: `APIClientError.transport` when the service cannot be reached (refused, timed out),
/// `.status` with the server's `{"error": {"code", "message"}}` for an error status.
public struct APIClient: IngestAPI {
    public let baseURL: URL
    public let token: String?
    /// Seconds before a request without an answer fails.
    public var timeout: Double
    private let session: URLSession

    public init(baseURL: URL, token: String?, timeout: Double = 30) {
        self.baseURL = baseURL
        self.token = token
        self.timeout = timeout
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout * 4
        session = URLSession(configuration: configuration)
    }

    public func putRun(_ run: Run) async throws {
        _ = try await send("PUT", "api/v1/runs/\(escaped(run.id))", json: run)
    }

    public func postResults(runID: String, batch: ResultBatch) async throws {
        _ = try await send(
            "POST", "api/v1/runs/\(escaped(runID))/results", body: WireJSONWriter.encode(batch),
            contentType: "application/json")
    }

    public func artifactExists(sha256: String) async throws -> Bool {
        let (status, _) = try await send("HEAD", "api/v1/artifacts/\(sha256)", allowing: [404])
        return status != 404
    }

    public func putArtifact(sha256: String, data: Data, contentType: String) async throws {
        _ = try await send("PUT", "api/v1/artifacts/\(sha256)", body: data, contentType: contentType)
    }

    public func finishRun(runID: String, finish: RunFinish) async throws {
        _ = try await send("POST", "api/v1/runs/\(escaped(runID))/finish", json: finish)
    }

    public func dashboardURL(runID: String) -> String {
        baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/#/runs/\(escaped(runID))"
    }

    /// `GET path` (with a query string) and the decoded JSON answer.
    public func get<T: Decodable>(_ type: T.Type, _ path: String, query: [String: String] = [:]) async throws -> T {
        var components = URLComponents(url: url(path), resolvingAgainstBaseURL: false)!
        if !query.isEmpty { components.queryItems = query.sorted { $0.key < $1.key }.map(URLQueryItem.init) }
        let (_, data) = try await send("GET", components.url!)
        do {
            return try WireCoding.decoder().decode(T.self, from: data)
        } catch {
            throw APIClientError.invalidResponse("\(path): \(error)")
        }
    }

    /// `method path` with `body` as JSON (`WireCoding`), and the decoded JSON answer (writes such as the quarantine's).
    public func send<T: Decodable>(_ type: T.Type, _ method: String, _ path: String, json body: some Encodable)
        async throws -> T
    {
        let (_, data) = try await send(method, path, json: body)
        do {
            return try WireCoding.decoder().decode(T.self, from: data)
        } catch {
            throw APIClientError.invalidResponse("\(path): \(error)")
        }
    }

    // MARK: Requests

    private func escaped(_ segment: String) -> String {
        segment.addingPercentEncoding(
            withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? segment
    }

    private func url(_ path: String) -> URL {
        URL(
            string: path,
            relativeTo: baseURL.absoluteString.hasSuffix("/") ? baseURL : baseURL.appendingPathComponent(""))!
            .absoluteURL
    }

    private func send(_ method: String, _ path: String, json: some Encodable) async throws -> (Int, Data) {
        try await send(method, path, body: try WireCoding.encoder().encode(json), contentType: "application/json")
    }

    private func send(
        _ method: String, _ path: String, body: Data? = nil, contentType: String? = nil, allowing: Set<Int> = []
    ) async throws -> (Int, Data) {
        try await send(method, url(path), body: body, contentType: contentType, allowing: allowing)
    }

    private func send(
        _ method: String, _ url: URL, body: Data? = nil, contentType: String? = nil, allowing: Set<Int> = []
    ) async throws -> (Int, Data) {
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw APIClientError.transport("\(method) \(url.absoluteString): \(error.localizedDescription)")
        }
        guard let http = response as? HTTPURLResponse else {
            throw APIClientError.invalidResponse("\(method) \(url.absoluteString): not HTTP")
        }
        if (200..<300).contains(http.statusCode) || allowing.contains(http.statusCode) {
            return (http.statusCode, data)
        }
        let error = try? JSONDecoder().decode(ErrorBody.self, from: data)
        throw APIClientError.status(
            code: http.statusCode, errorCode: error?.error.code ?? "http_\(http.statusCode)",
            message: error?.error.message ?? HTTPURLResponse.localizedString(forStatusCode: http.statusCode))
    }

    private struct ErrorBody: Decodable {
        struct Detail: Decodable {
            var code: String
            var message: String
        }
        var error: Detail
    }
}
