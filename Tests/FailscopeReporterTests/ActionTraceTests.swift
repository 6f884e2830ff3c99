import FailscopeClient
import FailscopeModel
import FailscopeReporter
import Foundation
import XCTest

/// The action trace: each page step keeps the element tree of the moment in memory; only a failing test (or a
/// passing retry of a failed one, or every test with FAILSCOPE_TRACE=always) encodes and writes them.
final class ActionTraceTests: XCTestCase {
    /// A capture whose element tree is whatever `screen` says when a step runs; counts the encodings.
    private final class TreeCapture: ScreenCapture, @unchecked Sendable {
        let device: ScreenDevice? = nil
        var screen = "login"
        var encodings = 0
        func captureScreen() throws -> CapturedScreen? {
            CapturedScreen(png: Data("png".utf8), pixelWidth: 3, pixelHeight: 2, elementTree: Data("{\"at\":\"failure\"}".utf8))
        }
        func snapshotElementTree() -> (any ElementTreeSnapshot)? { Tree(screen: screen, capture: self) }
    }

    private struct Tree: ElementTreeSnapshot, @unchecked Sendable {
        let screen: String
        let capture: TreeCapture
        func encodedTree() throws -> Data {
            capture.encodings += 1
            return Data("{\"screen\":\"\(screen)\"}".utf8)
        }
    }

    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("trace-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func run(tracePassing: Bool = false, _ body: (RunRecorder, PageTrail, TreeCapture) -> Void) throws
        -> [TestResult]
    {
        var configuration = ReporterConfiguration(
            serviceURL: nil, token: nil, project: "shop", spoolDirectory: directory, runID: "trace-run")
        configuration.tracesPassingTests = tracePassing
        configuration.isQuiet = true
        let trail = PageTrail()
        let capture = TreeCapture()
        let recorder = RunRecorder(configuration: configuration, api: nil, trail: trail)
        recorder.useScreenCapture(capture)
        body(recorder, trail, capture)
        _ = recorder.finish()
        return try Spool(directory: directory).results(ofRun: "trace-run")
    }

    /// Login page, type, tap: three steps, the screen changing between them; fails at the tap when `fail`.
    private func loginTest(_ recorder: RunRecorder, _ trail: PageTrail, _ capture: TreeCapture, fail: Bool) {
        let test = recorder.testWillStart(suite: "LoginTests", name: "testLogin")
        capture.screen = "login"
        trail.enter(page: "LoginPage", file: "/t/LoginTests.swift", line: 10)
        trail.record(page: "LoginPage", action: "type(_:)", file: "/t/LoginTests.swift", line: 11, targetFrame: nil)
        capture.screen = "login"  // the same tree again: stored once
        trail.record(
            page: "LoginPage", action: "tapLogin()", file: "/t/LoginTests.swift", line: 12,
            targetFrame: CGRect(x: 16, y: 300, width: 361, height: 50))
        if fail {
            _ = trail.markFailed()
            recorder.recordFailure(in: test, message: "timed out", file: "/t/LoginTests.swift", line: 12)
        }
        recorder.testDidFinish(test, status: fail ? .failed : .passed, duration: 1)
    }

    func testAPassingTestEncodesAndWritesNoTree() throws {
        var encodings = 0
        let results = try run { recorder, trail, capture in
            loginTest(recorder, trail, capture, fail: false)
            encodings = capture.encodings
        }
        XCTAssertEqual(encodings, 0)
        XCTAssertEqual(results.first?.trail.map(\.elementTree), [nil, nil, nil])
        XCTAssertEqual(results.first?.artifacts, [])
    }

    func testAFailingTestWritesEachStepsTreeOnceWithTargetsAndDurations() throws {
        let results = try run { recorder, trail, capture in loginTest(recorder, trail, capture, fail: true) }
        let result = try XCTUnwrap(results.first)
        let login = SHA256.hex(of: Data("{\"screen\":\"login\"}".utf8))
        let failure = SHA256.hex(of: Data("{\"at\":\"failure\"}".utf8))
        XCTAssertEqual(result.trail.map(\.elementTree), [login, login, failure], "the failing step's is the failure's tree")
        XCTAssertEqual(result.trail.last?.target, Frame(x: 16, y: 300, width: 361, height: 50))
        XCTAssertNil(result.trail.first?.target)
        XCTAssertTrue(result.trail.allSatisfy { ($0.duration ?? -1) >= 0 }, "\(result.trail.map(\.duration))")
        XCTAssertEqual(result.artifacts.map(\.kind), [.screenshot, .elementTree, .elementTree])
        XCTAssertEqual(Set(result.artifacts.map(\.sha256)).count, 3, "identical trees are one artifact")
        XCTAssertEqual(result.artifacts.filter { $0.sha256 == login }.count, 1)
    }

    func testAPassingRetryOfAFailedTestKeepsItsTraceAndTraceAlwaysKeepsEvery() throws {
        let retried = try run { recorder, trail, capture in
            loginTest(recorder, trail, capture, fail: true)
            loginTest(recorder, trail, capture, fail: false)
        }
        XCTAssertEqual(retried.map(\.attempt), [1, 2])
        XCTAssertEqual(retried.last?.status, .passed)
        XCTAssertEqual(retried.last?.trail.compactMap(\.elementTree).count, 3)

        try? FileManager.default.removeItem(at: directory)
        let always = try run(tracePassing: true) { recorder, trail, capture in
            loginTest(recorder, trail, capture, fail: false)
        }
        XCTAssertEqual(always.first?.trail.compactMap(\.elementTree).count, 3)
        XCTAssertEqual(always.first?.artifacts.map(\.kind), [.elementTree])
    }

    func testOnlyTheNewestStepsKeepTheirTrees() throws {
        let trail = PageTrail()
        trail.useElementTrees { EncodedTreeProbe() }
        for line in 0..<(PageTrail.treeLimit + 10) {
            trail.record(page: "P", action: "tap()", file: "/t.swift", line: line, targetFrame: nil)
        }
        XCTAssertEqual(trail.steps.count, PageTrail.treeLimit + 10)
        XCTAssertEqual(trail.elementTrees.keys.sorted(), Array(10..<(PageTrail.treeLimit + 10)))
        trail.useElementTrees(from: nil)
        trail.record(page: "P", action: "tap()", file: "/t.swift", line: -1, targetFrame: nil)
        XCTAssertNil(trail.elementTrees[PageTrail.treeLimit + 10], "no source, no tree")
    }

    private struct EncodedTreeProbe: ElementTreeSnapshot {
        func encodedTree() throws -> Data { Data("{}".utf8) }
    }
}
