import FailscopeModel
import FailscopeService
import FailscopeStore
import Foundation
import HTTPRouting
import HTTPServer

/// The application over a fresh SQLite store whose artifacts are in `artifacts`, driven in-process.
final class S3Service {
    static let token = "upload-token-s3"
    let directory: URL
    let store: FailscopeStore
    let application: FailscopeApplication
    let log = InMemoryAccessLog()

    /// A service over a new data folder, or over `directory` (a second replica of the same SQLite database).
    init(artifacts: (any ArtifactStorage)?, directory: URL? = nil) throws {
        let folder = try directory ?? makeTemporaryDirectory()
        self.directory = folder
        store = try FailscopeStore(directory: folder, artifacts: artifacts)
        application = FailscopeApplication.build(
            ServiceConfiguration(uploadTokens: [Self.token], accessLog: log), store: store)
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(at: directory)
    }

    func send(
        _ method: HTTPMethod, _ target: String, contentType: String? = nil, body: [UInt8] = [],
        headers extra: HTTPHeaders = [:]
    ) async -> Response {
        var headers = extra
        if method != .GET { headers["Authorization"] = "Bearer \(Self.token)" }
        if let contentType { headers["Content-Type"] = contentType }
        return await application.router.respond(
            to: Request(method: method, target: target, headers: headers, body: Data(body)))
    }

    /// Uploads `png` as a screenshot.
    func upload(_ png: [UInt8]) async -> Response {
        await send(.PUT, "/api/v1/artifacts/\(SHA256.hex(of: png))", contentType: "image/png", body: png)
    }

    /// A run with one failing result whose screenshot is `sha256`.
    func reportFailure(run: String, screenshot sha256: String, byteCount: Int) async throws -> Response {
        let runBody = try WireCoding.encoder().encode(
            Run(id: run, project: "Shop", branch: "main", commit: "abc", device: "iPhone", startedAt: Date()))
        _ = await send(.PUT, "/api/v1/runs/\(run)", contentType: "application/json", body: [UInt8](runBody))
        let result = TestResult(
            suite: "LoginTests", name: "testLogin", status: .failed, startedAt: Date(), duration: 1,
            artifacts: [ArtifactRef(sha256: sha256, kind: .screenshot, byteCount: byteCount)])
        let batch = try WireCoding.encoder().encode(ResultBatch(results: [result]))
        return await send(.POST, "/api/v1/runs/\(run)/results", contentType: "application/json", body: [UInt8](batch))
    }
}
