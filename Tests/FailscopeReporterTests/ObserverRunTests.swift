import FailscopeClient
import FailscopeModel
import FailscopeTesting
import Foundation
import ScreenRaster
import SimulatedUI
import XCTest

/// Runs the sample UI suite as a real XCTest bundle (this test binary, in a child process, with the
/// reporter registered at load) and checks what it recorded and delivered.
final class ObserverRunTests: XCTestCase {
    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = FileManager.default.temporaryDirectory.appendingPathComponent("reporter-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// Runs the sample suite with the broken fault on (one deterministic failure) and `extra` settings.
    private func runSampleSuite(_ extra: [String: String]) throws -> ProcessOutput {
        try runProcess(
            BuildProducts.testBinary, [BuildProducts.demoSuite],
            environment: childEnvironment(
                [
                    "FAILSCOPE_SPOOL": scratch.appendingPathComponent("spool").path, "FAILSCOPE_PROJECT": "demo",
                    "FAILSCOPE_DEVICE": "iPhone 15", "DEMO_FAULTS": "cart-quantity-bug",
                    "FAILSCOPE_RUN_ID": "observer-run",
                    "FAILSCOPE_BRANCH": "main", "FAILSCOPE_COMMIT": "c0ffee",
                ].merging(extra) { $1 }))
    }

    private func spooledResults(runID: String = "observer-run") throws -> [TestResult] {
        try FailscopeClientSpool(directory: scratch.appendingPathComponent("spool")).results(ofRun: runID)
    }

    private func spooledRun() throws -> Run {
        let writers = try Spool(directory: scratch.appendingPathComponent("spool")).pendingRuns(runID: "observer-run")
            .flatMap(\.writers)
        XCTAssertEqual(writers.count, 1, "one test process, one writer folder")
        return try XCTUnwrap(writers.first?.run())
    }

    /// The line of `needle` in a test source of the sample suite (1-based), or of `folder`.
    private func line(of needle: String, in file: String, folder: String = "Tests/DemoUITests") throws -> Int {
        let text = try String(
            contentsOf: BuildProducts.packageRoot.appendingPathComponent("\(folder)/\(file)"), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        return try XCTUnwrap(lines.firstIndex { $0.contains(needle) }) + 1
    }

    func testTheObserverRecordsEveryTestAndOnlyTheFailureHasAScreenshot() throws {
        let output = try runSampleSuite([:])
        XCTAssertNotEqual(output.status, 0, "the broken test fails the bundle")
        XCTAssertTrue(
            output.standardError.contains(
                "Failscope: 18 results (16 passed, 1 failed, 0 errors, 1 skipped), 1 screenshot(s), recorded in"),
            output.standardError)
        XCTAssertFalse(output.standardOutput.contains("Failscope:"), "the reporter never writes to stdout")

        let run = try spooledRun()
        XCTAssertEqual(run.device, "iPhone 15", "the simulated screen's capture reports the device")
        XCTAssertEqual(run.osVersion, "iOS 17.5 (simulated)")
        let results = try spooledResults()
        XCTAssertEqual(results.count, 18)
        XCTAssertEqual(
            Dictionary(grouping: results, by: \.status).mapValues(\.count), [.passed: 16, .failed: 1, .skipped: 1])
        let skipped = try XCTUnwrap(results.first { $0.status == .skipped })
        XCTAssertEqual(skipped.suite, "TabletLayoutTests")
        XCTAssertEqual(skipped.skipReason, "Tablet-only test: the current device is iPhone 15 (phone)")
        for passed in results where passed.status == .passed {
            XCTAssertEqual(passed.artifacts, [], "\(passed.name) passed: no screenshot")
            XCTAssertFalse(passed.trail.isEmpty, "\(passed.name) visited pages")
            XCTAssertEqual(passed.trail.compactMap(\.elementTree), [], "\(passed.name) passed: no trace")
        }

        let failed = try XCTUnwrap(results.first { $0.status == .failed })
        XCTAssertEqual(failed.suite, "ItemTests")
        XCTAssertEqual(failed.name, "testAddToCartConfirmsQuantity")
        XCTAssertEqual(failed.pagesVisited, ["CatalogPage", "ItemPage"])
        let failure = try XCTUnwrap(failed.failures.first)
        XCTAssertEqual(failed.failures.count, 1)
        let testLine = try line(of: ".verifyCartConfirmation(", in: "ItemTests.swift")
        XCTAssertEqual(failure.page, "ItemPage")
        XCTAssertEqual(failure.action, "ItemPage.verifyCartConfirmation(quantity:of:)")
        XCTAssertEqual(failure.callSite?.description, "ItemTests.swift:\(testLine)")
        XCTAssertEqual(failure.location?.description, "ItemTests.swift:\(testLine)")
        XCTAssertTrue(failure.location?.file.hasSuffix("Tests/DemoUITests/ItemTests.swift") == true)
        XCTAssertTrue(failure.message.contains("3 × Desk Lamp Oak"), failure.message)
        XCTAssertFalse(failure.message.hasPrefix("failed - "))

        let screenshot = try XCTUnwrap(failed.artifacts.first { $0.kind == .screenshot })
        let tree = try XCTUnwrap(failed.artifacts.first { $0.kind == .elementTree })
        let artifacts = try XCTUnwrap(
            FailscopeClientSpool(directory: scratch.appendingPathComponent("spool")).spool.pendingRuns().first?
                .writers.first
        ).url.appendingPathComponent("artifacts")
        let png = try Data(contentsOf: artifacts.appendingPathComponent(screenshot.sha256 + ".png"))
        XCTAssertEqual(SHA256.hex(of: png), screenshot.sha256)
        let image = try PNGDecoder().decode(png)
        XCTAssertEqual([image.width, image.height], [1179, 2556])
        XCTAssertEqual([screenshot.width, screenshot.height], [1179, 2556])
        let snapshot = try WireCoding.decoder().decode(
            ScreenSnapshot.self, from: Data(contentsOf: artifacts.appendingPathComponent(tree.sha256 + ".json")))
        let identifiers = Set(snapshot.root.allElements.map(\.identifier))
        XCTAssertTrue(
            identifiers.isSuperset(of: ["item.cartAlert", "item.cartAlert.ok", "item.addToCart", "item.title"]))
        XCTAssertEqual(
            snapshot.root.allElements.first { $0.identifier == "item.cartAlert" }?.children.first {
                $0.elementType == .staticText && $0.label.contains("×")
            }?.label, "1 × Desk Lamp Oak")
        // The action trace: every step has its tree, the failing (last) step the one captured with the screenshot;
        // each distinct tree is one file and one reference.
        XCTAssertEqual(failed.trail.last?.elementTree, tree.sha256)
        XCTAssertTrue(failed.trail.allSatisfy { $0.elementTree != nil && $0.duration != nil }, "\(failed.trail)")
        XCTAssertEqual(failed.trail.last?.target, failure.elementFrame, "the failing step's target is the failure's")
        let trees = Set(failed.trail.compactMap(\.elementTree))
        XCTAssertEqual(Set(failed.artifacts.filter { $0.kind == .elementTree }.map(\.sha256)), trees)
        XCTAssertEqual(failed.artifacts.count, 1 + trees.count, "no reference twice")
        XCTAssertGreaterThan(trees.count, 2, "the screen changed between the steps")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: artifacts.path).count, 1 + trees.count,
            "one PNG and each distinct tree once")
    }

    func testTheSwiftTestingTraitRecordsTestsCasesAndIssuesLikeTheObserver() throws {
        let output = try runProcess(
            BuildProducts.testBinary, ["--testing-library", "swift-testing", "--filter", "SwiftTestingCatalogTests"],
            environment: childEnvironment([
                "FAILSCOPE_SPOOL": scratch.appendingPathComponent("spool").path, "FAILSCOPE_RUN_ID": "observer-run",
                "DEMO_FAULTS": "cart-quantity-bug", "FAILSCOPE_DEVICE": "iPhone 15",
            ]))
        XCTAssertEqual(output.status, 1, "the failing test fails the run; the upload at exit must not crash it")
        XCTAssertFalse((output.standardError + output.standardOutput).contains("crashed"))
        XCTAssertTrue(
            output.standardError.contains(
                "Failscope: 4 results (3 passed, 1 failed, 0 errors, 0 skipped), 1 screenshot(s)"),
            output.standardError + output.standardOutput)
        let results = try spooledResults()
        XCTAssertEqual(
            Set(results.map { "\($0.name) \($0.arguments ?? "-") \($0.status.rawValue)" }),
            [
                "searchFindsLamps() - passed", "openItemShowsItsQuantityPicker(item:) item: 3 passed",
                "openItemShowsItsQuantityPicker(item:) item: 7 passed", "addToCartConfirmsQuantity() - failed",
            ])
        XCTAssertEqual(Set(results.map(\.suite)), ["SwiftTestingCatalogTests"])
        let failed = try XCTUnwrap(results.first { $0.status == .failed })
        let failure = try XCTUnwrap(failed.failures.first)
        XCTAssertEqual(failure.page, "ItemPage")
        XCTAssertEqual(failure.action, "ItemPage.verifyCartConfirmation(quantity:of:)")
        let testLine = try line(of: ".verifyCartConfirmation(", in: "SwiftTestingCatalogTests.swift")
        XCTAssertEqual(failure.callSite?.description, "SwiftTestingCatalogTests.swift:\(testLine)")
        XCTAssertEqual(failure.location?.line, testLine)
        XCTAssertEqual(failed.artifacts.prefix(2).map(\.kind), [.screenshot, .elementTree])
        XCTAssertEqual(failed.trail.last?.elementTree, failed.artifacts[1].sha256, "the failing step's tree")
    }

    func testAResultsOnlySuiteHasNoDeviceAndItsSkipsKeepTheirReasons() throws {
        let output = try runProcess(
            BuildProducts.testBinary, ["FailscopeReporterTests.ReporterFixtureTests"],
            environment: childEnvironment([
                "FAILSCOPE_SPOOL": scratch.appendingPathComponent("spool").path, "FAILSCOPE_RUN_ID": "observer-run",
                "FAILSCOPE_REPORTER_FIXTURES": "1",
            ]))
        XCTAssertEqual(output.status, 0, output.standardError)
        XCTAssertTrue(
            output.standardError.contains("Failscope: 3 results (1 passed, 0 failed, 0 errors, 2 skipped)"),
            output.standardError)
        let run = try spooledRun()
        XCTAssertNil(run.device, "no screen capture registered: no device")
        XCTAssertNil(run.osVersion)
        let reasons = Dictionary(uniqueKeysWithValues: try spooledResults().map { ($0.name, $0.skipReason) })
        XCTAssertEqual(reasons["testSkipsWithAReason"], ReporterFixtures.skipReason)
        XCTAssertEqual(reasons["testSkipsOnACondition"], "Test skipped: required true value but got false")
        XCTAssertEqual(reasons["testPasses"], .some(nil))
    }

    func testATestWhoseSetUpThrowsIsAnErrorNotASkip() throws {
        let output = try runProcess(
            BuildProducts.testBinary, ["FailscopeReporterTests.ReporterFixtureSetUpTests"],
            environment: childEnvironment([
                "FAILSCOPE_SPOOL": scratch.appendingPathComponent("spool").path, "FAILSCOPE_RUN_ID": "observer-run",
                "FAILSCOPE_REPORTER_FIXTURES": "1",
            ]))
        XCTAssertNotEqual(output.status, 0, "XCTest fails the test")
        let result = try XCTUnwrap(try spooledResults().first)
        XCTAssertEqual(result.status, .error, "swift-corelibs-xctest marks it skipped too; it failed")
        XCTAssertNil(result.skipReason)
        XCTAssertEqual(result.failures.map(\.message), [#"threw error "no database at /nonexistent""#])
    }

    func testSwiftTestingIssuesKeepTheirCommentOnceAndARequireItsLocation() throws {
        let output = try runProcess(
            BuildProducts.testBinary,
            ["--testing-library", "swift-testing", "--filter", "ReporterFixtureSwiftTests"],
            environment: childEnvironment([
                "FAILSCOPE_SPOOL": scratch.appendingPathComponent("spool").path, "FAILSCOPE_RUN_ID": "observer-run",
                "FAILSCOPE_REPORTER_FIXTURES": "1",
            ]))
        XCTAssertEqual(output.status, 1, output.standardError)
        let results = Dictionary(uniqueKeysWithValues: try spooledResults().map { ($0.name, $0) })
        let fixtures = "Tests/FailscopeReporterTests"

        let expectation = try XCTUnwrap(results["expectationWithAComment()"])
        XCTAssertEqual(expectation.status, .failed)
        XCTAssertEqual(expectation.failures.count, 1)
        let message = try XCTUnwrap(expectation.failures.first?.message)
        XCTAssertEqual(message.components(separatedBy: "arithmetic is broken").count, 2, "the comment once: \(message)")
        XCTAssertEqual(message, "Expectation failed: (sum → 2) == 3: arithmetic is broken")
        XCTAssertEqual(
            expectation.failures.first?.location?.line,
            try line(of: "#expect(sum == 3", in: "ReporterFixtures.swift", folder: fixtures))

        let require = try XCTUnwrap(results["requireStopsTheTest()"])
        XCTAssertEqual(require.status, .failed, "a #require that fails stops the test; nothing was thrown by the test")
        XCTAssertEqual(require.failures.count, 1, "\(require.failures.map(\.message))")
        XCTAssertEqual(
            require.failures.first?.location?.line,
            try line(of: "try #require(missing", in: "ReporterFixtures.swift", folder: fixtures))
        XCTAssertEqual(require.failures.first?.message.components(separatedBy: "no value").count, 2)
    }

    func testProcessesOfOneInvocationShareOneRunAsWithParallelTesting() throws {
        // `swift test --parallel` runs one process per test, all children of one parent: here a shell.
        let binary = BuildProducts.testBinary.path
        let output = try runProcess(
            URL(fileURLWithPath: "/bin/sh"),
            ["-c", "'\(binary)' DemoUITests.LoginTests & '\(binary)' DemoUITests.ItemTests & wait"],
            environment: childEnvironment(["FAILSCOPE_SPOOL": scratch.appendingPathComponent("spool").path]))
        XCTAssertEqual(output.status, 0, output.standardError)
        let runs = try FileManager.default.contentsOfDirectory(atPath: scratch.appendingPathComponent("spool").path)
        XCTAssertEqual(runs.count, 1, "one run for both processes: \(runs)")
        let results = try spooledResults(runID: runs[0])
        XCTAssertEqual(Set(results.map(\.suite)), ["LoginTests", "ItemTests"])
        XCTAssertEqual(results.count, 8)
    }

    func testADownServiceLosesNothingAndALaterUploadDeliversEverythingOnce() throws {
        // A port nobody listens on: a service started and stopped.
        let gone = try ServeProcess(dataDirectory: scratch.appendingPathComponent("gone"))
        let deadURL = gone.url
        gone.stop()

        let output = try runSampleSuite([
            "FAILSCOPE_URL": deadURL.absoluteString, "FAILSCOPE_UPLOAD_RETRY_SECONDS": "1",
        ])
        XCTAssertTrue(output.standardError.contains("file(s) wait in"), output.standardError)
        XCTAssertTrue(output.standardError.contains("send them with `failscope upload`"), output.standardError)
        XCTAssertEqual(try spooledResults().count, 18, "everything stays in the spool")

        let service = try ServeProcess(dataDirectory: scratch.appendingPathComponent("data"))
        let upload = [
            "upload", "--spool", scratch.appendingPathComponent("spool").path, "--url", service.url.absoluteString,
            "--token", service.token,
        ]
        let artifactCount = try Spool(directory: scratch.appendingPathComponent("spool")).pendingRuns().flatMap(\.writers)
            .flatMap(\.artifactFiles).count
        XCTAssertGreaterThan(artifactCount, 2, "a PNG and the failing test's trace trees")
        let first = try runProcess(BuildProducts.failscope, upload, environment: childEnvironment([:]))
        XCTAssertEqual(first.status, 0, first.standardError)
        XCTAssertTrue(
            first.standardError.contains("18 result(s), \(artifactCount) artifact(s) sent"), first.standardError)
        XCTAssertEqual(try service.counts(ofRun: "observer-run")?["total"], 18)
        XCTAssertEqual(try service.counts(ofRun: "observer-run")?["failed"], 1)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: scratch.appendingPathComponent("spool/observer-run").path))

        let second = try runProcess(BuildProducts.failscope, upload, environment: childEnvironment([:]))
        XCTAssertEqual(second.status, 0, second.standardError)
        XCTAssertTrue(second.standardError.contains("0 run(s), 0 result(s)"), second.standardError)
        XCTAssertEqual(try service.counts(ofRun: "observer-run")?["total"], 18, "nothing twice")
    }

    func testAServiceKilledMidUploadLosesNothingAndDuplicatesNothing() throws {
        // A large spool, written as the reporter writes it.
        let spool = scratch.appendingPathComponent("spool")
        let client = FailscopeClientSpool(directory: spool)
        try client.fill(runID: "big-run", results: 6_000, perFile: 100)

        let data = scratch.appendingPathComponent("data")
        var service = try ServeProcess(dataDirectory: data)
        let process = Process()
        process.executableURL = BuildProducts.failscope
        process.arguments = [
            "upload", "--spool", spool.path, "--url", service.url.absoluteString, "--token", service.token,
            "--retry-seconds", "0",
        ]
        process.environment = childEnvironment([:])
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Kill the service once some results are acknowledged, while the upload is running.
        var acknowledged = 0
        while process.isRunning && acknowledged == 0 {
            acknowledged = try service.counts(ofRun: "big-run")?["total"] ?? 0
        }
        service.stop(signal: SIGKILL)
        process.waitUntilExit()
        XCTAssertGreaterThan(acknowledged, 0)
        XCTAssertEqual(process.terminationStatus, 2, "the upload was cut off: some files stay in the spool")

        service = try ServeProcess(dataDirectory: data)
        let rerun = try runProcess(
            BuildProducts.failscope,
            ["upload", "--spool", spool.path, "--url", service.url.absoluteString, "--token", service.token],
            environment: childEnvironment([:]))
        XCTAssertEqual(rerun.status, 0, rerun.standardError)
        XCTAssertEqual(try service.counts(ofRun: "big-run")?["total"], 6_000, "every result once")
    }
}
