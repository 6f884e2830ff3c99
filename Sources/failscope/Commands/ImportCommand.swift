import FailscopeClient
import FailscopeImport
import FailscopeModel
import Foundation

/// `failscope import`: reads JUnit XML, Swift Testing event streams and xcresulttool JSON from CI and
/// uploads each file as one run (or all files as one run with `--run-id`) through the spool and its
/// uploader, as the reporter does: a run the service did not take stays in the spool for `failscope upload`.
///
/// Exit codes: 0 every file imported; 2 some files failed (each said why on stderr), the rest imported;
/// 1 nothing imported; 64 a usage error. Text from the reports, their paths and the service is untrusted:
/// its control characters are printed as `?` (`RunsCommand.clean`), so a report cannot drive the terminal.
enum ImportCommand: Command {
    static let name = "import"
    static let summary = "Import JUnit XML, Swift Testing event streams or xcresult JSON as runs."
    static let discussion = """
        Every request is idempotent. A run the service did not take stays in the spool, and
        `failscope upload` (with the same --spool) sends it later.

        Exit status: 0 all imported, 2 some files failed, 1 nothing imported, 64 usage error.
        """
    static let positional: PositionalArgument? = PositionalArgument(
        kind: .words, valueName: "file",
        help: "Report files, folders (every file inside, recursively) or glob patterns (\"out/*.xml\"). The format "
            + "is read from the content: JUnit/xUnit XML, Swift Testing event stream (JSON Lines), `xcrun "
            + "xcresulttool get test-results tests` JSON (or the legacy JSON).")

    static let project = Option<String>(
        "project", value: "name", help: "The project the runs belong to.", required: true)
    static let branch = Option<String>("branch", value: "b", help: "The branch that was tested.")
    static let commit = Option<String>("commit", value: "sha", help: "The commit that was tested.")
    static let device = Option<String>("device", value: "name", help: "The device, overriding the one a report names.")
    static let url = SharedOptions.url.help("The Failscope service; required unless --dry-run.")
    static let runID = SharedOptions.runID.help(
        "Import every file into this one run (\(Run.idRule)), e.g. SwiftPM's xunit.xml with its xunit-swift-testing.xml. Without "
            + "it, one run per file, its id derived from the project, --branch, --commit, --device and the file's "
            + "bytes, so importing the same file with the same options again changes nothing.")
    static let spool = SharedOptions.spool.help("Where each run waits until the service has it.")
    static let dryRun = Option<Bool>.flag(
        "dry-run", help: "Parse and print per file: tests, failures, skipped, flaky, warnings. Upload nothing.")
    static let options: [any OptionDeclaration] = [
        project, branch, commit, device, url, SharedOptions.uploadToken, runID, spool, SharedOptions.retrySeconds,
        dryRun,
    ]

    /// Files at least this large report their progress on stderr.
    static let progressThreshold: Int64 = 16 << 20

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let project = try arguments.required(Self.project)
        guard !project.isEmpty else { throw UsageError("--project is required") }
        let options = ImportOptions(
            project: project, branch: try arguments.value(branch), commit: try arguments.value(commit),
            device: try arguments.value(device))
        let dryRun = arguments.flag(Self.dryRun)
        let url = try arguments.value(Self.url)
        let token = try arguments.value(SharedOptions.uploadToken)
        let runID = try arguments.value(Self.runID)
        let spoolPath = try arguments.required(spool)
        let retry = try arguments.retryWindow()
        let reports = arguments.positional
        guard !reports.isEmpty else {
            throw UsageError("give at least one report file, folder or pattern")
        }
        var uploader: ReportUploader?
        if !dryRun {
            guard let url else {
                throw UsageError("--url (or FAILSCOPE_URL) is needed to upload; or use --dry-run")
            }
            let spool = Spool(directory: URL(fileURLWithPath: spoolPath))
            uploader = ReportUploader(
                uploader: Uploader(api: APIClient(baseURL: url, token: token), spool: spool, retryWindow: retry))
        }

        let expansion = ReportFiles.expand(reports)
        var failed = expansion.problems.count
        for problem in expansion.problems { printError("error: \(RunsCommand.clean("\(problem)"))") }
        for warning in ReportFiles.missingSiblings(of: expansion.files) {
            printError("warning: \(RunsCommand.clean(warning))")
        }

        var parsed: [(file: String, report: ParsedReport)] = []
        for file in expansion.files {
            do {
                let report = try parse(file)
                parsed.append((file, report))
                printSummary(of: report, file: file, dryRun: dryRun)
            } catch {
                failed += 1
                printError("error: \(RunsCommand.clean(error.description))")
            }
        }

        var imported = 0
        if let runID {
            if !parsed.isEmpty {
                if dryRun {
                    print("would import \(parsed.count) file\(parsed.count == 1 ? "" : "s") as run \(runID)")
                    imported = parsed.count
                } else if await upload(parsed.map(\.report), files: parsed.map(\.file), as: runID, options, uploader!) {
                    imported = parsed.count
                } else {
                    failed += parsed.count
                }
            }
        } else {
            for (file, report) in parsed {
                if dryRun {
                    imported += 1
                    continue
                }
                do {
                    let id = ReportDigest.runID(
                        options, contentDigests: [try ReportDigest.contentDigest(ofFileAt: file)])
                    if await upload([report], files: [file], as: id, options, uploader!) {
                        imported += 1
                    } else {
                        failed += 1
                    }
                } catch {
                    failed += 1
                    printError("error: \(RunsCommand.clean("\(error)"))")
                }
            }
        }
        if imported == 0 {
            if failed == 0 { printError("error: no report files given") }
            return 1
        }
        return failed > 0 ? 2 : 0
    }

    private static func parse(_ file: String) throws(ImportError) -> ParsedReport {
        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? NSNumber)?.int64Value ?? 0
        guard size >= progressThreshold else { return try ReportImporter().parse(fileAt: file) }
        let meter = ProgressMeter(file: file)
        let report = try ReportImporter().parse(fileAt: file) { read, total in meter.update(read: read, total: total) }
        return report
    }

    /// `file (format): 192 tests, 20 failures, 7 skipped, 1 flaky, 1 warning`, then the warnings and flaky tests.
    private static func printSummary(of report: ParsedReport, file: String, dryRun: Bool) {
        let summary = report.summary
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        print(
            "\(RunsCommand.clean(file)) (\(report.format.rawValue)): \(plural(summary.tests, "test")), \(plural(summary.failures, "failure")), "
                + "\(summary.skipped) skipped, \(summary.flaky) flaky, \(plural(summary.warnings, "warning"))"
                + (summary.attempts > summary.tests ? " (\(summary.attempts) results with retries)" : ""))
        var warnings = report.warnings
        if report.isSuspicious, !warnings.contains(where: { $0.hasPrefix("empty report") }) {
            warnings.insert("empty report: 0 tests (suspicious)", at: 0)
        }
        for warning in warnings.map(RunsCommand.clean) {
            if dryRun {
                print("  warning: \(warning)")
            } else {
                printError("warning: \(RunsCommand.clean(file)): \(warning)")
            }
        }
        guard dryRun else { return }
        for test in report.tests where test.isFlaky {
            let attempts = test.attempts.map { "\($0.status.rawValue)" }.joined(separator: ", ")
            let arguments = test.final.arguments.map { " (\($0))" } ?? ""
            print("  flaky: \(RunsCommand.clean("\(test.final.suite)/\(test.final.name)\(arguments)")): \(attempts)")
        }
    }

    /// Uploads one run; prints the outcome. Returns whether it arrived.
    private static func upload(
        _ reports: [ParsedReport], files: [String], as id: String, _ options: ImportOptions, _ uploader: ReportUploader
    ) async -> Bool {
        let modified =
            files.compactMap {
                (try? FileManager.default.attributesOfItem(atPath: $0)[.modificationDate]) as? Date
            }.min() ?? Date()
        let run = ReportUploader.run(id: id, for: reports, options: options, fallbackStart: modified)
        let results = ReportUploader.results(of: reports)
        let names = files.joined(separator: ", ")
        let outcome: ReportUploader.Outcome
        do {
            outcome = try await uploader.upload(run, results: results)
        } catch {
            printError("error: \(RunsCommand.clean("\(names): not imported: cannot write the spool: \(error)"))")
            return false
        }
        guard outcome.delivered else {
            // The uploader's problems quote the service's answers: untrusted text.
            let problems =
                outcome.report.problems.isEmpty ? "not acknowledged" : outcome.report.problems.joined(separator: "; ")
            printError(
                "error: \(RunsCommand.clean("\(names): not imported: \(problems)")); run \(id) stays in "
                    + "\(RunsCommand.clean(uploader.spool.directory.path)) for failscope upload")
            return false
        }
        print(
            "imported \(RunsCommand.clean(files.joined(separator: ", "))) as run \(id): \(uploader.api.dashboardURL(runID: id))"
        )
        return true
    }
}

/// Prints `reading FILE: 40% (205 of 512 MiB)` on stderr at every further tenth of a large file.
final class ProgressMeter: @unchecked Sendable {
    private let file: String
    private let lock = NSLock()
    private var lastTenth = 0

    init(file: String) { self.file = file }

    func update(read: Int64, total: Int64) {
        guard total > 0 else { return }
        let tenth = Int(min(read, total) * 10 / total)
        lock.lock()
        defer { lock.unlock() }
        guard tenth > lastTenth else { return }
        lastTenth = tenth
        printError("reading \(RunsCommand.clean(file)): \(tenth * 10)% (\(read >> 20) of \(total >> 20) MiB)")
    }
}
