import FailscopeModel
import FailscopeTesting
import Foundation
import XCTest

/// Many processes of one run, as `swift test --parallel` starts them (one a test, all at once, each
/// uploading at its end), and test processes that crash: every executed test is stored exactly once.
final class ParallelRunTests: XCTestCase {
    private var scratch: URL!
    private var service: ServeProcess!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("parallel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        service = try ServeProcess(dataDirectory: scratch.appendingPathComponent("data"))
    }

    override func tearDown() {
        service.stop()
        try? FileManager.default.removeItem(at: scratch)
    }

    /// The sample UI suite's tests, one name each, as the XCTest runner lists them.
    private func sampleTests() throws -> [String] {
        let listing = try runProcess(
            BuildProducts.testBinary, ["--list-tests"], environment: childEnvironment(["FAILSCOPE_DISABLED": "1"]))
        return listing.standardOutput.split(separator: "\n").map(String.init).filter {
            $0.hasPrefix("DemoUITests.") && !$0.contains("TabletLayoutTests")
        }
    }

    /// Starts one test process per name, all at once, with one run id; waits for all of them.
    private func runAtOnce(_ tests: [String], runID: String, extra: [String: String] = [:]) throws -> [Int32] {
        let environment = childEnvironment(
            [
                "FAILSCOPE_URL": service.url.absoluteString, "FAILSCOPE_TOKEN": service.token,
                "FAILSCOPE_SPOOL": scratch.appendingPathComponent("spool").path, "FAILSCOPE_RUN_ID": runID,
                "FAILSCOPE_PROJECT": "parallel", "FAILSCOPE_DEVICE": "iPhone 15",
            ].merging(extra) { $1 })
        let processes = try tests.map { test in
            let process = Process()
            process.executableURL = BuildProducts.testBinary
            process.arguments = [test]
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        return processes.map {
            $0.waitUntilExit()
            return $0.terminationStatus
        }
    }

    /// The run's results as the service lists them: "Suite.name status", sorted.
    private func storedResults(_ runID: String) throws -> [String] {
        let detail = try XCTUnwrap(service.runDetail(runID), "run \(runID) is not stored")
        return detail.pages.flatMap(\.callSites).flatMap(\.results).map {
            "\($0.suite).\($0.name) \($0.status.rawValue)"
        }
        .sorted()
    }

    func testManyProcessesOfOneRunStoreEveryResultExactlyOnce() throws {
        let tests = try sampleTests()
        XCTAssertEqual(tests.count, 17)
        let expected = tests.map { name -> String in
            let parts = name.dropFirst("DemoUITests.".count).split(separator: "/")
            return "\(parts[0]).\(parts[1]) passed"
        }.sorted()
        for round in 1...3 {
            let runID = "parallel-\(round)"
            let statuses = try runAtOnce(tests, runID: runID)
            XCTAssertEqual(statuses, Array(repeating: 0, count: tests.count), "round \(round)")
            // What a process left for a sibling that was still running when it finished, the last one sent.
            XCTAssertEqual(try storedResults(runID), expected, "round \(round): one result a test")
            let summary = try XCTUnwrap(service.runDetail(runID)?.summary)
            XCTAssertEqual(summary.status, .passed, "round \(round)")
            XCTAssertEqual(summary.counts.total, tests.count)
            let duration = try XCTUnwrap(summary.run.finishedAt).timeIntervalSince(summary.run.startedAt)
            XCTAssertGreaterThan(duration, 0, "round \(round): from the first start to the last finish")
        }
        let left = FileManager.default.subpaths(atPath: scratch.appendingPathComponent("spool").path)
        XCTAssertEqual(left, [], "every process's folder was delivered and removed")
    }

    func testAFailureReachesTheServiceWhileTheRunGoesOn() throws {
        let gate = scratch.appendingPathComponent("gate")
        let process = Process()
        process.executableURL = BuildProducts.testBinary
        process.arguments = ["FailscopeReporterTests.LiveFixtureTests"]
        process.environment = childEnvironment([
            "FAILSCOPE_URL": service.url.absoluteString, "FAILSCOPE_TOKEN": service.token,
            "FAILSCOPE_SPOOL": scratch.appendingPathComponent("spool").path, "FAILSCOPE_RUN_ID": "live-run",
            "FAILSCOPE_LIVE_SECONDS": "0.5", LiveFixtureTests.gateVariable: gate.path,
        ])
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The first test's failure is readable while the second test still holds the process.
        var seen: RunSummary?
        let deadline = Date().addingTimeInterval(20)
        while seen == nil && Date() < deadline {
            if let summary = try service.runDetail("live-run")?.summary, summary.counts.failed == 1 { seen = summary }
        }
        let live = try XCTUnwrap(seen, "no failure on the service within 20 s")
        XCTAssertTrue(process.isRunning, "the run is still going on")
        XCTAssertEqual(live.status, .incomplete)
        XCTAssertEqual(live.counts.total, 1)
        try Data().write(to: gate)
        process.waitUntilExit()
        let final = try XCTUnwrap(service.runDetail("live-run")?.summary)
        XCTAssertEqual(final.status, .failed)
        XCTAssertEqual(final.counts.total, 2)
    }

    func testATestProcessThatCrashesLeavesAnErrorResultNamingTheSignal() throws {
        let tests = try sampleTests().prefix(4) + ["FailscopeReporterTests.CrashFixtureTests"]
        let statuses = try runAtOnce(Array(tests), runID: "crash-run", extra: [CrashFixtureTests.switchVariable: "1"])
        XCTAssertEqual(statuses.prefix(4), [0, 0, 0, 0])
        XCTAssertNotEqual(statuses.last, 0, "the fixture's process died")
        // Whoever finished after the crash delivered it; `failscope upload` sends what nobody could.
        let upload = try runProcess(
            BuildProducts.failscope,
            [
                "upload", "--spool", scratch.appendingPathComponent("spool").path, "--url", service.url.absoluteString,
                "--token", service.token,
            ], environment: childEnvironment([:]))
        XCTAssertEqual(upload.status, 0, upload.standardError)

        let stored = try storedResults("crash-run")
        XCTAssertEqual(stored.count, 6, "\(stored)")
        XCTAssertTrue(stored.contains("CrashFixtureTests.testAPassesBeforeTheCrash passed"), "\(stored)")
        XCTAssertTrue(stored.contains("CrashFixtureTests.testBCrashesTheProcess error"), "\(stored)")
        let crash = try XCTUnwrap(
            service.runDetail("crash-run")?.pages.flatMap(\.callSites).flatMap(\.results).first {
                $0.name == "testBCrashesTheProcess"
            })
        #if arch(x86_64)
            XCTAssertEqual(crash.message, "the test process crashed: signal 4 (SIGILL)")
        #else
            XCTAssertEqual(crash.message, "the test process crashed: signal 5 (SIGTRAP)")
        #endif
        XCTAssertEqual(crash.page, "CheckoutPage", "the page trail up to the crash")
        XCTAssertNotNil(crash.duration, "the crash handler said when")
        XCTAssertEqual(crash.callSite?.file.hasSuffix("CrashFixtureTests.swift"), true)
        let summary = try XCTUnwrap(service.runDetail("crash-run")?.summary)
        XCTAssertEqual(summary.status, .failed)
        XCTAssertEqual(summary.counts.error, 1)
    }
}
