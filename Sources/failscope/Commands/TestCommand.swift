import FailscopeClient
import FailscopeImport
import FailscopeModel
import Foundation

/// `failscope test -- swift test …`: runs a test command as one CI step and records it as one run.
///
/// Every process the command starts shares one run id (`FAILSCOPE_RUN_ID`), one spool and the
/// service; the reporter in them uploads as the tests run and prints no summary of its own
/// (`FAILSCOPE_QUIET=1`). For `swift test` the command also gets `--event-stream-output-path`, so
/// every Swift Testing test is recorded, with or without the `.failscope` trait (a test the trait
/// recorded is not recorded twice). At the end what the processes left is uploaded (a crashed test as
/// an error), the summary line is printed, and the exit status is the test command's; with `--quarantine obey`, 0
/// when the run's only failing tests were quarantined when they ran (README.md "Quarantine").
enum TestCommand: Command {
    static let name = "test"
    static let summary = "Run a test command and record it as one run."
    static let discussion = """
        XCTest tests are recorded by the reporter the test target links; with `swift test`, every
        Swift Testing test is recorded from its event stream too. Exit status: the test command's
        (128 + N when it died of signal N; 0 for quarantined failures with --quarantine obey), or 64 for a
        usage error.
        """
    static let positional: PositionalArgument? = PositionalArgument(
        kind: .afterSeparator, valueName: "command", help: "The test command, e.g. swift test --parallel.")

    static let url = SharedOptions.url.help("The service; without it the run stays in the spool.")
    static let project = Option<String>(
        "project", value: "name", help: "The project.", defaultHelp: "the working directory's name",
        environment: "FAILSCOPE_PROJECT")
    static let runID = SharedOptions.runID.environment("FAILSCOPE_RUN_ID").help("The run's id.")
        .defaultHelp("a new one")
    static let retrySeconds = SharedOptions.retrySeconds.help(
        "How long to retry an unreachable service, here and in the test processes.")
    static let summaryFile = Option<String>(
        "summary", value: "file",
        help: "Write what changed against the base branch as Markdown (as `failscope summary`), also appended to "
            + "$GITHUB_STEP_SUMMARY when that is set.")
    static let baseBranch = SummaryCommand.baseBranch.help("The branch --summary compares with.")
    static let quarantine = Option<String>.choice(
        "quarantine", value: "mode", [QuarantineMode.ignore.rawValue, QuarantineMode.obey.rawValue],
        help: "obey: failures of tests quarantined when they ran do not fail the step (exit 0 when they are the "
            + "run's only failing tests; they are still recorded, marked quarantined). ignore: they fail it like "
            + "any other.", default: QuarantineMode.ignore.rawValue)
    static let options: [any OptionDeclaration] = [
        url, SharedOptions.uploadToken, project, runID, SharedOptions.spool, retrySeconds, summaryFile, baseBranch,
        quarantine,
    ]

    /// The variable that tells the reporter in the test processes to print no summary line of its own.
    static let quietVariable = "FAILSCOPE_QUIET"

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let environment = ProcessInfo.processInfo.environment
        let url = try arguments.value(Self.url)
        let token = try arguments.value(SharedOptions.uploadToken)
        let project =
            try arguments.value(Self.project)
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath).lastPathComponent
        let runID = try arguments.value(Self.runID) ?? newRunID()
        let spoolPath = try arguments.required(SharedOptions.spool)
        let retry = try arguments.retryWindow()
        let summaryFile = try arguments.value(Self.summaryFile)
        let baseBranch = try arguments.required(Self.baseBranch)
        let quarantineMode = try QuarantineMode(rawValue: arguments.required(Self.quarantine)) ?? .ignore
        var command = arguments.trailing
        guard !command.isEmpty else { throw UsageError("the test command is missing: failscope test -- swift test") }

        let spool = Spool(directory: URL(fileURLWithPath: spoolPath).standardizedFileURL)
        let started = Date()
        let events = spool.folder(of: runID).deletingLastPathComponent().appendingPathComponent(
            ".\(runID).events.jsonl")
        let recordsEvents = isSwiftTest(command) && !command.contains("--event-stream-output-path")
        if recordsEvents {
            try FileManager.default.createDirectory(at: spool.directory, withIntermediateDirectories: true)
            try? FileManager.default.removeItem(at: events)
            command += ["--event-stream-output-path", events.path, "--event-stream-version", "0"]
        }
        var childEnvironment = environment
        childEnvironment["FAILSCOPE_RUN_ID"] = runID
        childEnvironment["FAILSCOPE_SPOOL"] = spool.directory.path
        childEnvironment["FAILSCOPE_PROJECT"] = project
        childEnvironment["FAILSCOPE_URL"] = url?.absoluteString
        childEnvironment["FAILSCOPE_TOKEN"] = token
        childEnvironment[quietVariable] = "1"
        childEnvironment["FAILSCOPE_UPLOAD_RETRY_SECONDS"] = String(retry)
        let status = try runToEnd(command, environment: childEnvironment)

        var notes: [String] = []
        let api = url.map { APIClient(baseURL: $0, token: token) }
        // What the test processes could not send (a crash, the service down), then the Swift Testing
        // tests the trait did not record: those neither in the spool nor on the service.
        var report: Uploader.Report?
        if let api { report = await Uploader(api: api, spool: spool, retryWindow: retry).upload(runID: runID) }
        if recordsEvents {
            do {
                var recorded = try Set(spool.results(ofRun: runID).map(TestJournal.key(of:)))
                if let api, let detail = try? await api.get(RunDetail.self, "api/v1/runs/\(runID)") {
                    recorded.formUnion(detail.pages.flatMap(\.callSites).flatMap(\.results).map(TestJournal.key(of:)))
                }
                let added = try recordSwiftTesting(
                    from: events, excluding: recorded, runID: runID, project: project, spool: spool, at: started)
                if added > 0 {
                    notes.append("\(added) Swift Testing result(s) recorded from the event stream")
                    if let api {
                        let more = await Uploader(api: api, spool: spool, retryWindow: retry).upload(
                            runID: runID)
                        report?.remainingFiles = more.remainingFiles
                        report?.problems += more.problems
                    }
                }
            } catch {
                notes.append("the Swift Testing event stream could not be read: \(error)")
            }
            try? FileManager.default.removeItem(at: events)
        }
        // What waits in the spool, for the summary when the service cannot say.
        let spooled = ResultCounts(counting: ((try? spool.results(ofRun: runID)) ?? []).map(\.status))
        guard let url, let api, let report else {
            if quarantineMode == .obey { notes.append("--quarantine obey needs the service: nothing forgiven") }
            printError(
                "Failscope: \(spooled.summaryText), run \(runID) recorded in \(spool.folder(of: runID).path) "
                    + "(no --url or FAILSCOPE_URL); send it with `failscope upload`" + notes.map { "; " + $0 }.joined())
            return status
        }
        if report.crashedTests > 0 {
            notes.append("\(report.crashedTests) test(s) of crashed processes recorded as errors")
        }
        var line: String
        let uploaded = report.remainingFiles == 0 && report.problems.isEmpty
        var exitStatus = status
        if let summary = try? await api.get(RunDetail.self, "api/v1/runs/\(runID)").summary {
            line = "Failscope: \(summary.counts.summaryText), run \(summary.status.rawValue)"
            if quarantineMode == .obey && status != 0 {
                // Only failures the run explains are forgiven: a build error leaves no failing test to forgive.
                if uploaded && summary.status == .failed && summary.statusWithQuarantine == .passed {
                    exitStatus = 0
                    notes.append(
                        "exit 0 instead of \(status): every failing test was quarantined (--quarantine obey)")
                } else if !uploaded && summary.statusWithQuarantine == .passed {
                    notes.append("results wait in the spool: nothing forgiven (--quarantine obey)")
                } else if summary.counts.quarantinedFailingTests > 0 {
                    notes.append("failing tests that are not quarantined remain")
                }
            }
        } else {
            line = "Failscope: \(spooled.summaryText) in the spool, run \(runID)"
            if quarantineMode == .obey { notes.append("the service did not answer: nothing forgiven") }
        }
        if uploaded {
            line += ", uploaded to \(api.dashboardURL(runID: runID))"
        } else {
            line +=
                ", \(report.remainingFiles) file(s) wait in \(spool.folder(of: runID).path) "
                + "(\(RunsCommand.clean(report.problems.first ?? "upload incomplete"))); send them with `failscope upload`"
        }
        printError(line + notes.map { "; " + $0 }.joined())
        if let summaryFile {
            do {
                let comparison = try await SummaryCommand.compare(
                    runID: runID, api: api, baseBranch: baseBranch, baseRun: nil)
                try SummaryCommand.write(
                    PullRequestSummary(comparison: comparison, serviceURL: url).markdown, to: summaryFile)
            } catch {
                printError("Failscope: no summary: \(RunsCommand.clean("\(error)"))")
            }
        }
        return exitStatus
    }

    /// What `--quarantine` does with the failures of quarantined tests.
    enum QuarantineMode: String {
        /// They fail the step like any other (today's behaviour without a quarantine).
        case ignore
        /// They do not fail the step.
        case obey
    }

    /// A new run id: `run-` and 20 random hex digits.
    static func newRunID() -> String {
        "run-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
    }

    /// Whether `command` is `swift test …` (or `swift-test …`).
    static func isSwiftTest(_ command: [String]) -> Bool {
        let program = URL(fileURLWithPath: command[0]).lastPathComponent
        return program == "swift-test" || (program == "swift" && command.dropFirst().first == "test")
    }

    /// Runs `command` (found on PATH) with the terminal's standard streams; returns its exit status,
    /// 128 + N for a death by signal N.
    static func runToEnd(_ command: [String], environment: [String: String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.environment = environment
        do {
            try process.run()
        } catch {
            throw CommandError("cannot run \(command[0]): \(error.localizedDescription)")
        }
        process.waitUntilExit()
        return process.terminationReason == .uncaughtSignal
            ? 128 + process.terminationStatus : process.terminationStatus
    }

    /// Writes the Swift Testing results of the event stream at `events` whose keys
    /// (`TestJournal.key(of:)`) are not in `recorded` into the run's spool, as one more writer of the
    /// run; returns how many.
    static func recordSwiftTesting(
        from events: URL, excluding recorded: Set<String>, runID: String, project: String, spool: Spool,
        at started: Date
    ) throws -> Int {
        guard FileManager.default.fileExists(atPath: events.path) else { return 0 }
        let report = try EventStreamImporter().parse(fileAt: events.path)
        let missing = report.results.filter { !recorded.contains(TestJournal.key(of: $0)) }
        guard !missing.isEmpty else { return 0 }
        let environment = ProcessInfo.processInfo.environment
        var ci = CIEnvironment.detect(environment).fillingFromGit()
        if let branch = environment["FAILSCOPE_BRANCH"], !branch.isEmpty { ci.branch = branch }
        if let commit = environment["FAILSCOPE_COMMIT"], !commit.isEmpty { ci.commit = commit }
        let writer = SpoolWriter(spool: spool, runID: runID)
        try writer.write(
            Run(
                id: runID, project: project, branch: ci.branch, commit: ci.commit, ciProvider: ci.provider,
                ciBuildURL: ci.buildURL, ciJob: ci.job, source: .reporter, startedAt: report.startedAt ?? started))
        try writer.write(missing)
        try writer.markFinished(at: Date())
        return missing.count
    }
}
