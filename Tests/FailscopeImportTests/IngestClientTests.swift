import FailscopeClient
import FailscopeModel
import FailscopeTesting
import XCTest

#if canImport(Glibc)
    import Glibc
#endif

/// The ingest calls the importer makes, through `APIClient`, against a live `failscope serve`, plus the
/// transport failures (refused, timed out) against loopback sockets this test opens itself.
final class IngestClientTests: XCTestCase {
    /// A 1×1 RGB PNG.
    private let png = Data(
        base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC")!

    func testArtifactsRunsAndTheServersErrors() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "failscope-client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServeProcess(data: folder, arguments: ["--upload-token", "t0ken"])
        defer { server.stop() }
        let url = server.url
        let client = APIClient(baseURL: url, token: "t0ken", timeout: 10)

        let sha = SHA256.hex(of: png)
        let before = try await client.artifactExists(sha256: sha)
        XCTAssertFalse(before)
        try await client.putArtifact(sha256: sha, data: png, contentType: "image/png")
        let after = try await client.artifactExists(sha256: sha)
        XCTAssertTrue(after)

        let run = Run(
            id: "client-1", project: "Shop", source: .junit, startedAt: Date(timeIntervalSince1970: 1_800_000_000))
        try await client.putRun(run)
        try await client.postResults(
            runID: run.id,
            batch: ResultBatch(results: [TestResult(suite: "S", name: "t", status: .passed, duration: 1)]))
        try await client.finishRun(runID: run.id, finish: RunFinish(finishedAt: run.startedAt.addingTimeInterval(1)))
        let detail = try await client.get(RunDetail.self, "api/v1/runs/client-1")
        XCTAssertEqual(detail.summary.status, .passed)

        // The server's JSON error comes back typed.
        do {
            try await APIClient(baseURL: url, token: "nope").putRun(run)
            XCTFail("a wrong token was accepted")
        } catch let error as APIClientError {
            guard case .status(let code, let errorCode, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(code, 401)
            XCTAssertFalse(errorCode.isEmpty)
            XCTAssertFalse(error.isRetryable)
        }
        do {
            var other = run
            other.id = "client-2"
            try await client.postResults(runID: other.id, batch: ResultBatch(results: []))
            XCTFail("results for a run that does not exist were accepted")
        } catch let error as APIClientError {
            guard case .status(let code, _, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(code, 404)
        }
    }

    /// A loopback socket that is bound (and listening when `listening`), its port, and its descriptor.
    private func loopbackSocket(listening: Bool) throws -> (port: Int, descriptor: Int32) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw XCTSkip("no socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else { throw XCTSkip("cannot bind a loopback socket") }
        if listening { _ = listen(descriptor, 8) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return (Int(UInt16(bigEndian: address.sin_port)), descriptor)
    }

    func testRefusedConnectionIsATransportError() async throws {
        let (port, descriptor) = try loopbackSocket(listening: false)  // bound, not listening: connections are refused
        defer { close(descriptor) }
        do {
            try await APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, token: nil, timeout: 5).putRun(
                Run(id: "r", project: "P", startedAt: Date()))
            XCTFail("a refused connection succeeded")
        } catch let error as APIClientError {
            guard case .transport = error else { return XCTFail("\(error)") }
            XCTAssertTrue(error.isRetryable)
        }
    }

    func testSilentServerTimesOut() async throws {
        let (port, descriptor) = try loopbackSocket(listening: true)  // the kernel accepts; nobody ever answers
        defer { close(descriptor) }
        let started = Date()
        do {
            _ = try await APIClient(baseURL: URL(string: "http://127.0.0.1:\(port)")!, token: nil, timeout: 1)
                .artifactExists(sha256: String(repeating: "a", count: 64))
            XCTFail("a silent server answered")
        } catch let error as APIClientError {
            guard case .transport = error else { return XCTFail("\(error)") }
        }
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }
}
