import DemoApp
import FailscopeClient
import FailscopeModel
import FailscopeReporter
import FailscopeSimulatedScreen
import Foundation
import SimulatedUI
import XCTest

/// `reporter-bench live URL TOKEN [N]`: N sample UI tests (every tenth fails, with a screenshot) run
/// by XCTest with the reporter uploading while they run, against the service at URL; a poller asks
/// the API every 100 ms. For each failure: from its test's end to its result and screenshot being
/// readable through the API (`GET /api/v1/results/{id}` with the screenshot available). Prints p50
/// and p95 (scripts/bench/live.sh).
func measureLiveLatency(url: URL, token: String, tests count: Int) {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("live-bench-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let runID = "live-bench-\(UInt64(Date().timeIntervalSince1970 * 1000))"
    let api = APIClient(baseURL: url, token: token)
    let recorder = RunRecorder(
        configuration: ReporterConfiguration(
            serviceURL: url, token: token, project: "live-bench", spoolDirectory: scratch, runID: runID),
        capture: SimulatedScreenCapture(), api: api)
    let ends = EndTimes()
    let suite = XCTestSuite(name: "LiveBench")
    for index in 0..<count {
        suite.addTest(
            XCTestCase(name: "LiveBenchTests.test\(index)") { _ in
                let app = SimulatedApp(DemoApp.self, device: .iPhone15)
                app.launchArguments = [DemoApp.loggedInArgument]
                app.launch()
                _ = app.collectionViews["catalog.grid"].waitForExistence(timeout: 5)
                if index % 10 == 9 { XCTFail("failure \(index) of the live benchmark") }
                app.terminate()
            })
    }
    let observer = FailscopeObserver(recorder: recorder)
    XCTestObservationCenter.shared.addTestObserver(observer)
    XCTestObservationCenter.shared.addTestObserver(ends)
    let seen = SeenTimes()
    let poller = Task.detached {
        while !Task.isCancelled {
            if let detail = try? await api.get(RunDetail.self, "api/v1/runs/\(runID)") {
                let failed = detail.pages.flatMap(\.callSites).flatMap(\.results).filter { $0.status == .failed }
                for result in failed where !seen.contains(testName(result.name)) {
                    if let full = try? await api.get(ResultDetail.self, "api/v1/results/\(result.id)"),
                        full.artifacts.contains(where: { $0.kind == .screenshot && $0.available })
                    {
                        seen.record(testName(result.name))
                    }
                }
            }
            try? await Task.sleep(nanoseconds: 100_000_000)  // the poll interval of a watching dashboard
        }
    }
    suite.run()
    let failures = count / 10
    let deadline = Date().addingTimeInterval(30)
    while seen.count < failures && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
    poller.cancel()
    _ = recorder.finish()
    let latencies = ends.failed.compactMap { name, ended in seen.time(of: name).map { $0.timeIntervalSince(ended) } }
        .sorted()
    guard latencies.count == failures, !latencies.isEmpty else {
        print(
            "BENCH|live upload: failures readable through the API|\(seen.count) of \(failures) seen, "
                + "\(ends.failed.count) ended|-|-|-")
        return
    }
    let p50 = latencies[latencies.count / 2]
    let p95 = latencies[min(latencies.count - 1, Int((Double(latencies.count) * 0.95).rounded(.up)) - 1)]
    print(
        String(
            format: "BENCH|failure readable through the API after its test ended, p95 (%d tests, %d failures)|%.2f s|"
                + "p50 %.2f s|-|p95 <= 3 s", count, failures, p95, p50))
}

/// When each failing test ended (the observer is called after the reporter's).
private final class EndTimes: NSObject, XCTestObservation, @unchecked Sendable {
    private let lock = NSLock()
    private var ends: [(String, Date)] = []

    var failed: [(String, Date)] { lock.withLock { ends } }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        guard (testCase.testRun?.failureCount ?? 0) > 0 else { return }
        let ended = Date()
        lock.withLock { ends.append((testName(testCase.name), ended)) }
    }
}

/// `testN` of `LiveBenchTests.testN`, however a layer qualifies it.
private func testName(_ name: String) -> String { String(name.split(separator: ".").last ?? "") }

/// When the poller first saw each failure readable.
private final class SeenTimes: @unchecked Sendable {
    private let lock = NSLock()
    private var times: [String: Date] = [:]

    var count: Int { lock.withLock { times.count } }
    func contains(_ name: String) -> Bool { lock.withLock { times[name] != nil } }
    func record(_ name: String) { lock.withLock { times[name] = times[name] ?? Date() } }
    func time(of name: String) -> Date? { lock.withLock { times[name] } }
}
