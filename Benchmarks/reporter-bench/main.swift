import DemoApp
import FailscopeClient
import FailscopeReporter
import FailscopeSimulatedScreen
import Foundation
import ScreenRaster
import SimulatedUI
import XCTest

// The reporter's cost, measured in one process (scripts/bench/reporter.sh runs it in release):
// 1. wall time of N passing sample UI tests (through page objects, as a UI suite's) run by XCTest with the
//    Failscope observer registered (each page step keeping its element tree in memory for the action trace),
//    against the same tests with no observer, alternating rounds, medians compared (the script pins
//    the process to one CPU: see scripts/bench/reporter.sh); each round on stderr;
// 2. the capture cost of one failure: render + PNG encode + spool write of the screenshot and tree.

// 3. with `live URL TOKEN [N]`: instead, the live-upload latency (LiveLatency.swift).
if CommandLine.arguments.count >= 4, CommandLine.arguments[1] == "live", let url = URL(string: CommandLine.arguments[2])
{
    measureLiveLatency(
        url: url, token: CommandLine.arguments[3],
        tests: CommandLine.arguments.count > 4 ? Int(CommandLine.arguments[4]) ?? 200 : 200)
    exit(0)
}

let testCount = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 1_000
let rounds = 31
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reporter-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: scratch) }

/// One passing sample test through page objects (BenchPages.swift), as a UI suite's: search the catalog and
/// open the first lamp. Its page steps are recorded in the page trail whether the reporter is on or off; with it
/// on, each step also keeps its element tree in memory (the action trace), which a passing test never writes.
func sampleTest(_ testCase: XCTestCase) throws {
    PageTrail.shared.reset()  // as UITestCase does before each test
    let app = SimulatedApp(DemoApp.self, device: .iPhone15)
    app.launchArguments = [DemoApp.loggedInArgument]
    app.launch()
    let catalog = BenchCatalogPage(app: app).search("lamp")
    XCTAssertEqual(catalog.resultCount, 10)
    catalog.openFirstItem().verifyShown()
    app.terminate()
}

func suite() -> XCTestSuite {
    let suite = XCTestSuite(name: "ReporterBench")
    for index in 0..<testCount {
        suite.addTest(XCTestCase(name: "BenchTests.test\(index)", testClosure: sampleTest))
    }
    return suite
}

/// CPU time of the whole process (all threads, the spool writer's included), in seconds.
func processCPUTime() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

/// Wall and process CPU seconds of one run of the suite.
func timeSuite(observer: FailscopeObserver?) -> (wall: Double, cpu: Double) {
    let tests = suite()
    if let observer { XCTestObservationCenter.shared.addTestObserver(observer) }
    let cpuStarted = processCPUTime()
    let started = DispatchTime.now().uptimeNanoseconds
    tests.run()
    if let observer {
        _ = observer.recorder.finish()  // the bundle end: every result flushed to the spool
        XCTestObservationCenter.shared.removeTestObserver(observer)
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    let cpu = processCPUTime() - cpuStarted
    precondition(tests.testRun?.totalFailureCount == 0, "the bench tests must pass")
    return (seconds, cpu)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

/// The simulated screen's capture without the action trace's trees (the default `snapshotElementTree()`: none),
/// to tell the trace's cost from the rest of the reporter's.
struct UntracedCapture: ScreenCapture {
    let capture = SimulatedScreenCapture()
    var device: ScreenDevice? { capture.device }
    func captureScreen() throws -> CapturedScreen? { try capture.captureScreen() }
}

// 4. with `instructions on|untraced|off N`: instead, one run of N tests with the reporter on, on without the
//    action trace's trees, or off, to be counted under valgrind --tool=callgrind (scripts/bench/reporter.sh,
//    REPORTER_BENCH_CALLGRIND=1): instructions are steady when the machine is busy, and the per-test cost is
//    (I(2N) - I(N)) / N, free of start-up costs.
if CommandLine.arguments.count >= 4, CommandLine.arguments[1] == "instructions", let count = Int(CommandLine.arguments[3])
{
    let on = CommandLine.arguments[2] != "off"
    let capture: any ScreenCapture =
        CommandLine.arguments[2] == "untraced" ? UntracedCapture() : SimulatedScreenCapture()
    let configuration = ReporterConfiguration(
        serviceURL: nil, token: nil, project: "bench", spoolDirectory: scratch.appendingPathComponent("spool"),
        runID: "bench-instructions")
    let tests = XCTestSuite(name: "ReporterBench")
    for index in 0..<count { tests.addTest(XCTestCase(name: "BenchTests.test\(index)", testClosure: sampleTest)) }
    let observer = on
        ? FailscopeObserver(
            recorder: RunRecorder(configuration: configuration, capture: capture, api: nil)) : nil
    if let observer { XCTestObservationCenter.shared.addTestObserver(observer) }
    tests.run()
    if let observer { _ = observer.recorder.finish() }
    precondition(tests.testRun?.totalFailureCount == 0, "the bench tests must pass")
    try? FileManager.default.removeItem(at: scratch)
    exit(0)
}

var off: [(wall: Double, cpu: Double)] = []
var on: [(wall: Double, cpu: Double)] = []
var untraced: [(wall: Double, cpu: Double)] = []
_ = timeSuite(observer: nil)  // warm up
for round in 0..<rounds {
    func observer(_ capture: any ScreenCapture, _ name: String) -> FailscopeObserver {
        let configuration = ReporterConfiguration(
            serviceURL: nil, token: nil, project: "bench", spoolDirectory: scratch.appendingPathComponent("spool"),
            runID: "bench-\(name)-\(round)")
        return FailscopeObserver(recorder: RunRecorder(configuration: configuration, capture: capture, api: nil))
    }
    // Off, on without the action trace's trees, on: in a rotating order, so no arm always runs first.
    let arms: [() -> Void] = [
        { off.append(timeSuite(observer: nil)) },
        { untraced.append(timeSuite(observer: observer(UntracedCapture(), "untraced"))) },
        { on.append(timeSuite(observer: observer(SimulatedScreenCapture(), "on"))) },
    ]
    for index in 0..<arms.count { arms[(index + round) % arms.count]() }
    let line = String(
        format: "round %d: on %.3f s (CPU %.3f s), untraced %.3f s (CPU %.3f s), off %.3f s (CPU %.3f s)\n", round,
        on.last!.wall, on.last!.cpu, untraced.last!.wall, untraced.last!.cpu, off.last!.wall, off.last!.cpu)
    FileHandle.standardError.write(Data(line.utf8))
}
print(
    String(
        format: "BENCH|%d passing tests, reporter on vs off, wall (median of %d)|%.3f s|%.3f s off|%.3fx|<= 1.02x",
        testCount, rounds, median(on.map(\.wall)), median(off.map(\.wall)),
        median(on.map(\.wall)) / median(off.map(\.wall))))
print(
    String(
        format: "BENCH|same, process CPU time (steadier when other work shares the CPU)|%.3f s|%.3f s off|%.3fx|-",
        median(on.map(\.cpu)), median(off.map(\.cpu)), median(on.map(\.cpu)) / median(off.map(\.cpu))))
print(
    String(
        format: "BENCH|same, the action trace alone: on vs on without element trees, CPU time|%.3f s|%.3f s untraced|%.3fx|-",
        median(on.map(\.cpu)), median(untraced.map(\.cpu)), median(on.map(\.cpu)) / median(untraced.map(\.cpu))))

// Capture cost per failure on the catalog screen, iPhone 15 Pro Max.
let app = SimulatedApp(DemoApp.self, device: .iPhone15ProMax)
app.launchArguments = [DemoApp.loggedInArgument]
app.launch()
_ = app.collectionViews["catalog.grid"].waitForExistence(timeout: 5)
let spool = Spool(directory: scratch.appendingPathComponent("capture"))
let capture = SimulatedScreenCapture()
var costs: [Double] = []
for index in 0..<25 {
    let started = DispatchTime.now().uptimeNanoseconds
    guard let screen = try capture.captureScreen() else { fatalError("no screen") }
    let writer = SpoolWriter(spool: spool, runID: "capture-\(index)")
    _ = try writer.writeArtifact(screen.png, kind: .screenshot)
    _ = try writer.writeArtifact(screen.elementTree, kind: .elementTree)
    if index > 0 { costs.append(Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6) }
}
print(
    String(
        format: "BENCH|capture per failure (render + encode + spool), 1290x2796|%.1f ms|-|-|median of 24", median(costs)
    ))
app.terminate()
