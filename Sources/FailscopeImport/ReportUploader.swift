import FailscopeClient
import FailscopeModel
import Foundation

/// What the person importing says about the run, beyond what the report holds.
public struct ImportOptions: Sendable, Equatable {
    public var project: String
    public var branch: String?
    public var commit: String?
    /// Overrides the device the report names.
    public var device: String?

    public init(project: String, branch: String? = nil, commit: String? = nil, device: String? = nil) {
        self.project = project
        self.branch = branch
        self.commit = commit
        self.device = device
    }
}

/// Uploads parsed reports the way the reporter uploads its tests: each report's run goes into the
/// spool (`SpoolWriter`: the run, its results, its finish), then the spool's `Uploader` sends it, with
/// the same retries, batches and idempotency. What it could not send stays in the spool, where
/// `failscope upload` finds it; sending the same run again stores nothing twice.
public struct ReportUploader: Sendable {
    /// The uploader of `spool`, to `api`.
    public let uploader: Uploader

    public var api: any IngestAPI { uploader.api }
    public var spool: Spool { uploader.spool }

    public init(uploader: Uploader) {
        self.uploader = uploader
    }

    /// What became of one run.
    public struct Outcome: Sendable, Equatable {
        /// The uploader's report of this run.
        public var report: Uploader.Report
        /// Whether the service acknowledged the whole run, its finish included (nothing of it stays in the spool).
        public var delivered: Bool { report.ownFolderDelivered }
    }

    /// The run for `reports` (one file, or several merged into one run): metadata from the options and the
    /// first report that has it; start from the reports, else `fallbackStart` (the file's modification time).
    public static func run(
        id: String, for reports: [ParsedReport], options: ImportOptions, fallbackStart: Date
    ) -> Run {
        let startedAt = reports.compactMap(\.startedAt).min() ?? fallbackStart
        var finishedAt = startedAt
        for report in reports {
            let length = report.duration ?? report.results.compactMap(\.duration).reduce(0, +)
            finishedAt = max(finishedAt, (report.startedAt ?? startedAt).addingTimeInterval(length))
        }
        return Run(
            id: id, project: options.project, branch: options.branch, commit: options.commit,
            device: options.device ?? reports.lazy.compactMap(\.device).first,
            osVersion: reports.lazy.compactMap(\.osVersion).first, source: reports.first?.format.runSource ?? .junit,
            startedAt: startedAt, finishedAt: finishedAt)
    }

    /// UTF-8 bytes an imported failure message or skip reason is cut to (the service stores more,
    /// `IngestLimits.outputBytes`; a report's message longer than this is a log, not a message).
    static let messageBytes = 64 << 10

    /// The results of `reports` as one run's results: attempts renumbered across files, name-like text
    /// clipped to what the service stores (`IngestLimits.textFieldBytes`), messages and skip reasons to
    /// `messageBytes`.
    public static func results(of reports: [ParsedReport]) -> [TestResult] {
        let merged = reports.count == 1 ? reports[0].results : AttemptNumbering.number(reports.flatMap(\.results))
        return merged.map(clipped)
    }

    static func clipped(_ result: TestResult) -> TestResult {
        var result = result
        let text = IngestLimits.textFieldBytes
        result.suite = clip(result.suite, text)
        result.name = clip(result.name, text)
        result.arguments = result.arguments.map { clip($0, text) }
        result.device = result.device.map { clip($0, text) }
        result.skipReason = result.skipReason.map { clip($0, messageBytes) }
        result.failures = result.failures.map { failure in
            var failure = failure
            failure.message = clip(failure.message, messageBytes)
            if let location = failure.location { failure.location?.file = clip(location.file, text) }
            return failure
        }
        return result
    }

    /// `text` cut to at most `bytes` UTF-8 bytes on a character boundary, marked with "…".
    static func clip(_ text: String, _ bytes: Int) -> String {
        guard text.utf8.count > bytes else { return text }
        var result = ""
        var used = 0
        for character in text {
            let size = character.utf8.count
            if used + size > bytes - 3 { break }
            result.append(character)
            used += size
        }
        return result + "…"
    }

    /// Writes `run` (sent open, then finished at `run.finishedAt ?? run.startedAt`) and `results` into the
    /// spool as one writer folder of this process, then uploads that run: every folder of it in the spool,
    /// an earlier import's that could not be sent included. A delivered folder leaves the spool.
    /// - Throws: only when the spool cannot be written (the service's errors are in the outcome's report).
    public func upload(_ run: Run, results: [TestResult]) async throws -> Outcome {
        let writer = SpoolWriter(spool: spool, runID: run.id)
        var open = run
        open.finishedAt = nil
        try writer.write(open)
        if !results.isEmpty { try writer.write(results) }
        try writer.markFinished(at: run.finishedAt ?? run.startedAt)
        let report = await uploader.upload(runID: run.id, ownFolder: writer.folder)
        if report.ownFolderDelivered { writer.removeDelivered() }
        return Outcome(report: report)
    }
}
