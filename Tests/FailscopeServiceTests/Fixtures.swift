import FailscopeModel
import FailscopeTesting
import FailscopeService
import FailscopeStore
import Foundation
import HTTPRouting
import HTTPServer
import XCTest

let uploadToken = "upload-secret-1"
let readToken = "read-secret-1"

/// An application over a fresh store in a temporary folder, driven in-process.
final class TestService {
    let directory: URL
    let store: FailscopeStore
    let application: FailscopeApplication
    let log = InMemoryAccessLog()

    init(
        uploadTokens: [String] = [uploadToken], readToken: String? = nil, adminToken: String? = nil,
        webDirectory: URL? = nil
    ) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "failscope-service-\(UUID().uuidString)")
        store = try FailscopeStore(directory: directory)
        application = FailscopeApplication.build(
            ServiceConfiguration(
                uploadTokens: uploadTokens, readToken: readToken, adminToken: adminToken, webDirectory: webDirectory,
                maxRunBodyBytes: 4_096, maxBatchBodyBytes: 256 << 10, maxArtifactBytes: 1 << 20, accessLog: log),
            store: store)
    }

    deinit {
        store.close()
        try? FileManager.default.removeItem(at: directory)
    }

    func send(
        _ method: HTTPMethod, _ target: String, token: String? = uploadToken, contentType: String? = "application/json",
        body: Data = Data(), headers extra: HTTPHeaders = [:]
    ) async -> Response {
        var headers = extra
        if let token { headers["Authorization"] = "Bearer \(token)" }
        if let contentType, !body.isEmpty { headers["Content-Type"] = contentType }
        return await application.router.respond(
            to: Request(method: method, target: target, headers: headers, body: body))
    }

    func send<T: Encodable>(_ method: HTTPMethod, _ target: String, json value: T, token: String? = uploadToken)
        async throws
        -> Response
    {
        await send(method, target, token: token, body: try WireCoding.encoder().encode(value))
    }
}

extension Response {
    func decode<T: Decodable>(_ type: T.Type, file: StaticString = #filePath, line: UInt = #line) throws -> T {
        do {
            return try WireCoding.decoder().decode(T.self, from: try bodyBytes())
        } catch {
            XCTFail("cannot decode \(T.self) from \(status): \(bodyText)", file: file, line: line)
            throw error
        }
    }

    /// The `error.code` of a JSON error body.
    var errorCode: String? { (try? decode(APIErrorBody.self))?.error.code }
    /// The `error.message` of a JSON error body.
    var errorMessage: String? { (try? decode(APIErrorBody.self))?.error.message }
}

let referenceDate = Date(timeIntervalSince1970: 1_764_400_000)

func sampleRun(id: String = "run-1", project: String = "Shop", branch: String = "main") -> Run {
    Run(id: id, project: project, branch: branch, commit: "abc123", device: "iPhone 15", startedAt: referenceDate)
}

func failingResult(name: String = "testWrongPassword", screenshot: String? = nil) -> TestResult {
    TestResult(
        suite: "LoginTests", name: name, status: .failed, startedAt: referenceDate.addingTimeInterval(3),
        duration: 1.25,
        failures: [
            Failure(
                message: "Expected the error label", location: SourceLocation(file: "/src/LoginTests.swift", line: 42),
                page: "LoginPage", action: "tapLogin()",
                callSite: SourceLocation(file: "/src/LoginTests.swift", line: 40),
                elementFrame: Frame(x: 16, y: 300, width: 361, height: 50))
        ],
        trail: [
            TrailStep(
                page: "LoginPage", action: "tapLogin()",
                callSite: SourceLocation(file: "/src/LoginTests.swift", line: 40))
        ],
        artifacts: screenshot.map { [ArtifactRef(sha256: $0, kind: .screenshot, byteCount: 10, width: 4, height: 3)] }
            ?? [])
}

