import FailscopeModel
import FailscopeObjectStore
import FailscopeStore
import FailscopeTesting
import Foundation
import XCTest

/// ``S3ArtifactStorage`` against a real S3-compatible server (SeaweedFS, scripts/with-s3.sh).
final class S3ArtifactStorageTests: XCTestCase {
    func testPutHeadGetListDeleteRoundTrip() throws {
        let storage = try S3TestServer().storage()
        let png = TestPNG.make(width: 30, height: 20)
        let verified = try ArtifactStore.verify(png, sha256: SHA256.hex(of: png), mediaType: "image/png")
        XCTAssertFalse(try storage.contains(sha256: verified.sha256))
        XCTAssertNil(try storage.open(sha256: verified.sha256))
        XCTAssertTrue(try storage.put(png, verified: verified))
        XCTAssertFalse(try storage.put(png, verified: verified), "the second put finds the object (HEAD) and skips")
        XCTAssertTrue(try storage.contains(sha256: verified.sha256))
        let listed = try storage.list()
        XCTAssertEqual(listed.map(\.sha256), [verified.sha256])
        XCTAssertEqual(listed.first?.byteCount, png.count)
        XCTAssertLessThan(abs(listed.first!.lastModified.timeIntervalSinceNow), 120)

        // A fresh storage (empty cache) downloads the object.
        let reader = try S3ArtifactStorage(
            configuration: storage.configuration, cacheDirectory: try makeTemporaryDirectory(), cacheBytes: 1 << 20)
        let file = try XCTUnwrap(try reader.open(sha256: verified.sha256))
        XCTAssertEqual(file.byteCount, png.count)
        XCTAssertEqual(FileManager.default.contents(atPath: file.path).map([UInt8].init), png)
        XCTAssertEqual(reader.cachedByteCount, png.count)

        try storage.remove(sha256: verified.sha256)
        XCTAssertFalse(try reader.contains(sha256: verified.sha256) && storage.contains(sha256: verified.sha256))
        XCTAssertEqual(try storage.list(), [])
        XCTAssertNoThrow(try storage.remove(sha256: verified.sha256), "removing an absent object is not an error")
    }

    func testIdenticalConcurrentPutsStoreOneObject() throws {
        let server = try S3TestServer()
        let configuration = try server.configuration()
        // Eight "replicas" (storages of their own, as separate processes would have) put the same bytes at once.
        let replicas = try (0..<8).map { _ in
            try S3ArtifactStorage(configuration: configuration, cacheDirectory: try makeTemporaryDirectory())
        }
        let png = TestPNG.make(width: 64, height: 64, red: 7)
        let verified = try ArtifactStore.verify(png, sha256: SHA256.hex(of: png), mediaType: "image/png")
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: 32) { index in
            do {
                outcomes.add(try replicas[index % replicas.count].put(png, verified: verified))
            } catch {
                outcomes.fail("\(error)")
            }
        }
        XCTAssertEqual(outcomes.failures, [])
        XCTAssertEqual(outcomes.results.count, 32)
        XCTAssertGreaterThanOrEqual(outcomes.results.filter { $0 }.count, 1)
        let listed = try replicas[0].list()
        XCTAssertEqual(listed.map(\.sha256), [verified.sha256], "stored once")
        XCTAssertEqual(listed.first?.byteCount, png.count)
        let file = try XCTUnwrap(
            try S3ArtifactStorage(configuration: configuration, cacheDirectory: try makeTemporaryDirectory())
                .open(sha256: verified.sha256))
        XCTAssertEqual(FileManager.default.contents(atPath: file.path).map([UInt8].init), png, "byte-exact")
        try replicas[0].remove(sha256: verified.sha256)
    }

    func testListingPagesThroughMoreThanAThousandObjects() throws {
        let storage = try S3TestServer().storage()
        let trees = (0..<1_005).map { Array("{\"n\":\($0)}".utf8) }
        let digests = trees.map { SHA256.hex(of: $0) }
        let outcomes = Outcomes()
        DispatchQueue.concurrentPerform(iterations: 8) { part in
            for index in stride(from: part, to: trees.count, by: 8) {
                do {
                    let verified = try ArtifactStore.verify(
                        trees[index], sha256: digests[index], mediaType: "application/json")
                    outcomes.add(try storage.put(trees[index], verified: verified))
                } catch {
                    outcomes.fail("\(error)")
                }
            }
        }
        XCTAssertEqual(outcomes.failures, [])
        XCTAssertEqual(outcomes.results, Array(repeating: true, count: 1_005))
        let listed = try storage.list()
        XCTAssertEqual(listed.count, 1_005)
        XCTAssertEqual(Set(listed.map(\.sha256)), Set(digests))
        DispatchQueue.concurrentPerform(iterations: 8) { part in
            for index in stride(from: part, to: digests.count, by: 8) {
                do { try storage.remove(sha256: digests[index]) } catch { outcomes.fail("\(error)") }
            }
        }
        XCTAssertEqual(outcomes.failures, [])
        XCTAssertEqual(try storage.list(), [])
    }

    func testTheCacheKeepsAtMostItsCapacity() throws {
        let server = try S3TestServer()
        let writer = try server.storage()
        let pngs = (0..<4).map { TestPNG.make(width: 100, height: 100, red: UInt8($0)) }  // ~30 KB each
        for png in pngs {
            _ = try writer.put(
                png, verified: try ArtifactStore.verify(png, sha256: SHA256.hex(of: png), mediaType: "image/png"))
        }
        let reader = try S3ArtifactStorage(
            configuration: writer.configuration, cacheDirectory: try makeTemporaryDirectory(),
            cacheBytes: pngs[0].count * 2 + 100)
        for png in pngs {
            let file = try XCTUnwrap(try reader.open(sha256: SHA256.hex(of: png)))
            XCTAssertEqual(FileManager.default.contents(atPath: file.path).map([UInt8].init), png)
            XCTAssertLessThanOrEqual(reader.cachedByteCount, pngs[0].count * 2 + 100)
        }
        XCTAssertEqual(reader.cachedByteCount, pngs[2].count + pngs[3].count, "the two most recent stay")
        for png in pngs { try writer.remove(sha256: SHA256.hex(of: png)) }
    }
}

/// Outcomes collected from concurrent work.
final class Outcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var storedResults: [Bool] = []
    private var storedFailures: [String] = []

    func add(_ result: Bool) { lock.withLock { storedResults.append(result) } }
    func fail(_ message: String) { lock.withLock { storedFailures.append(message) } }
    var results: [Bool] { lock.withLock { storedResults } }
    var failures: [String] { lock.withLock { storedFailures } }
}
