import FailscopeModel
import FailscopeTesting
import XCTest

@testable import FailscopeStore

final class ArtifactStoreTests: StoreTestCase {
    func testPNGIsVerifiedStoredOnceUnderItsHash() throws {
        let store = try makeStore()
        defer { store.close() }
        let png = TestPNG.make(width: 390, height: 844)
        let sha = SHA256.hex(of: png)
        let first = try store.putArtifact(png, sha256: sha, mediaType: "image/png")
        XCTAssertTrue(first.created)
        XCTAssertEqual(first.artifact.width, 390)
        XCTAssertEqual(first.artifact.height, 844)
        XCTAssertFalse(try store.putArtifact(png, sha256: sha, mediaType: "image/png").created)
        let file = store.directory.appendingPathComponent("artifacts")
            .appendingPathComponent(String(sha.prefix(2))).appendingPathComponent(String(sha.dropFirst(2).prefix(2)))
            .appendingPathComponent(sha)
        XCTAssertEqual(FileManager.default.contents(atPath: file.path).map([UInt8].init), png)
        XCTAssertEqual(try store.artifact(sha256: sha)?.kind, .screenshot)
        let folder = try XCTUnwrap(store.artifacts as? ArtifactStore, "the folder is the default storage")
        XCTAssertEqual(folder.storedDigests().digests, [sha])
        XCTAssertEqual(folder.storedDigests().temporaries, [], "no temporary file left behind")
    }

    func testBadUploadsAreRejectedWithReasons() throws {
        let png = TestPNG.make(width: 2, height: 2)
        let sha = SHA256.hex(of: png)
        XCTAssertThrowsError(
            try ArtifactStore.verify(png, sha256: String(repeating: "a", count: 64), mediaType: "image/png")
        ) {
            XCTAssertTrue("\($0)".contains("SHA-256"))
        }
        XCTAssertThrowsError(try ArtifactStore.verify(png, sha256: "../../etc/passwd", mediaType: "image/png"))
        XCTAssertThrowsError(try ArtifactStore.verify(png, sha256: sha, mediaType: "text/html"))
        let truncated = Array(png.dropLast(5))
        XCTAssertThrowsError(
            try ArtifactStore.verify(truncated, sha256: SHA256.hex(of: truncated), mediaType: "image/png")
        ) {
            XCTAssertTrue("\($0)".contains("IEND"), "\($0)")
        }
        let html = Array("<html><script>alert(1)</script>".utf8)
        XCTAssertThrowsError(try ArtifactStore.verify(html, sha256: SHA256.hex(of: html), mediaType: "image/png")) {
            XCTAssertTrue("\($0)".contains("signature"))
        }
        let huge = TestPNG.make(width: 65_536, height: 2)
        XCTAssertThrowsError(try ArtifactStore.verify(huge, sha256: SHA256.hex(of: huge), mediaType: "image/png")) {
            XCTAssertTrue("\($0)".contains("65536×2 pixels exceeds 10000 pixels a side"), "\($0)")
        }
        let notJSON = Array("{\"a\":".utf8)
        XCTAssertThrowsError(
            try ArtifactStore.verify(notJSON, sha256: SHA256.hex(of: notJSON), mediaType: "application/json"))
        let json = Array("{\"type\":\"window\",\"children\":[]}".utf8)
        XCTAssertEqual(
            try ArtifactStore.verify(json, sha256: SHA256.hex(of: json), mediaType: "application/json; charset=utf-8")
                .kind,
            .elementTree)
    }
}
