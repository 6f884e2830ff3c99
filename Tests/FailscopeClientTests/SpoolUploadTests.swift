import FailscopeModel
import Foundation
import XCTest

@testable import FailscopeClient

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

    /// Writes a run as one reporter process would; with `writer`, through that (still running) process.
    private func fill(
        runID: String = "run-1", results count: Int, finished: Bool = true, writer given: SpoolWriter? = nil
    ) throws -> ArtifactRef {
        let writer = given ?? SpoolWriter(spool: spool, runID: runID)
        try writer.write(Run(id: runID, project: "demo", startedAt: Date(timeIntervalSince1970: 1_000)))
        let png = try writer.writeArtifact(Data("png-bytes".utf8), kind: .screenshot, width: 3, height: 2)
        var index = 0
        while index < count {
            // Batches of up to 40, as the reporter's group commit writes them.
            let batch = (index..<min(index + 40, count)).map { index in
                let failed = index == 0
                return TestResult(
                    suite: "Suite", name: "test\(index)", status: failed ? .failed : .passed,
                    failures: failed ? [Failure(message: "boom")] : [], artifacts: failed ? [png] : [])
            }
            try writer.write(batch)
            index += batch.count
        }
        if finished { try writer.markFinished(at: Date(timeIntervalSince1970: 2_000)) }
        return png
    }

    func testTheSpoolKeepsEverythingUntilTheUploadSucceeds() async throws {
        let png = try fill(results: 250)
        let pending = try spool.pendingRuns()
        XCTAssertEqual(pending.map(\.runID), ["run-1"])
        XCTAssertEqual(pending.first?.writers.first?.resultFiles.count, 7, "250 results in batches of 40")
        XCTAssertEqual(pending.first?.writers.first?.artifactFiles.map(\.lastPathComponent), [png.sha256 + ".png"])
        XCTAssertEqual(png.sha256, SHA256.hex(of: Data("png-bytes".utf8)))

        let api = InMemoryIngestAPI()
        api.refuseWithStatus = 503
        let down = await Uploader(api: api, spool: spool, retryWindow: 0).upload()
        XCTAssertEqual(down.results, 0)
        XCTAssertEqual(down.remainingFiles, 8)
        XCTAssertEqual(try spool.pendingRuns().first?.writers.first?.resultFiles.count, 7, "nothing left the spool")

        api.refuseWithStatus = nil
        let report = await Uploader(api: api, spool: spool, batchSize: 100, retryWindow: 5).upload()
        XCTAssertEqual(report.results, 250)
        XCTAssertEqual(report.artifactsSent, 1)
        XCTAssertEqual(report.finishedRuns, 1)
        XCTAssertEqual(report.remainingFiles, 0)
        XCTAssertEqual(api.resultCount("run-1"), 250)
        XCTAssertEqual(api.finished, ["run-1"])
        XCTAssertTrue(try spool.pendingRuns().isEmpty, "an acknowledged run leaves the spool")
        XCTAssertFalse(FileManager.default.fileExists(atPath: spool.folder(of: "run-1").path))

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

    func testAFolderOfARunningProcessIsLeftToItAndAClientErrorIsNotRetried() async throws {
        let running = SpoolWriter(spool: spool, runID: "open-run")
        _ = try fill(runID: "open-run", results: 2, finished: false, writer: running)
        let api = InMemoryIngestAPI()
        let report = await Uploader(api: api, spool: spool).upload()
        XCTAssertEqual(report.results, 0, "another process still writes its folder")
        XCTAssertEqual(report.foldersOfRunningProcesses, 1)
        XCTAssertEqual(report.remainingFiles, 2, "a result batch and a screenshot")
        XCTAssertEqual(api.finished, [])

        let own = await Uploader(api: api, spool: spool).upload(ownFolder: running.folder)
        XCTAssertEqual(own.results, 2, "its own process delivers it")
        XCTAssertEqual(own.finishedRuns, 0)
        XCTAssertFalse(own.ownFolderDelivered, "not finished yet")
        XCTAssertEqual(api.finished, [])
        XCTAssertEqual(try spool.pendingRuns().map(\.runID), ["open-run"], "the folder waits for its finish")
        try running.markFinished(at: Date(timeIntervalSince1970: 3_000))
        let finished = await Uploader(api: api, spool: spool).upload(ownFolder: running.folder)
        XCTAssertTrue(finished.ownFolderDelivered)
        XCTAssertEqual(api.finished, ["open-run"])
        running.removeDelivered()
        XCTAssertTrue(try spool.pendingRuns().isEmpty)

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
        let folder = try XCTUnwrap(spool.pendingRuns().first?.writers.first?.url).appendingPathComponent("results")
        try Data("{not json".utf8).write(to: folder.appendingPathComponent("0-corrupt.json"))
        let api = InMemoryIngestAPI()
        let report = await Uploader(api: api, spool: spool).upload()
        XCTAssertEqual(report.results, 2)
        XCTAssertEqual(report.remainingFiles, 1)
        XCTAssertTrue(report.problems.first?.contains("0-corrupt.json") == true, "\(report.problems)")
        XCTAssertEqual(api.finished, [], "the run is not finished while a file waits")
    }

    // MARK: Processes of one run

    func testEveryProcessOfARunWritesItsOwnFolderAndTheRunStartsAtTheEarliestStart() async throws {
        let first = SpoolWriter(spool: spool, runID: "parallel")
        let second = SpoolWriter(spool: spool, runID: "parallel")
        try first.write(
            Run(id: "parallel", project: "demo", device: "iPhone 15", startedAt: Date(timeIntervalSince1970: 2_000)))
        try second.write(Run(id: "parallel", project: "demo", startedAt: Date(timeIntervalSince1970: 1_000)))
        try first.write([TestResult(suite: "A", name: "testOne", status: .passed)])
        try second.write([TestResult(suite: "B", name: "testTwo", status: .failed)])
        try first.markFinished(at: Date(timeIntervalSince1970: 2_500))
        XCTAssertNotEqual(first.folder, second.folder)
        XCTAssertEqual(try spool.pendingRuns().first?.writers.count, 2)

        // The first process ends and delivers: the second one's folder is not touched.
        let api = InMemoryIngestAPI()
        let report = await Uploader(api: api, spool: spool).upload(ownFolder: first.folder)
        XCTAssertEqual(report.results, 1)
        XCTAssertEqual(report.foldersOfRunningProcesses, 1)
        first.removeDelivered()
        XCTAssertTrue(FileManager.default.fileExists(atPath: second.folder.resultsFolderPath))
        XCTAssertEqual(
            api.runs["parallel"]?.startedAt, Date(timeIntervalSince1970: 1_000), "the earliest start any process wrote")
        XCTAssertEqual(api.runs["parallel"]?.device, "iPhone 15", "and the device one of them saw")

        // The second still writes (its folder was never removed), then delivers.
        try second.write([TestResult(suite: "B", name: "testThree", status: .passed)])
        try second.markFinished(at: Date(timeIntervalSince1970: 3_000))
        let last = await Uploader(api: api, spool: spool).upload(ownFolder: second.folder)
        XCTAssertEqual(last.results, 2)
        XCTAssertEqual(api.resultCount("parallel"), 3)
        XCTAssertEqual(api.runs["parallel"]?.startedAt, Date(timeIntervalSince1970: 1_000))
        second.removeDelivered()
        XCTAssertFalse(FileManager.default.fileExists(atPath: spool.folder(of: "parallel").path))

        // A process that writes after its folder was delivered gets a new one.
        try second.write([TestResult(suite: "B", name: "testFour", status: .passed)])
        XCTAssertEqual(try spool.pendingRuns().first?.writers.first?.resultFiles.count, 1)
    }

    func testATestWhoseProcessDiedIsSentAsACrashWithItsSignalAndEndedTestsAreNotLost() async throws {
        var writer: SpoolWriter? = SpoolWriter(spool: spool, runID: "crashed")
        try writer?.write(Run(id: "crashed", project: "demo", startedAt: Date(timeIntervalSince1970: 1_000)))
        let passed = TestResult(suite: "A", name: "testPasses", status: .passed, duration: 0.5)
        try writer?.testStarted(TestResult(suite: "A", name: "testPasses", status: .error))
        _ = writer?.testEnded(passed)  // ended, but its batch was never written: the process died first
        try writer?.testStarted(
            TestResult(suite: "A", name: "testCrashes", status: .error, startedAt: Date(timeIntervalSince1970: 1_001)))
        writer?.pageStep(TrailStep(page: "LoginPage", callSite: SourceLocation(file: "LoginTests.swift", line: 7)))
        writer?.pageStep(
            TrailStep(
                page: "LoginPage", action: "tapLogin()", callSite: SourceLocation(file: "LoginTests.swift", line: 8)))
        let descriptor = try XCTUnwrap(writer?.journalFileDescriptor)
        // What the crash handler writes: the signal and the time (Unix ms), half a second after the test started.
        _ = Data("\nX 11 1001500\n".utf8).withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
        let folder = try XCTUnwrap(writer?.folder.url)
        writer = nil  // the process ends: its lock is free
        // The process was last seen working at 1,002 s: its files' times say so.
        let lastSeen = Date(timeIntervalSince1970: 1_002)
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            try FileManager.default.setAttributes(
                [.modificationDate: lastSeen], ofItemAtPath: folder.appendingPathComponent(name).path)
        }

        let api = InMemoryIngestAPI()
        let report = await Uploader(api: api, spool: spool).upload()
        XCTAssertEqual(report.crashedTests, 1, "the ended test is sent as it ended")
        XCTAssertEqual(api.finishTimes["crashed"], lastSeen, "finished when the process was last seen, not now")
        XCTAssertEqual(report.results, 2)
        XCTAssertEqual(report.finishedRuns, 1, "a crashed process's part of the run is finished at its last write")
        XCTAssertEqual(report.remainingFiles, 0)
        let results = try XCTUnwrap(api.results["crashed"]).values.sorted { $0.name < $1.name }
        XCTAssertEqual(results.map(\.status), [.error, .passed])
        XCTAssertEqual(results[1], passed)
        let crash = results[0]
        XCTAssertEqual(crash.startedAt, Date(timeIntervalSince1970: 1_001))
        XCTAssertEqual(crash.failures.map(\.message), ["the test process crashed: signal 11 (SIGSEGV)"])
        XCTAssertEqual(try XCTUnwrap(crash.duration), 0.5, accuracy: 0.001, "from its start to the crash")
        XCTAssertEqual(crash.failures.first?.action, "LoginPage.tapLogin()")
        XCTAssertEqual(crash.failures.first?.callSite, SourceLocation(file: "LoginTests.swift", line: 8))
        XCTAssertEqual(crash.trail.map(\.action), [nil, "tapLogin()"])
        XCTAssertTrue(try spool.pendingRuns().isEmpty)
    }

    func testAServiceFoundDownIsMarkedSoTheRunsOtherProcessesDoNotWaitOutTheRetries() async throws {
        _ = try fill(runID: "down", results: 1)
        let api = InMemoryIngestAPI()
        api.failuresToInject = 1_000
        let first = await Uploader(api: api, spool: spool, retryWindow: 1).upload()
        XCTAssertTrue(first.serviceUnreachable)
        XCTAssertNotNil(spool.unreachableSince(runID: "down"))

        let requests = api.requests
        let marked = await Uploader(api: api, spool: spool, retryWindow: 60, honoursUnreachableMark: true).upload()
        XCTAssertEqual(api.requests - requests, 1, "one try, no retries")
        XCTAssertEqual(marked.remainingFiles, 2)

        api.failuresToInject = 0
        let back = await Uploader(api: api, spool: spool, honoursUnreachableMark: true).upload()
        XCTAssertEqual(back.results, 1, "the service is back: everything goes")
        XCTAssertNil(spool.unreachableSince(runID: "down"))
        XCTAssertFalse(FileManager.default.fileExists(atPath: spool.folder(of: "down").path))
    }

    func testOfProcessesThatFindTheServiceDownAtOnceOneWaitsOutTheRetries() {
        // Two processes of one run fail their first request at the same moment.
        let claim = { [spool] in spool!.claimUnreachableMark(runID: "down-at-once") }
        let first = RetryBudget(deadline: Date().addingTimeInterval(60), claimLead: claim)
        let second = RetryBudget(deadline: Date().addingTimeInterval(60), claimLead: claim)
        XCTAssertTrue(first.allowsRetry(after: 0.1), "the first to mark the run retries")
        XCTAssertFalse(second.allowsRetry(after: 0.1), "the other finds the mark and keeps its results spooled")
        XCTAssertTrue(first.allowsRetry(after: 0.2), "the leader goes on")
        XCTAssertNotNil(spool.unreachableSince(runID: "down-at-once"))
        XCTAssertFalse(
            RetryBudget(deadline: Date().addingTimeInterval(0.05), claimLead: nil).allowsRetry(after: 0.1),
            "never past the deadline")
    }

    func testFilesOfTheOlderOneFolderLayoutAreDelivered() async throws {
        let folder = spool.folder(of: "old-run")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("results"), withIntermediateDirectories: true)
        try WireCoding.encoder().encode(Run(id: "old-run", project: "demo", startedAt: Date(timeIntervalSince1970: 1)))
            .write(to: folder.appendingPathComponent("run.json"))
        try WireJSONWriter.encode(ResultBatch(results: [TestResult(suite: "A", name: "testOld", status: .passed)]))
            .write(to: folder.appendingPathComponent("results/1-a.json"))
        try WireCoding.encoder().encode(RunFinish(finishedAt: Date(timeIntervalSince1970: 2)))
            .write(to: folder.appendingPathComponent("finish.json"))
        let api = InMemoryIngestAPI()
        let report = await Uploader(api: api, spool: spool).upload()
        XCTAssertEqual(report.results, 1)
        XCTAssertEqual(api.finished, ["old-run"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.path))
    }
}

extension WriterFolder {
    var resultsFolderPath: String { url.appendingPathComponent("results").path }
}
