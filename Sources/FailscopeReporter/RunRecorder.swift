import FailscopeClient
import FailscopeModel
import Foundation

/// Records a run's tests into the spool, whatever runs them (the XCTest observer, the Swift
/// Testing trait): results, failures with their page and call site, and at a test's first failure
/// the screen as PNG plus its element tree. Uploads at the end and prints one summary line.
///
/// Thread-safe. Passing tests never render, encode or write an image. Spool write errors are
/// reported in the summary line; they never change a test's outcome.
public final class RunRecorder: @unchecked Sendable {
    /// A test between its start and its end.
    public final class ActiveTest: @unchecked Sendable {
        let suite: String
        let name: String
        let arguments: String?
        let startedAt: Date
        let attempt: Int
        /// Whether an earlier attempt of this test in this process failed (its passing retry keeps a trace).
        let retriesAFailure: Bool
        var failures: [Failure] = []
        var artifacts: [ArtifactRef] = []
        var captured = false
        /// When the first failure was recorded: the end of the last trail step's duration.
        var failedAt: Date?

        init(suite: String, name: String, arguments: String?, startedAt: Date, attempt: Int, retriesAFailure: Bool) {
            self.suite = suite
            self.name = name
            self.arguments = arguments
            self.startedAt = startedAt
            self.attempt = attempt
            self.retriesAFailure = retriesAFailure
        }

        /// The test's key among its attempts: suite, name and arguments.
        var key: String { "\(suite)\u{1F}\(name)\u{1F}\(arguments ?? "")" }
    }

    public let configuration: ReporterConfiguration
    public let spool: Spool
    /// This process's folder of the run in the spool.
    public let spoolWriter: SpoolWriter
    private let writer: ResultWriter
    private let live: LiveUploader?
    private var capture: (any ScreenCapture)?
    /// The device the capture plug-in reported; the run has none until one does.
    private var device: ScreenDevice?
    private let trail: PageTrail
    private let api: (any IngestAPI)?
    private let lock = NSLock()
    private var runWritten = false
    private var attempts: [String: Int] = [:]
    /// Keys of tests with a failed attempt in this process.
    private var failedTests: Set<String> = []
    private var counts = ResultCounts()
    private var screenshots = 0
    private var problems: [String] = []
    private var startedAt = Date()
    private var unfinishedResults = 0

    public init(
        configuration: ReporterConfiguration, capture: (any ScreenCapture)? = nil, api: (any IngestAPI)?,
        trail: PageTrail = .shared
    ) {
        self.configuration = configuration
        self.spool = Spool(directory: configuration.spoolDirectory)
        self.spoolWriter = SpoolWriter(spool: spool, runID: configuration.runID)
        self.writer = ResultWriter(spoolWriter: spoolWriter)
        self.capture = capture
        self.device = capture?.device
        self.api = api
        self.trail = trail
        let spoolWriter = self.spoolWriter
        trail.onStepAdded { spoolWriter.pageStep($0.trailStep) }
        if let api, configuration.liveUploadSeconds > 0 {
            // One try an upload: a service that does not answer is retried by the next one or the end.
            let uploader = Uploader(api: api, spool: spool, retryWindow: 0, honoursUnreachableMark: true)
            let runID = configuration.runID
            let live = LiveUploader(interval: configuration.liveUploadSeconds) {
                _ = Self.blocking { await uploader.upload(runID: runID, ownFolder: spoolWriter.folder) }
            }
            writer.batchWritten = { live.resultsWritten() }
            self.live = live
        } else {
            live = nil
        }
    }

    /// The run as the spool and the service know it: with a device once a capture plug-in reported one.
    public var run: Run { lock.withLock { makeRun() } }

    /// The run now; the caller holds `lock`.
    private func makeRun() -> Run {
        Run(
            id: configuration.runID, project: configuration.project, branch: configuration.ci.branch,
            commit: configuration.ci.commit, device: device?.name, osVersion: device?.osVersion,
            ciProvider: configuration.ci.provider, ciBuildURL: configuration.ci.buildURL, ciJob: configuration.ci.job,
            source: .reporter, startedAt: startedAt)
    }

    /// Captures failing tests' screens with `capture` from now on; its device becomes the run's (the
    /// spool's run is rewritten when the device changes). Cheap when nothing changes: a test case may
    /// register its capture before every test.
    public func useScreenCapture(_ capture: any ScreenCapture) {
        let newDevice = capture.device
        let changedRun = lock.withLock { () -> Run? in
            self.capture = capture
            guard let newDevice, newDevice != device else { return nil }
            device = newDevice
            return runWritten ? makeRun() : nil
        }
        guard let changedRun else { return }
        do {
            try spoolWriter.write(changedRun)
        } catch {
            note("cannot write the run's device to the spool at \(spool.directory.path): \(error)")
        }
    }

    // MARK: Tests

    /// A test starts: forget the previous test's page trail, and record the start in the spool's
    /// journal, so that a crash before its end still leaves a result (an `error`).
    public func testWillStart(suite: String, name: String, arguments: String? = nil) -> ActiveTest {
        trail.reset()
        // The trace's trees come from whichever capture is registered when a step runs (a test case
        // registers its capture in its setUp, after this).
        trail.useElementTrees { [weak self] in
            guard let self, let capture = self.lock.withLock({ self.capture }) else { return nil }
            return capture.snapshotElementTree()
        }
        let test = lock.withLock {
            writeRunIfNeeded()
            let key = "\(suite)\u{1F}\(name)\u{1F}\(arguments ?? "")"
            attempts[key, default: 0] += 1
            return ActiveTest(
                suite: suite, name: name, arguments: arguments, startedAt: Date(), attempt: attempts[key]!,
                retriesAFailure: failedTests.contains(key))
        }
        do {
            try spoolWriter.testStarted(
                TestResult(
                    suite: suite, name: name, arguments: arguments, attempt: test.attempt, status: .error,
                    startedAt: test.startedAt))
            CrashSignals.install(journal: spoolWriter.journalFileDescriptor)
        } catch {
            note("cannot record the start of \(suite).\(name) in the spool: \(error)")
        }
        return test
    }

    /// A failure (or issue) in `test`: attributed to the page, action and call site on the page
    /// trail now; at the test's first failure the screen is captured.
    public func recordFailure(
        in test: ActiveTest, message: String, file: String?, line: Int?, isError: Bool = false
    ) {
        let step = trail.current
        let location = file.map { SourceLocation(file: $0, line: line ?? 0) }
        let frame = step?.targetFrame.map {
            Frame(x: Double($0.minX), y: Double($0.minY), width: Double($0.width), height: Double($0.height))
        }
        let failure = Failure(
            message: message, location: location, page: step?.page,
            action: step.flatMap { step in
                step.action.map { "\(step.page).\($0)" }
            }, callSite: step.map { SourceLocation(file: $0.file, line: $0.line) }, elementFrame: frame,
            isError: isError)
        let shouldCapture = lock.withLock {
            test.failures.append(failure)
            if test.failedAt == nil { test.failedAt = Date() }
            defer { test.captured = true }
            return !test.captured
        }
        if shouldCapture { captureScreen(for: test) }
    }

    private func captureScreen(for test: ActiveTest) {
        guard let capture = lock.withLock({ self.capture }) else { return }
        do {
            guard let screen = try capture.captureScreen() else { return }
            let png = try spoolWriter.writeArtifact(
                screen.png, kind: .screenshot, width: screen.pixelWidth, height: screen.pixelHeight)
            let tree = try spoolWriter.writeArtifact(screen.elementTree, kind: .elementTree)
            trail.replaceLastTree(with: EncodedElementTree(data: screen.elementTree))
            lock.withLock {
                test.artifacts = [png, tree]
                screenshots += 1
            }
        } catch {
            note("screen capture failed for \(test.suite).\(test.name): \(error)")
        }
    }

    /// The failures recorded in `test` so far.
    public func failures(of test: ActiveTest) -> [Failure] {
        lock.withLock { test.failures }
    }

    /// The test ended: its result goes to the spool (written in the background; see `ResultWriter`).
    public func testDidFinish(_ test: ActiveTest, status: TestStatus, duration: Double?, skipReason: String? = nil) {
        trail.useElementTrees(from: nil)
        let (failures, failedAt, captured) = lock.withLock { (test.failures, test.failedAt, test.artifacts) }
        let failed = !failures.isEmpty || status == .failed || status == .error
        var trailSteps = trail.steps.map(\.trailStep)
        var artifacts = captured
        if failed || test.retriesAFailure || configuration.tracesPassingTests {
            (trailSteps, artifacts) = trace(of: test, endingAt: failedAt ?? Date(), artifacts: captured)
        }
        let result = TestResult(
            suite: test.suite, name: test.name, arguments: test.arguments, attempt: test.attempt, status: status,
            skipReason: skipReason, startedAt: test.startedAt, duration: duration, failures: failures,
            trail: trailSteps, artifacts: artifacts)
        writer.append(spoolWriter.testEnded(result))
        lock.withLock {
            counts.add(status)
            if failed { failedTests.insert(test.key) }
            unfinishedResults += 1
        }
    }

    /// The trail with its action trace: each step's duration and target, and its element tree written to the
    /// spool as a content-addressed `element_tree` artifact (identical trees are one file and one reference),
    /// appended to `artifacts`. A tree that cannot be encoded or written leaves its step without one.
    private func trace(of test: ActiveTest, endingAt end: Date, artifacts: [ArtifactRef]) -> ([TrailStep], [ArtifactRef])
    {
        let steps = trail.steps
        let trees = trail.elementTrees
        var artifacts = artifacts
        var referenced = Set(artifacts.map(\.sha256))
        var traced: [TrailStep] = []
        traced.reserveCapacity(steps.count)
        for (index, step) in steps.enumerated() {
            var item = step.trailStep
            let next = index + 1 < steps.count ? steps[index + 1].startedAt : max(end, step.startedAt)
            item.duration = next.timeIntervalSince(step.startedAt)
            item.target = step.targetFrame.map {
                Frame(x: Double($0.minX), y: Double($0.minY), width: Double($0.width), height: Double($0.height))
            }
            if let tree = trees[index] {
                do {
                    let ref = try spoolWriter.writeArtifact(try tree.encodedTree(), kind: .elementTree)
                    item.elementTree = ref.sha256
                    if referenced.insert(ref.sha256).inserted { artifacts.append(ref) }
                } catch {
                    note("cannot write the element tree of a step of \(test.suite).\(test.name): \(error)")
                }
            }
            traced.append(item)
        }
        return (traced, artifacts)
    }

    private func writeRunIfNeeded() {
        guard !runWritten else { return }
        do {
            try spoolWriter.write(makeRun())
            runWritten = true
        } catch {
            problems.append("cannot write the run to the spool at \(spool.directory.path): \(error)")
        }
    }

    private func note(_ problem: String) {
        lock.withLock { problems.append(problem) }
    }

    // MARK: The end

    /// Marks this process's part of the run finished in the spool, uploads it with whatever other
    /// processes of the run left behind (blocking, bounded by the uploader's retry window, or one try
    /// when another process of the run found the service unreachable) and returns the summary line.
    /// Does nothing when no test finished since the last call (the XCTest bundle end and the process
    /// exit may both call it); `nil` too when the configuration is quiet.
    public func finish() -> String? {
        let (ran, recorded, fresh) = lock.withLock {
            defer { unfinishedResults = 0 }
            return (runWritten, counts, unfinishedResults)
        }
        guard ran, fresh > 0 else { return nil }
        for problem in writer.flush() { note(problem) }
        live?.pause()
        do {
            try spoolWriter.markFinished(at: Date())
        } catch {
            note("cannot mark the run finished: \(error)")
        }
        var destination: String
        if let api {
            let uploader = Uploader(
                api: api, spool: spool, retryWindow: configuration.uploadRetrySeconds, honoursUnreachableMark: true)
            let own = spoolWriter.folder
            let report = Self.blocking { await uploader.upload(runID: self.configuration.runID, ownFolder: own) }
            if report.ownFolderDelivered { spoolWriter.removeDelivered() }
            if report.problems.isEmpty && report.remainingFiles == 0 {
                destination = "uploaded to \(api.dashboardURL(runID: configuration.runID))"
            } else if report.problems.isEmpty {
                destination =
                    "uploaded to \(api.dashboardURL(runID: configuration.runID)) (\(report.remainingFiles) file(s) "
                    + "of \(report.foldersOfRunningProcesses) other process(es) of the run still running wait for them)"
            } else {
                destination =
                    "\(report.remainingFiles) file(s) wait in \(spool.directory.path)/\(configuration.runID) "
                    + "(\(report.problems.first ?? "upload incomplete")); send them with `failscope upload`"
            }
        } else {
            destination = "recorded in \(spool.directory.path)/\(configuration.runID) (FAILSCOPE_URL is not set)"
        }
        let (shots, issues) = lock.withLock { (screenshots, problems) }
        var line = "Failscope: \(recorded.summaryText), \(shots) screenshot(s), \(destination)"
        if !issues.isEmpty { line += "; problems: " + issues.joined(separator: "; ") }
        return configuration.isQuiet ? nil : line
    }

    /// Runs async work to completion from synchronous code (XCTest's bundle end must block).
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let semaphore = DispatchSemaphore(value: 0)
        let box = ResultBox<T>()
        Task.detached {
            box.value = await work()
            semaphore.signal()
        }
        semaphore.wait()
        return box.value!
    }
}

private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}
