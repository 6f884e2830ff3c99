import FailscopeModel
import FailscopeReporter
import Foundation
import XCTest

/// The recorder with and without a screen-capture plug-in: the run's device comes only from a
/// registered capture, and a failing test's screen only from it.
final class ScreenCapturePluginTests: XCTestCase {
    /// A capture that reports `device` and hands out a fixed screen, counting its calls.
    private final class FixedCapture: ScreenCapture, @unchecked Sendable {
        let device: ScreenDevice?
        private(set) var calls = 0
        init(device: ScreenDevice?) { self.device = device }
        func captureScreen() throws -> CapturedScreen? {
            calls += 1
            return CapturedScreen(png: Data("png".utf8), pixelWidth: 3, pixelHeight: 2, elementTree: Data("{}".utf8))
        }
    }

    private var directory: URL!

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("capture-\(UUID().uuidString)")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func makeRecorder() -> RunRecorder {
        RunRecorder(
            configuration: ReporterConfiguration(
                serviceURL: nil, token: nil, project: "lib", spoolDirectory: directory, runID: "capture-run"),
            api: nil, trail: PageTrail())
    }

    private func spooledRun(_ recorder: RunRecorder) throws -> Run {
        try XCTUnwrap(recorder.spoolWriter.folder.run())
    }

    func testWithoutACaptureARunHasNoDeviceAndAFailureNoScreenshot() throws {
        let recorder = makeRecorder()
        let test = recorder.testWillStart(suite: "ParserTests", name: "testEmpty")
        recorder.recordFailure(in: test, message: "XCTAssertEqual failed", file: "/p/ParserTests.swift", line: 12)
        XCTAssertNil(try spooledRun(recorder).device)
        XCTAssertNil(recorder.run.osVersion)
        XCTAssertEqual(recorder.failures(of: test).map(\.location?.line), [12])
        XCTAssertFalse(
            FileManager.default.fileExists(
                atPath: recorder.spoolWriter.folder.url.appendingPathComponent("artifacts").path))
    }

    func testARegisteredCaptureGivesTheRunItsDeviceAndTheFailureItsScreen() throws {
        let recorder = makeRecorder()
        let test = recorder.testWillStart(suite: "LoginTests", name: "testLogin")
        XCTAssertNil(try spooledRun(recorder).device, "the run is written when the first test starts, before any capture")

        let capture = FixedCapture(device: ScreenDevice(name: "iPhone 15", osVersion: "iOS 17.5 (simulated)"))
        recorder.useScreenCapture(capture)
        XCTAssertEqual(try spooledRun(recorder).device, "iPhone 15", "the spool's run is rewritten with the device")
        XCTAssertEqual(try spooledRun(recorder).osVersion, "iOS 17.5 (simulated)")

        recorder.recordFailure(in: test, message: "timed out", file: "/p/LoginTests.swift", line: 7)
        recorder.recordFailure(in: test, message: "again", file: "/p/LoginTests.swift", line: 8)
        XCTAssertEqual(capture.calls, 1, "the screen is captured at a test's first failure only")
        let png = recorder.spoolWriter.folder.url.appendingPathComponent(
            "artifacts/\(SHA256.hex(of: Data("png".utf8))).png")
        XCTAssertTrue(FileManager.default.fileExists(atPath: png.path))

        recorder.useScreenCapture(FixedCapture(device: nil))
        XCTAssertEqual(recorder.run.device, "iPhone 15", "a capture without a device keeps the reported one")
    }
}
