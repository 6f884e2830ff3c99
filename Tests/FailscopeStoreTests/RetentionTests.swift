import FailscopeModel
import FailscopeTesting
import XCTest

@_spi(Engine) @testable import FailscopeStore

final class RetentionTests: StoreTestCase {
    func testGarbageCollectionDeletesOldRunsThenUnreferencedArtifacts() throws {
        let store = try makeStore()
        defer { store.close() }
        let now = referenceDate.addingTimeInterval(30 * 86_400)
        let oldPNG = TestPNG.make(width: 3, height: 3, red: 1)
        let keptPNG = TestPNG.make(width: 3, height: 3, red: 2)
        let strayPNG = TestPNG.make(width: 3, height: 3, red: 3)
        let (oldSHA, keptSHA, straySHA) = (SHA256.hex(of: oldPNG), SHA256.hex(of: keptPNG), SHA256.hex(of: strayPNG))
        for png in [oldPNG, keptPNG, strayPNG] {
            try store.putArtifact(png, sha256: SHA256.hex(of: png), mediaType: "image/png", now: referenceDate)
        }
        try store.putRun(sampleRun(id: "old", startedAt: referenceDate))
        try store.addResults(ResultBatch(results: [failingResult(screenshot: oldSHA)]), toRun: "old")
        try store.putRun(sampleRun(id: "new", startedAt: now.addingTimeInterval(-86_400)))
        try store.addResults(ResultBatch(results: [failingResult(name: "testNew", screenshot: keptSHA)]), toRun: "new")
        let report = try store.collectGarbage(keepDays: 7, now: now)
        XCTAssertEqual(report.runsDeleted, 1)
        XCTAssertEqual(report.resultsDeleted, 1)
        XCTAssertEqual(report.testsDeleted, 1)
        XCTAssertEqual(report.artifactsDeleted, 2)
        XCTAssertEqual(report.artifactBytesFreed, oldPNG.count + strayPNG.count)
        XCTAssertEqual(try store.runs(.init()).runs.map(\.run.id), ["new"])
        XCTAssertFalse(try store.artifacts.contains(sha256: oldSHA))
        XCTAssertFalse(try store.artifacts.contains(sha256: straySHA))
        XCTAssertTrue(try store.artifacts.contains(sha256: keptSHA))
        // The deleted files' folders went with them (unless another artifact shares them); the kept one's stayed.
        let manager = FileManager.default
        let folder = ArtifactStore(root: store.directory.appendingPathComponent("artifacts"))
        for sha in [oldSHA, straySHA] where !keptSHA.hasPrefix(String(sha.prefix(2))) {
            let topFolder = folder.fileURL(sha256: sha).deletingLastPathComponent().deletingLastPathComponent()
            XCTAssertFalse(manager.fileExists(atPath: topFolder.path), sha)
        }
        XCTAssertTrue(manager.fileExists(atPath: folder.fileURL(sha256: keptSHA).path))
        // A write after its folder was removed makes the folder again.
        try store.putArtifact(oldPNG, sha256: oldSHA, mediaType: "image/png", now: now)
        XCTAssertTrue(try store.artifacts.contains(sha256: oldSHA))
        XCTAssertEqual(try store.read { try $0.scalar("SELECT count(*) FROM failures").int }, 1)
        let summaryRows = try store.read { db in
            try db.scalar("SELECT count(*) FROM flaky_outcomes WHERE newest_result_id NOT IN (SELECT id FROM results)").int
        }
        XCTAssertEqual(summaryRows, 0, "no flaky summary row refers to a deleted result")
        XCTAssertEqual(
            try store.read { try $0.scalar("SELECT count(DISTINCT newest_result_id) FROM flaky_outcomes").int }, 1)
        XCTAssertEqual(try store.integrityCheck(), ["ok"])
        XCTAssertThrowsError(try store.collectGarbage(keepDays: 0))
    }
}
