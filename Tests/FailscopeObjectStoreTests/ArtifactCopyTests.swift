import FailscopeModel
import FailscopeObjectStore
import FailscopeStore
import FailscopeTesting
import Foundation
import XCTest

/// `failscope copy --artifacts-from DIR --artifacts-to s3://…`: an embedded store's folder into the bucket.
final class ArtifactCopyTests: XCTestCase {
    func testAFolderIsCopiedIntoTheBucketOnceAndVerified() throws {
        let bucket = try S3TestServer().storage()
        let folder = ArtifactStore(root: try makeTemporaryDirectory())
        let png = TestPNG.make(width: 12, height: 12)
        let tree = Array("{\"type\":\"window\"}".utf8)
        for (bytes, type) in [(png, "image/png"), (tree, "application/json")] {
            _ = try folder.put(
                bytes, verified: try ArtifactStore.verify(bytes, sha256: SHA256.hex(of: bytes), mediaType: type))
        }
        // A damaged file (its bytes no longer match its name) is refused, not carried over.
        let damaged = TestPNG.make(width: 13, height: 13)
        let damagedSHA = SHA256.hex(of: damaged)
        _ = try folder.put(
            damaged, verified: try ArtifactStore.verify(damaged, sha256: damagedSHA, mediaType: "image/png"))
        try Data(damaged.dropLast(3)).write(to: folder.fileURL(sha256: damagedSHA))

        let first = try ArtifactCopy.copy(from: folder, to: bucket)
        XCTAssertEqual(first.copied, 2)
        XCTAssertEqual(first.refused, 1)
        XCTAssertEqual(first.bytesCopied, png.count + tree.count)
        XCTAssertEqual(Set(try bucket.list().map(\.sha256)), [SHA256.hex(of: png), SHA256.hex(of: tree)])
        let again = try ArtifactCopy.copy(from: folder, to: bucket)
        XCTAssertEqual(again.copied, 0)
        XCTAssertEqual(again.alreadyThere, 2)
        for sha in [SHA256.hex(of: png), SHA256.hex(of: tree)] { try bucket.remove(sha256: sha) }
    }
}
