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

/// Uploads parsed reports through the ingest API, the same calls and idempotency as the reporter:
/// `PUT` the run, `POST` its results in batches, `POST` finish. Sending the same run again stores nothing twice.
public struct ReportUploader: Sendable {
    public let api: any IngestAPI
    /// Results per `POST /results` (the service takes at most 1,000).
    public var batchSize: Int

    public init(api: any IngestAPI, batchSize: Int = 500) {
        precondition(batchSize > 0)
        self.api = api
        self.batchSize = batchSize
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

    /// The results of `reports` as one run's results: attempts renumbered across files, text fields
    /// clipped to what the service stores (4 KiB names, 64 KiB messages).
    public static func results(of reports: [ParsedReport]) -> [TestResult] {
        let merged = reports.count == 1 ? reports[0].results : AttemptNumbering.number(reports.flatMap(\.results))
        return merged.map(clipped)
    }

    static func clipped(_ result: TestResult) -> TestResult {
        var result = result
        result.suite = clip(result.suite, 4096)
        result.name = clip(result.name, 4096)
        result.arguments = result.arguments.map { clip($0, 4096) }
        result.device = result.device.map { clip($0, 4096) }
        result.skipReason = result.skipReason.map { clip($0, 64 << 10) }
        result.failures = result.failures.map { failure in
            var failure = failure
            failure.message = clip(failure.message, 64 << 10)
            if let location = failure.location { failure.location?.file = clip(location.file, 4096) }
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

    /// Sends the run, its results and its end. - Throws: the API's error (`APIClientError` for `APIClient`).
    public func upload(_ run: Run, results: [TestResult]) async throws {
        var open = run
        open.finishedAt = nil
        try await api.putRun(open)
        var start = 0
        while start < results.count {
            let end = min(start + batchSize, results.count)
            try await api.postResults(runID: run.id, batch: ResultBatch(results: Array(results[start..<end])))
            start = end
        }
        try await api.finishRun(runID: run.id, finish: RunFinish(finishedAt: run.finishedAt ?? run.startedAt))
    }
}
