import FailscopeModel
import FailscopeObjectStore
import FailscopeService
import FailscopeStore
import FailscopeTesting
import Foundation
import HTTPServer
import XCTest

/// The service end to end with its artifacts in a real S3-compatible bucket.
final class S3ServiceTests: XCTestCase {
    func testAnUploadedScreenshotIsServedFromTheBucketWithTheFolderHeaders() async throws {
        let storage = try S3TestServer().storage()
        let service = try S3Service(artifacts: storage)
        let folderService = try S3Service(artifacts: nil)
        let png = TestPNG.make(width: 120, height: 80)
        let sha = SHA256.hex(of: png)

        let created = await service.upload(png)
        XCTAssertEqual(created.status, .created, created.bodyText)
        let again = await service.upload(png)
        XCTAssertEqual(again.status, .ok, "identical bytes are stored once")
        XCTAssertEqual(try storage.list().map(\.sha256), [sha], "the object is in the bucket")
        _ = await folderService.upload(png)

        // A second replica (empty cache) serves it from the bucket, with the same headers as the folder.
        let replica = try S3Service(
            artifacts: try S3ArtifactStorage(
                configuration: storage.configuration, cacheDirectory: try makeTemporaryDirectory()))
        // The replica shares the bucket but not this SQLite database: give it the row through its own upload path.
        _ = try replica.store.putArtifact(png, sha256: sha, mediaType: "image/png")
        for server in [service, replica] {
            let response = await server.send(.GET, "/artifacts/\(sha).png")
            XCTAssertEqual(response.status, .ok)
            XCTAssertEqual([UInt8](try response.bodyBytes()), png)
            let fromFolder = await folderService.send(.GET, "/artifacts/\(sha).png")
            for name in [
                "Content-Type", "ETag", "Cache-Control", "X-Content-Type-Options", "Content-Security-Policy",
            ] {
                XCTAssertNotNil(response.headers[name], name)
                XCTAssertEqual(response.headers[name], fromFolder.headers[name], name)
            }
            XCTAssertEqual(response.headers["ETag"], "\"\(sha)\"")
            let revalidated = await server.send(.GET, "/artifacts/\(sha).png", headers: ["If-None-Match": "\"\(sha)\""])
            XCTAssertEqual(revalidated.status, .notModified)
        }
        let otherKind = await service.send(.GET, "/artifacts/\(sha).json")
        XCTAssertEqual(otherKind.status, .notFound, "the other kind")

        // A result refers to it; its link says it is available.
        let posted = try await service.reportFailure(run: "run-s3", screenshot: sha, byteCount: png.count)
        XCTAssertEqual(posted.status, .ok, posted.bodyText)
        let info = await service.send(.GET, "/api/v1/artifacts/\(sha)")
        XCTAssertEqual(info.status, .ok)
        XCTAssertTrue(info.bodyText.contains("\"available\":true"), info.bodyText)
        try storage.remove(sha256: sha)
    }

    func testGarbageCollectionFreesTheBucketAfterTheGracePeriod() throws {
        let storage = try S3TestServer().storage()
        let store = try FailscopeStore(directory: try makeTemporaryDirectory(), artifacts: storage)
        defer { store.close() }
        let referenced = TestPNG.make(width: 50, height: 50, red: 1)
        let unreferenced = TestPNG.make(width: 60, height: 50, red: 2)
        let orphan = TestPNG.make(width: 70, height: 50, red: 3)  // in the bucket without a row (a crashed upload)
        let hourAgo = Date().addingTimeInterval(-7_200)
        try store.putArtifact(referenced, sha256: SHA256.hex(of: referenced), mediaType: "image/png", now: hourAgo)
        try store.putArtifact(unreferenced, sha256: SHA256.hex(of: unreferenced), mediaType: "image/png", now: hourAgo)
        _ = try storage.put(
            orphan, verified: try ArtifactStore.verify(orphan, sha256: SHA256.hex(of: orphan), mediaType: "image/png"))
        try store.putRun(Run(id: "kept", project: "Shop", branch: "main", commit: "c", startedAt: Date()))
        try store.addResults(
            ResultBatch(results: [
                TestResult(
                    suite: "S", name: "t", status: .failed,
                    artifacts: [
                        ArtifactRef(sha256: SHA256.hex(of: referenced), kind: .screenshot, byteCount: referenced.count)
                    ])
            ]), toRun: "kept")

        // Within the grace period the orphan object (just written) survives; the unreferenced row's object goes.
        let first = try store.collectGarbage(keepDays: 30)
        XCTAssertEqual(first.artifactsDeleted, 1)
        XCTAssertEqual(first.artifactBytesFreed, unreferenced.count)
        XCTAssertEqual(
            Set(try storage.list().map(\.sha256)), [SHA256.hex(of: referenced), SHA256.hex(of: orphan)])

        // Past the grace period (gc run as if two hours later) the orphan goes too; the referenced object stays.
        let second = try store.collectGarbage(keepDays: 30, now: Date().addingTimeInterval(7_200))
        XCTAssertEqual(second.artifactsDeleted, 1)
        XCTAssertEqual(second.artifactBytesFreed, orphan.count)
        XCTAssertEqual(try storage.list().map(\.sha256), [SHA256.hex(of: referenced)])
        XCTAssertNotNil(try store.artifact(sha256: SHA256.hex(of: referenced)))
        try storage.remove(sha256: SHA256.hex(of: referenced))
    }
}
