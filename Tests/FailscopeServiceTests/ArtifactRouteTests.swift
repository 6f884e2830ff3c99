import FailscopeModel
import FailscopeTesting
import FailscopeService
import Foundation
import HTTPServer
import XCTest

final class ArtifactRouteTests: XCTestCase {
    func testUploadOnceThenServeImmutableWithSafeHeaders() async throws {
        let service = try TestService()
        let png = TestPNG.make(width: 6, height: 4)
        let sha = SHA256.hex(of: png)
        let absent = await service.send(.HEAD, "/api/v1/artifacts/\(sha)")
        XCTAssertEqual(absent.status, .notFound)
        let stored = await service.send(.PUT, "/api/v1/artifacts/\(sha)", contentType: "image/png", body: Data(png))
        XCTAssertEqual(stored.status, .created, stored.bodyText)
        XCTAssertEqual(try stored.decode(ArtifactLink.self).width, 6)
        let again = await service.send(.PUT, "/api/v1/artifacts/\(sha)", contentType: "image/png", body: Data(png))
        XCTAssertEqual(again.status, .ok)
        let present = await service.send(.HEAD, "/api/v1/artifacts/\(sha)")
        XCTAssertEqual(present.status, .ok)
        XCTAssertEqual(present.bodyLength, 0)

        let file = await service.send(.GET, "/artifacts/\(sha).png", token: nil)
        XCTAssertEqual(file.status, .ok)
        XCTAssertEqual([UInt8](try file.bodyBytes()), png)
        XCTAssertEqual(file.headers["Content-Type"], "image/png")
        XCTAssertEqual(file.headers["ETag"], "\"\(sha)\"")
        XCTAssertEqual(file.headers["X-Content-Type-Options"], "nosniff")
        XCTAssertEqual(file.headers["Content-Security-Policy"], "sandbox")
        XCTAssertEqual(file.headers["Cache-Control"], "public, max-age=31536000, immutable")
        let cached = await service.send(
            .GET, "/artifacts/\(sha).png", token: nil, headers: ["If-None-Match": "\"\(sha)\""])
        XCTAssertEqual(cached.status, .notModified)
        let wrongKind = await service.send(.GET, "/artifacts/\(sha).json", token: nil)
        XCTAssertEqual(wrongKind.status, .notFound)
        XCTAssertEqual(wrongKind.errorCode, "not_found")
    }

    func testBadArtifactsAreRejectedAndNothingIsStored() async throws {
        let service = try TestService()
        let png = TestPNG.make(width: 2, height: 2)
        let sha = SHA256.hex(of: png)
        let otherSHA = String(repeating: "ab", count: 32)
        let mismatch = await service.send(
            .PUT, "/api/v1/artifacts/\(otherSHA)", contentType: "image/png", body: Data(png))
        XCTAssertEqual(mismatch.status, .unprocessableContent)
        XCTAssertEqual(mismatch.errorCode, "artifact_rejected")
        let html = Data("<html><script>alert(1)</script></html>".utf8)
        let disguised = await service.send(
            .PUT, "/api/v1/artifacts/\(SHA256.hex(of: html))", contentType: "image/png", body: html)
        XCTAssertEqual(disguised.errorCode, "artifact_rejected")
        let htmlType = await service.send(
            .PUT, "/api/v1/artifacts/\(SHA256.hex(of: html))", contentType: "text/html", body: html)
        XCTAssertEqual(htmlType.status, .unprocessableContent)
        var badCRC = png
        badCRC[29] ^= 0xFF
        let corrupted = await service.send(
            .PUT, "/api/v1/artifacts/\(SHA256.hex(of: badCRC))", contentType: "image/png", body: Data(badCRC))
        XCTAssertEqual(corrupted.errorCode, "artifact_rejected")
        XCTAssertTrue(corrupted.bodyText.contains("CRC"), corrupted.bodyText)
        let noType = await service.send(.PUT, "/api/v1/artifacts/\(sha)", contentType: nil, body: Data(png))
        XCTAssertEqual(noType.status, .unsupportedMediaType)
        let unauthorized = await service.send(
            .PUT, "/api/v1/artifacts/\(sha)", token: nil, contentType: "image/png", body: Data(png))
        XCTAssertEqual(unauthorized.status, .unauthorized)
        let badName = await service.send(.PUT, "/api/v1/artifacts/ABC", contentType: "image/png", body: Data(png))
        XCTAssertEqual(badName.status, .badRequest)
        XCTAssertEqual(badName.errorCode, "invalid_sha256")
        let tooBig = await service.send(
            .PUT, "/api/v1/artifacts/\(sha)", contentType: "image/png", body: Data(count: (1 << 20) + 1))
        XCTAssertEqual(tooBig.status, .contentTooLarge)
        XCTAssertEqual(try service.store.artifacts.list(), [])
        let tree = Data(#"{"identifier":"<b>login</b>","children":[]}"#.utf8)
        let treeStored = await service.send(.PUT, "/api/v1/artifacts/\(SHA256.hex(of: tree))", body: tree)
        XCTAssertEqual(treeStored.status, .created)
        let treeFile = await service.send(.GET, "/artifacts/\(SHA256.hex(of: tree)).json", token: nil)
        XCTAssertEqual(treeFile.headers["Content-Type"], "application/json")
        XCTAssertEqual(try treeFile.bodyBytes(), tree)
    }

    func testPathTraversalNeverReachesTheFileSystem() async throws {
        let service = try TestService()
        for target in [
            "/artifacts/../failscope.sqlite", "/artifacts/..%2Ffailscope.sqlite.png",
            "/artifacts/%2e%2e/%2e%2e/etc/passwd",
            "/artifacts/../../../../etc/passwd.png", "/artifacts/\(String(repeating: "a", count: 63))/.png",
            "/artifacts/failscope.sqlite.png", "/api/v1/runs/..", "/api/v1/runs/%2e%2e/results",
        ] {
            let response = await service.send(.GET, target, token: nil)
            XCTAssertTrue([400, 404, 405].contains(response.status.code), "\(target): \(response.status)")
            XCTAssertNotNil(response.errorCode, target)
            XCTAssertFalse(response.bodyText.contains("root:"), target)
        }
    }
}
