import FailscopeModel
import FailscopeObjectStore
import FailscopeService
import FailscopeStore
import FailscopeTesting
import Foundation
import HTTPRouting
import HTTPServer
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The object store failing under the service: wrong credentials, a missing bucket, a store that does not answer
/// in time, and one killed and started again. Uploads get 503 JSON with `Retry-After` (the reporter keeps its spool
/// and retries), reads 502/503 JSON, `/healthz` and `/metrics` name the failing dependency, no output carries a
/// credential, and everything works again when the store is back.
final class S3FaultTests: XCTestCase {
    private let wrongSecret = "wrong-secret-\(UUID().uuidString)"

    func testWrongCredentialsAre503WithoutTheSecretAnywhere() async throws {
        let server = try S3TestServer()
        let good = try server.storage()
        // A stored artifact with its row, then the same data folder served with a wrong secret.
        let png = TestPNG.make(width: 40, height: 40, red: 9)
        let sha = SHA256.hex(of: png)
        let data = try makeTemporaryDirectory()
        do {
            let store = try FailscopeStore(directory: data, artifacts: good)
            try store.putArtifact(png, sha256: sha, mediaType: "image/png")
            store.close()
        }
        var bad = good.configuration
        bad.secretAccessKey = wrongSecret
        let badStorage = try S3ArtifactStorage(configuration: bad, cacheDirectory: try makeTemporaryDirectory())
        let store = try FailscopeStore(directory: data, artifacts: badStorage)
        defer { store.close() }
        let log = InMemoryAccessLog()
        let application = FailscopeApplication.build(
            ServiceConfiguration(uploadTokens: [S3Service.token], accessLog: log), store: store)
        func send(_ method: HTTPMethod, _ target: String, body: [UInt8] = []) async -> Response {
            await application.router.respond(
                to: Request(
                    method: method, target: target,
                    headers: ["Authorization": "Bearer \(S3Service.token)", "Content-Type": "image/png"],
                    body: Data(body)))
        }

        let other = TestPNG.make(width: 41, height: 40)
        let upload = await send(.PUT, "/api/v1/artifacts/\(SHA256.hex(of: other))", body: other)
        XCTAssertEqual(upload.status, .serviceUnavailable)
        XCTAssertEqual(upload.headers["Retry-After"], "5")
        XCTAssertEqual(upload.headers["Content-Type"], "application/json")
        XCTAssertTrue(upload.bodyText.contains("\"artifact_storage_unavailable\""), upload.bodyText)

        let read = await send(.GET, "/artifacts/\(sha).png")
        XCTAssertEqual(read.status, .badGateway, read.bodyText)
        XCTAssertTrue(read.bodyText.contains("\"artifact_storage_error\""), read.bodyText)
        let info = await send(.GET, "/api/v1/artifacts/\(sha)")
        XCTAssertEqual(info.status, .badGateway)

        let health = await send(.GET, "/healthz")
        XCTAssertEqual(health.status, .serviceUnavailable)
        XCTAssertTrue(health.bodyText.contains("artifact storage"), health.bodyText)
        XCTAssertTrue(health.bodyText.contains("refused the credentials"), health.bodyText)
        let metrics = await send(.GET, "/metrics")
        XCTAssertTrue(metrics.bodyText.contains("failscope_dependency_up{dependency=\"artifact_storage\"} 0"))
        XCTAssertTrue(metrics.bodyText.contains("failscope_dependency_up{dependency=\"database\"} 1"))

        // No credential in any answer, in the access log or in the errors' descriptions.
        var outputs = [upload, read, info, health, metrics].map(\.bodyText)
        outputs += log.entries.map { "\($0)" }
        do { try badStorage.checkHealth() } catch { outputs.append("\(error)") }
        for output in outputs {
            for secret in [wrongSecret, good.configuration.secretAccessKey] {
                XCTAssertFalse(output.contains(secret), "a secret in: \(output)")
            }
        }
        try good.remove(sha256: sha)
    }

    func testTheCommandLineNeverPrintsTheSecret() throws {
        let server = try S3TestServer()
        let data = try makeTemporaryDirectory()
        let process = Process()
        process.executableURL = try Self.binary()
        process.arguments = ["gc", "--keep-days", "1", "--data", data.path, "--artifacts", server.url + "/cli"]
        var environment = server.environment
        environment["AWS_SECRET_ACCESS_KEY"] = wrongSecret
        process.environment = environment
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errText = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 69, errText)
        XCTAssertTrue(errText.contains("refused the credentials"), errText)
        XCTAssertFalse(outText.contains(wrongSecret) || errText.contains(wrongSecret), errText)
    }

    func testAMissingBucketIsNamed() async throws {
        // (SeaweedFS creates a missing bucket on the first PUT of an identity allowed to administer it, so only the
        // health check is asserted here.)
        let bucket = "failscope-missing-\(UUID().uuidString.prefix(8).lowercased())"
        let service = try S3Service(artifacts: try S3TestServer().storage(bucket: bucket))
        let health = await service.send(.GET, "/healthz")
        XCTAssertEqual(health.status, .serviceUnavailable)
        XCTAssertEqual(health.headers["Retry-After"], "5")
        XCTAssertTrue(health.bodyText.contains("the bucket \(bucket) does not exist"), health.bodyText)
        let metrics = await service.send(.GET, "/metrics")
        XCTAssertTrue(metrics.bodyText.contains("failscope_dependency_up{dependency=\"artifact_storage\"} 0"))
    }

    func testAStoreThatDoesNotAnswerInTimeIs503() async throws {
        // A real socket that accepts connections and never answers: a hung object store.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        listen(listener, 16)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = UInt16(bigEndian: address.sin_port)
        var configuration = try S3TestServer().configuration(["AWS_ENDPOINT_URL": "http://127.0.0.1:\(port)"])
        configuration.requestTimeout = 1
        let service = try S3Service(
            artifacts: try S3ArtifactStorage(configuration: configuration, cacheDirectory: try makeTemporaryDirectory())
        )
        let started = Date()
        let upload = await service.upload(TestPNG.make(width: 8, height: 8))
        XCTAssertEqual(upload.status, .serviceUnavailable)
        XCTAssertEqual(upload.headers["Retry-After"], "5")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "the request timeout bounds the wait")
        let health = await service.send(.GET, "/healthz")
        XCTAssertEqual(health.status, .serviceUnavailable)
        XCTAssertTrue(health.bodyText.contains("did not answer"), health.bodyText)
    }

    func testAKilledStoreIs503UntilItIsBackThenEverythingWorks() async throws {
        let server = try S3TestServer()
        let storage = try server.storage()
        let service = try S3Service(artifacts: storage)
        let before = TestPNG.make(width: 16, height: 16, red: 1)
        let beforeUpload = await service.upload(before)
        XCTAssertEqual(beforeUpload.status, .created)
        // A second replica on the same database and bucket, which has not cached `before`.
        let replica = try S3Service(
            artifacts: try S3ArtifactStorage(
                configuration: storage.configuration, cacheDirectory: makeTemporaryDirectory()),
            directory: service.directory)

        try server.restart(start: false)
        let after = TestPNG.make(width: 16, height: 16, red: 2)
        let refused = await service.upload(after)
        XCTAssertEqual(refused.status, .serviceUnavailable)
        XCTAssertEqual(refused.headers["Retry-After"], "5")
        XCTAssertTrue(refused.bodyText.contains("artifact_storage_unavailable"), refused.bodyText)
        let down = await service.send(.GET, "/healthz")
        XCTAssertEqual(down.status, .serviceUnavailable)
        XCTAssertTrue(down.bodyText.contains("did not answer"), down.bodyText)
        let unavailableRead = await replica.send(.GET, "/artifacts/\(SHA256.hex(of: before)).png")
        XCTAssertEqual(unavailableRead.status, .serviceUnavailable, "not cached there: the bucket is asked")
        XCTAssertEqual(unavailableRead.headers["Retry-After"], "5")
        let cachedRead = await service.send(.GET, "/artifacts/\(SHA256.hex(of: before)).png")
        XCTAssertEqual(cachedRead.status, .ok, "the replica that uploaded it serves its cached copy")

        try server.restart(start: true)
        waitUntil(90, "the object store to answer again") { (try? storage.checkHealth()) != nil }
        let health = await service.send(.GET, "/healthz")
        XCTAssertEqual(health.status, .ok, health.bodyText)
        let retried = await service.upload(after)
        XCTAssertEqual(retried.status, .created, retried.bodyText)
        for png in [before, after] {
            let read = await replica.send(.GET, "/artifacts/\(SHA256.hex(of: png)).png")
            XCTAssertEqual(read.status, .ok)
            XCTAssertEqual([UInt8](try read.bodyBytes()), png, "acknowledged bytes survived the outage")
            try storage.remove(sha256: SHA256.hex(of: png))
        }
    }

    /// The built `failscope` binary next to the test bundle.
    static func binary() throws -> URL {
        var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("failscope")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        throw XCTSkip("the failscope binary is not built next to the tests (run swift build --build-tests)")
    }
}
