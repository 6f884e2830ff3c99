import FailscopeModel
import FailscopeService
import FailscopeStore
import FailscopeTesting
import Foundation
import HTTPRouting
import HTTPServer
import XCTest

/// `GET /artifacts/{sha256}.png`: served from memory once the store confirmed it, forgotten when deleted.
final class ArtifactFilesTests: XCTestCase {
    func testRepeatedGetsServeTheSameBytesFromMemoryWithTheSameHeaders() async throws {
        let service = try TestService()
        let png = TestPNG.make(width: 5, height: 3)
        let sha = SHA256.hex(of: png)
        let stored = await service.send(.PUT, "/api/v1/artifacts/\(sha)", contentType: "image/png", body: Data(png))
        XCTAssertEqual(stored.status, .created, stored.bodyText)

        let first = await service.send(.GET, "/artifacts/\(sha).png", token: nil)
        let second = await service.send(.GET, "/artifacts/\(sha).png", token: nil)
        for response in [first, second] {
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual([UInt8](try response.bodyBytes()), png)
            XCTAssertEqual(response.headers["Content-Type"], "image/png")
            XCTAssertEqual(response.headers["ETag"], "\"\(sha)\"")
            XCTAssertEqual(response.headers["Cache-Control"], "public, max-age=31536000, immutable")
            XCTAssertEqual(response.headers["X-Content-Type-Options"], "nosniff")
            XCTAssertEqual(response.headers["Content-Security-Policy"], "sandbox")
            guard case .prepared(let prepared) = response.body else {
                return XCTFail("expected the prepared response from memory, got \(response.body)")
            }
            XCTAssertEqual(prepared.body.count, png.count)
        }
        guard case .prepared(let first) = first.body, case .prepared(let second) = second.body else { return }
        XCTAssertTrue(first === second, "one prepared response for every request")
        let revalidated = await service.send(
            .GET, "/artifacts/\(sha).png", token: nil, headers: ["If-None-Match": "W/\"\(sha)\""])
        XCTAssertEqual(revalidated.status, .notModified)
        XCTAssertEqual(revalidated.headers["ETag"], "\"\(sha)\"")
        XCTAssertEqual(revalidated.bodyLength, 0)
        let otherKind = await service.send(.GET, "/artifacts/\(sha).json", token: nil)
        XCTAssertEqual(otherKind.status, .notFound)
    }

    func testAnArtifactDeletedAfterBeingServedFromMemoryIs404WithinASecond() async throws {
        let service = try TestService()
        let png = TestPNG.make(width: 3, height: 3)
        let sha = SHA256.hex(of: png)
        _ = await service.send(.PUT, "/api/v1/artifacts/\(sha)", contentType: "image/png", body: Data(png))
        let served = await service.send(.GET, "/artifacts/\(sha).png", token: nil)
        XCTAssertEqual(served.status, .ok)

        try service.store.artifacts.remove(sha256: sha)  // what retention does to an unreferenced artifact
        let deleted = DispatchTime.now()
        var status = HTTPStatus.ok
        let tick = DispatchSemaphore(value: 0)
        while status == .ok, DispatchTime.now() < deleted + .seconds(3) {
            status = await service.send(.GET, "/artifacts/\(sha).png", token: nil).status
            if status == .ok { _ = tick.wait(timeout: .now() + .milliseconds(50)) }
        }
        XCTAssertEqual(status, .notFound)
        XCTAssertLessThan(Double(DispatchTime.now().uptimeNanoseconds - deleted.uptimeNanoseconds) / 1e9, 2.0)
        let again = await service.send(.GET, "/artifacts/\(sha).png", token: nil)
        XCTAssertEqual(again.errorCode, "not_found")
    }

    func testWithoutAMemoryBudgetFilesAreSentFromDisk() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("artifact-files-\(UUID())")
        let store = try FailscopeStore(directory: directory)
        defer {
            store.close()
            try? FileManager.default.removeItem(at: directory)
        }
        let application = FailscopeApplication.build(
            ServiceConfiguration(accessLog: DiscardingAccessLog(), artifactMemoryBytes: 0), store: store)
        let png = TestPNG.make(width: 4, height: 4)
        let sha = SHA256.hex(of: png)
        _ = try store.putArtifact(png, sha256: sha, mediaType: "image/png")
        for _ in 0..<2 {
            let response = await application.router.respond(to: Request(method: .GET, target: "/artifacts/\(sha).png"))
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual([UInt8](try response.bodyBytes()), png)
            guard case .file = response.body else { return XCTFail("expected a file body, got \(response.body)") }
        }
        try store.artifacts.remove(sha256: sha)  // a file sent from disk is missed at once
        let gone = await application.router.respond(to: Request(method: .GET, target: "/artifacts/\(sha).png"))
        XCTAssertEqual(gone.status, .notFound)
    }

    func testLiveKeepAliveGetsAreByteExact() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("artifact-live-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try FailscopeServer(
            dataDirectory: directory, port: 0, threadCount: 2,
            configuration: ServiceConfiguration(accessLog: DiscardingAccessLog()))
        defer { server.stop() }
        let png = TestPNG.make(width: 64, height: 48)
        let sha = SHA256.hex(of: png)
        _ = try server.application.store.putArtifact(png, sha256: sha, mediaType: "image/png")

        let client = LiveClient(base: "http://127.0.0.1:\(server.port)", token: nil)
        for _ in 0..<3 {
            let reply = try XCTUnwrap(client.send("GET", "/artifacts/\(sha).png"))
            XCTAssertEqual(reply.status, 200)
            XCTAssertEqual([UInt8](reply.body), png)
            XCTAssertEqual(reply.headers["content-type"], "image/png")
            XCTAssertEqual(reply.headers["content-length"], "\(png.count)")
            XCTAssertEqual(reply.headers["etag"], "\"\(sha)\"")
        }
        XCTAssertEqual(
            try XCTUnwrap(client.send("GET", "/artifacts/\(String(repeating: "0", count: 64)).png")).status, 404)
    }
}
