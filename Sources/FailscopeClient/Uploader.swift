import FailscopeModel
import Foundation

/// Sends what a spool holds to the service: artifacts first (skipping those the server has), then
/// results in batches, then the run's finish. Each acknowledged file leaves the spool; whatever
/// could not be sent stays for `failscope upload` or the next run.
///
/// Failed requests are retried with exponential backoff until `deadline`; a run whose request
/// still fails is left in the spool and the uploader goes on with the next run.
public struct Uploader: Sendable {
    /// What an upload did.
    public struct Report: Sendable, Equatable {
        public var runs: [String] = []
        public var results = 0
        public var artifactsSent = 0
        public var artifactsSkipped = 0
        /// Runs whose finish the server acknowledged (their folder left the spool).
        public var finishedRuns = 0
        /// Files still waiting in the spool.
        public var remainingFiles = 0
        /// Why something stays in the spool, one line a problem.
        public var problems: [String] = []

        public init() {}
    }

    public let api: any IngestAPI
    public let spool: Spool
    public var batchSize = 100
    /// How long to keep retrying, in seconds, before leaving the rest in the spool.
    public var retryWindow: Double = 20
    var backoff = Backoff()

    public init(api: any IngestAPI, spool: Spool, batchSize: Int = 100, retryWindow: Double = 20) {
        self.api = api
        self.spool = spool
        self.batchSize = batchSize
        self.retryWindow = retryWindow
    }

    /// Uploads every run in the spool, or only `runID`'s.
    public func upload(runID: String? = nil) async -> Report {
        var report = Report()
        let pending: [Spool.PendingRun]
        do {
            let found = try spool.pendingRuns()
            pending = found.runs.filter { runID == nil || $0.run.id == runID }
            report.problems += found.problems
        } catch {
            report.problems.append("cannot read the spool at \(spool.directory.path): \(error)")
            return report
        }
        let deadline = Date().addingTimeInterval(retryWindow)
        for run in pending {
            do {
                try await upload(run, deadline: deadline, report: &report)
            } catch {
                report.problems.append("run \(run.run.id): \(error)")
            }
            report.remainingFiles += remainingFiles(in: run)
        }
        return report
    }

    private func upload(_ pending: Spool.PendingRun, deadline: Date, report: inout Report) async throws {
        let run = pending.run
        report.runs.append(run.id)
        try await retrying(until: deadline) { try await api.putRun(run) }
        for file in pending.artifactFiles {
            let sha256 = file.deletingPathExtension().lastPathComponent
            let exists = try await retrying(until: deadline) { try await api.artifactExists(sha256: sha256) }
            if exists {
                report.artifactsSkipped += 1
            } else {
                let data = try Data(contentsOf: file)
                let type = file.pathExtension == "png" ? "image/png" : "application/json"
                try await retrying(until: deadline) {
                    try await api.putArtifact(sha256: sha256, data: data, contentType: type)
                }
                report.artifactsSent += 1
            }
            spool.remove(file)
        }
        for file in pending.resultFiles {
            guard let data = try? Data(contentsOf: file) else { continue }  // sent and removed by another process
            let results: [TestResult]
            do {
                results = try WireCoding.decoder().decode(ResultBatch.self, from: data).results
            } catch {
                report.problems.append(
                    "\(file.path) is not a readable result batch (damaged JSON); it stays in the spool and the "
                        + "run stays open: delete or move the file, then run failscope upload again")
                continue
            }
            var start = 0
            while start < results.count {
                let batch = ResultBatch(results: Array(results[start..<min(start + batchSize, results.count)]))
                try await retrying(until: deadline) { try await api.postResults(runID: run.id, batch: batch) }
                start += batch.results.count
            }
            report.results += results.count
            spool.remove(file)
        }
        if let finish = pending.finish, remainingFiles(in: pending) == 0 {
            try await retrying(until: deadline) { try await api.finishRun(runID: run.id, finish: finish) }
            report.finishedRuns += 1
            try? FileManager.default.removeItem(at: pending.folder)
        }
    }

    private func remainingFiles(in pending: Spool.PendingRun) -> Int {
        let manager = FileManager.default
        return ["results", "artifacts"].reduce(0) { count, name in
            let folder = pending.folder.appendingPathComponent(name)
            let files = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
            return count + files.filter { !$0.hasPrefix(".") }.count
        }
    }

    /// Runs `body` until it succeeds, retrying retryable errors with backoff while time remains.
    private func retrying<T>(until deadline: Date, _ body: () async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch let error as APIClientError where !error.isRetryable {
                throw error
            } catch {
                let delay = backoff.delay(forAttempt: attempt)
                guard Date().addingTimeInterval(delay) < deadline else { throw error }
                await Backoff.pause(delay)
                attempt += 1
            }
        }
    }
}
