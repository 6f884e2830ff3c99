import FailscopeClient
import FailscopeModel
import Foundation
import XCTest

final class SpoolUploadTests: XCTestCase {
    private var directory: URL!
    private var spool: Spool!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("spool-\(UUID().uuidString)")
        spool = Spool(directory: directory)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func fill(runID: String = "run-1", results count: Int, finished: Bool = true) throws -> ArtifactRef {
        try spool.write(Run(id: runID, project: "demo", startedAt: Date(timeIntervalSince1970: 1_000)))
        let png = try spool.writeArtifact(Data("png-bytes".utf8), kind: .screenshot, width: 3, height: 2, runID: runID)
        var index = 0
        while index < count {
            // Batches of up to 40, as the reporter's group commit writes them.
            let batch = (index..<min(index + 40, count)).map { index in
                let failed = index == 0
                return TestResult(
                    suite: "Suite", name: "test\(index)", status: failed ? .failed : .passed,
                    failures: failed ? [Failure(message: "boom")] : [], artifacts: failed ? [png] : [])
            }
            try spool.write(batch, runID: runID)
            index += batch.count
        }
        if finished { try spool.markFinished(runID: runID, at: Date(timeIntervalSince1970: 2_000)) }
        return png
    }

    func testTheSpoolKeepsEverythingUntilTheUploadSucceeds() async throws {
        let png = try fill(results: 250)
        let pending = try spool.pendingRuns()
        XCTAssertEqual(pending.runs.map(\.run.id), ["run-1"])
        XCTAssertEqual(pending.runs.first?.resultFiles.count, 7, "250 results in batches of 40")
        XCTAssertEqual(pending.runs.first?.artifactFiles.map(\.lastPathComponent), [png.sha256 + ".png"])
        XCTAssertEqual(png.sha256, SHA256.hex(of: Data("png-bytes".utf8)))

        let api = InMemoryIngestAPI()
        api.refuseWithStatus = 503
        let down = await Uploader(api: api, spool: spool, retryWindow: 0).upload()
        XCTAssertEqual(down.results, 0)
        XCTAssertEqual(down.remainingFiles, 8)
        XCTAssertEqual(try spool.pendingRuns().runs.first?.resultFiles.count, 7, "nothing left the spool")

        api.refuseWithStatus = nil
        let report = await Uploader(api: api, spool: spool, batchSize: 100, retryWindow: 5).upload()
        XCTAssertEqual(report.results, 250)
        XCTAssertEqual(report.artifactsSent, 1)
        XCTAssertEqual(report.finishedRuns, 1)
        XCTAssertEqual(report.remainingFiles, 0)
        XCTAssertEqual(api.resultCount("run-1"), 250)
        XCTAssertEqual(api.finished, ["run-1"])
        XCTAssertTrue(try spool.pendingRuns().runs.isEmpty, "an acknowledged run leaves the spool")

        let again = await Uploader(api: api, spool: spool).upload()
        XCTAssertEqual(again.runs, [])
        XCTAssertEqual(api.resultCount("run-1"), 250)
    }

    func testTransientFailuresAreRetriedWithBackoff() async throws {
        _ = try fill(results: 3)
        let api = InMemoryIngestAPI()
        api.failuresToInject = 3
        let report = await Uploader(api: api, spool: spool, retryWindow: 10).upload()
        XCTAssertEqual(report.results, 3)
        XCTAssertEqual(report.remainingFiles, 0)
        XCTAssertTrue(report.problems.isEmpty, "\(report.problems)")
        XCTAssertGreaterThan(api.requests, 3)
    }

    func testAnArtifactTheServerHasIsNotSentAgain() async throws {
        let png = try fill(results: 1)
        let api = InMemoryIngestAPI()
        try await api.putArtifact(sha256: png.sha256, data: Data("png-bytes".utf8), contentType: "image/png")
        let report = await Uploader(api: api, spool: spool).upload()
        XCTAssertEqual(report.artifactsSent, 0)
        XCTAssertEqual(report.artifactsSkipped, 1)
    }

    func testAnUnfinishedRunStaysOpenAndAClientErrorIsNotRetried() async throws {
        _ = try fill(runID: "open-run", results: 2, finished: false)
        let api = InMemoryIngestAPI()
        let report = await Uploader(api: api, spool: spool).upload()
        XCTAssertEqual(report.results, 2)
        XCTAssertEqual(report.finishedRuns, 0)
        XCTAssertEqual(api.finished, [])
        XCTAssertEqual(try spool.pendingRuns().runs.map(\.run.id), ["open-run"], "the run folder waits for its finish")

        _ = try fill(runID: "rejected", results: 1)
        api.refuseWithStatus = 400
        let started = Date()
        let rejected = await Uploader(api: api, spool: spool, retryWindow: 30).upload(runID: "rejected")
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "a 400 is final: no retry until the window ends")
        XCTAssertTrue(rejected.problems.first?.contains("400") == true, "\(rejected.problems)")
        XCTAssertEqual(rejected.remainingFiles, 2)
    }

    func testACorruptResultFileStaysAndTheRestIsSent() async throws {
        _ = try fill(results: 2)
        let folder = directory.appendingPathComponent("run-1/results")
        try Data("{not json".utf8).write(to: folder.appendingPathComponent("0-corrupt.json"))
        let api = InMemoryIngestAPI()
        let report = await Uploader(api: api, spool: spool).upload()
        XCTAssertEqual(report.results, 2)
        XCTAssertEqual(report.remainingFiles, 1)
        XCTAssertTrue(report.problems.first?.contains("0-corrupt.json") == true, "\(report.problems)")
        XCTAssertEqual(api.finished, [], "the run is not finished while a file waits")
    }
}
