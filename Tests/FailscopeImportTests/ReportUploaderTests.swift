import FailscopeClient
import FailscopeModel
import XCTest

@testable import FailscopeImport

/// An `IngestAPI` that records the calls (the uploader's side of the contract, without sockets).
final class RecordingIngestAPI: IngestAPI, @unchecked Sendable {
    private let lock = NSLock()
    private var log: [String] = []
    private var batches: [ResultBatch] = []
    private var runs: [Run] = []

    var calls: [String] { lock.withLock { log } }
    var resultBatches: [ResultBatch] { lock.withLock { batches } }
    var putRuns: [Run] { lock.withLock { runs } }

    func putRun(_ run: Run) async throws {
        lock.withLock {
            log.append("PUT run \(run.id)")
            runs.append(run)
        }
    }
    func postResults(runID: String, batch: ResultBatch) async throws {
        lock.withLock {
            log.append("POST results \(runID) \(batch.results.count)")
            batches.append(batch)
        }
    }
    func artifactExists(sha256: String) async throws -> Bool { false }
    func putArtifact(sha256: String, data: Data, contentType: String) async throws {}
    func finishRun(runID: String, finish: RunFinish) async throws {
        lock.withLock { log.append("POST finish \(runID)") }
    }
    func dashboardURL(runID: String) -> String { "memory:\(runID)" }
}

final class ReportUploaderTests: XCTestCase {
    private func report(_ xml: String) throws -> ParsedReport {
        try JUnitImporter().parse(data: Data(xml.utf8))
    }

    func testUploadSendsRunBatchesAndFinish() async throws {
        var cases = ""
        for index in 0..<1_203 { cases += "<testcase classname='S' name='t\(index)' time='0.5'/>" }
        let parsed = try report(
            "<testsuite name='S' timestamp='2026-01-02T03:04:05Z' time='601.5'>\(cases)</testsuite>")
        let api = RecordingIngestAPI()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("failscope-import-spool-\(UUID())")
        let spool = Spool(directory: folder)
        defer { try? FileManager.default.removeItem(at: spool.directory) }
        let run = ReportUploader.run(
            id: "import-1", for: [parsed], options: ImportOptions(project: "Shop", branch: "main", device: "iPhone 15"),
            fallbackStart: Date(timeIntervalSince1970: 0))
        let outcome = try await ReportUploader(uploader: Uploader(api: api, spool: spool))
            .upload(run, results: ReportUploader.results(of: [parsed]))
        // Through the spool and its uploader: batches of the uploader's size, 12 of 100 and one of 3.
        XCTAssertEqual(Uploader.defaultBatchSize, 100)
        XCTAssertEqual(
            api.calls,
            ["PUT run import-1"] + Array(repeating: "POST results import-1 100", count: 12)
                + ["POST results import-1 3", "POST finish import-1"])
        XCTAssertEqual(api.resultBatches.flatMap(\.results).map(\.name), (0..<1_203).map { "t\($0)" })
        XCTAssertTrue(outcome.delivered)
        XCTAssertEqual(outcome.report.results, 1_203)
        XCTAssertEqual(try spool.pendingRuns().map(\.runID), [], "a delivered run leaves the spool")
        XCTAssertNil(api.putRuns.first?.finishedAt, "the run is sent open, then finished")
        XCTAssertEqual(run.startedAt, WireCoding.parseDate("2026-01-02T03:04:05Z"))
        XCTAssertEqual(run.finishedAt, run.startedAt.addingTimeInterval(601.5))
        XCTAssertEqual(run.project, "Shop")
        XCTAssertEqual(run.branch, "main")
        XCTAssertEqual(run.device, "iPhone 15")
        XCTAssertEqual(run.source, .junit)
    }

    func testMergedFilesRenumberAttemptsAndFallBackToTheFileTime() throws {
        let first = try report(
            "<testsuite name='S'><testcase classname='S' name='a' time='1'><failure message='x'/></testcase></testsuite>"
        )
        let second = try report(
            "<testsuite name='S'><testcase classname='S' name='a' time='2'/><testcase classname='S' name='b'/></testsuite>"
        )
        let results = ReportUploader.results(of: [first, second])
        XCTAssertEqual(results.map(\.attempt), [1, 2, 1])
        let fallback = Date(timeIntervalSince1970: 1_700_000_000)
        let run = ReportUploader.run(
            id: "r", for: [first, second], options: ImportOptions(project: "P"), fallbackStart: fallback)
        XCTAssertEqual(run.startedAt, fallback)
        XCTAssertEqual(run.finishedAt, fallback.addingTimeInterval(2))
    }

    func testTextIsClippedToWhatTheServiceStores() {
        let long = String(repeating: "é", count: 5_000)
        let clipped = ReportUploader.clipped(
            TestResult(
                suite: long, name: "n", status: .failed,
                failures: [Failure(message: String(repeating: "m", count: 100_000))]))
        XCTAssertEqual(IngestLimits.textFieldBytes, 4096)
        XCTAssertLessThanOrEqual(clipped.suite.utf8.count, 4096)
        XCTAssertTrue(clipped.suite.hasSuffix("…"))
        XCTAssertLessThanOrEqual(clipped.failures[0].message.utf8.count, 64 << 10)
        XCTAssertEqual(ReportUploader.clip("short", 4096), "short")
    }

    func testRunIDsAreStableAndValid() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "failscope-digest-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let a = folder.appendingPathComponent("a.xml").path
        let b = folder.appendingPathComponent("b.xml").path
        try Data("<testsuite/>".utf8).write(to: URL(fileURLWithPath: a))
        try Data("<testsuite/>".utf8).write(to: URL(fileURLWithPath: b))
        let digestA = try ReportDigest.contentDigest(ofFileAt: a)
        XCTAssertEqual(digestA, try ReportDigest.contentDigest(ofFileAt: b), "same bytes, same digest")
        let id = ReportDigest.runID(ImportOptions(project: "Shop"), contentDigests: [digestA])
        XCTAssertTrue(Run.isValidID(id))
        // Without options: the id of earlier versions (project and bytes), so their runs are found again.
        let legacy = "import-" + SHA256.hex(of: Data("Shop\u{0}\(digestA)".utf8)).prefix(40)
        XCTAssertEqual(id, legacy)
        XCTAssertNotEqual(id, ReportDigest.runID(ImportOptions(project: "Other"), contentDigests: [digestA]))
        // The same bytes for another branch, commit or device are another run; the same options, the same run.
        let main = ReportDigest.runID(ImportOptions(project: "Shop", branch: "main", commit: "c1"), contentDigests: [digestA])
        XCTAssertEqual(main, ReportDigest.runID(ImportOptions(project: "Shop", branch: "main", commit: "c1"), contentDigests: [digestA]))
        let others = [
            ImportOptions(project: "Shop", branch: "dev", commit: "c1"), ImportOptions(project: "Shop", branch: "main", commit: "c2"),
            ImportOptions(project: "Shop", branch: "main", commit: "c1", device: "iPad"), ImportOptions(project: "Shop", commit: "c1"),
        ]
        XCTAssertEqual(Set(others.map { ReportDigest.runID($0, contentDigests: [digestA]) } + [main, id]).count, others.count + 2)
    }

    func testFilesFoldersAndGlobsExpand() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "failscope-files-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("nested"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["b.xml", "a.xml", "nested/c.json", ".hidden.xml", "xunit.xml", "xunit-swift-testing.xml"] {
            try Data("x".utf8).write(to: folder.appendingPathComponent(name))
        }
        let root = folder.path
        let globbed = ReportFiles.expand([root + "/*.xml", root + "/a.xml", root + "/none*.xml"])
        XCTAssertEqual(
            globbed.files, [root + "/a.xml", root + "/b.xml", root + "/xunit-swift-testing.xml", root + "/xunit.xml"])
        XCTAssertEqual(globbed.problems.map(\.reason), ["no file matches this pattern"])
        let walked = ReportFiles.expand([root, root + "/missing.xml"])
        XCTAssertEqual(
            walked.files.map { String($0.dropFirst(root.count + 1)) },
            ["a.xml", "b.xml", "nested/c.json", "xunit-swift-testing.xml", "xunit.xml"])
        XCTAssertEqual(walked.problems.first?.file, root + "/missing.xml")
        let warnings = ReportFiles.missingSiblings(of: [root + "/xunit.xml"])
        XCTAssertEqual(warnings.count, 1)
        XCTAssertTrue(warnings[0].contains("xunit-swift-testing.xml"))
        XCTAssertTrue(
            ReportFiles.missingSiblings(of: [root + "/xunit.xml", root + "/xunit-swift-testing.xml"]).isEmpty)
    }
}
