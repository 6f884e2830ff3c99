import FailscopeModel
import Foundation

/// Sends what a spool holds to the service: for each run, the run's metadata, artifacts (skipping
/// those the server has), results in batches, then the run's finish. Each acknowledged file leaves
/// the spool; whatever could not be sent stays for `failscope upload` or the next run.
///
/// A run's writer folders (one a process, see `Spool`) are delivered when they are this process's
/// own (`ownFolder`) or when their process has ended (their lock is free); a folder whose process
/// still runs is left to it. A folder whose process ended without finishing is replayed first
/// (`WriterFolder.recoverJournal()`: a crashed test becomes an `error` result) and finished at its
/// last write. The service keeps a run's earliest start and latest finish, so processes may report
/// in any order.
///
/// Failed requests are retried with exponential backoff within a `RetryBudget`; a run whose request
/// still fails is left in the spool and the uploader goes on with the next run. With
/// `honoursUnreachableMark`, the first process of a run to find the service unreachable marks the run
/// (`Spool.claimUnreachableMark`) and goes on retrying; the run's other processes give up at their
/// first failure, or try once when the mark is there before they start; a success clears it.
public struct Uploader: Sendable {
    /// What an upload did.
    public struct Report: Sendable, Equatable {
        public var runs: [String] = []
        public var results = 0
        public var artifactsSent = 0
        public var artifactsSkipped = 0
        /// Runs whose finish the server acknowledged.
        public var finishedRuns = 0
        /// Tests that started in a process that ended before them, sent as `error` results.
        public var crashedTests = 0
        /// Files still waiting in the spool (those of processes still running included).
        public var remainingFiles = 0
        /// Writer folders left to processes that still run.
        public var foldersOfRunningProcesses = 0
        /// Whether the service could not be reached (after the retries).
        public var serviceUnreachable = false
        /// Whether this process's own folder was delivered whole (the caller may remove it).
        public var ownFolderDelivered = false
        /// Why something stays in the spool, one line a problem.
        public var problems: [String] = []

        public init() {}
    }

    /// Results per `POST /results` when the caller does not choose (at most `IngestLimits.resultsPerBatch`).
    public static let defaultBatchSize = 100
    /// How long to keep retrying, in seconds, when the caller does not choose.
    public static let defaultRetryWindow: Double = 20

    public let api: any IngestAPI
    public let spool: Spool
    /// Results per `POST /results`.
    public var batchSize: Int
    /// How long to keep retrying, in seconds, before leaving the rest in the spool.
    public var retryWindow: Double
    /// With a run marked unreachable by another process, try each run once, without retries.
    public var honoursUnreachableMark = false
    var backoff = Backoff()

    public init(
        api: any IngestAPI, spool: Spool, batchSize: Int = Uploader.defaultBatchSize,
        retryWindow: Double = Uploader.defaultRetryWindow,
        honoursUnreachableMark: Bool = false
    ) {
        self.api = api
        self.spool = spool
        self.batchSize = batchSize
        self.retryWindow = retryWindow
        self.honoursUnreachableMark = honoursUnreachableMark
    }

    /// Uploads every run in the spool, or only `runID`'s; `ownFolder` is the calling process's writer
    /// folder (delivered though its lock is held, by this process).
    public func upload(runID: String? = nil, ownFolder: WriterFolder? = nil) async -> Report {
        var report = Report()
        let pending: [Spool.PendingRun]
        do {
            pending = try spool.pendingRuns(runID: runID)
        } catch {
            report.problems.append("cannot read the spool at \(spool.directory.path): \(error)")
            return report
        }
        let started = Date()
        for run in pending {
            let marked = honoursUnreachableMark && spool.unreachableSince(runID: run.runID) != nil
            let budget = RetryBudget(
                deadline: marked ? started : started.addingTimeInterval(retryWindow),
                claimLead: honoursUnreachableMark ? { [spool] in spool.claimUnreachableMark(runID: run.runID) } : nil)
            await upload(run, ownFolder: ownFolder, budget: budget, report: &report)
            spool.removeIfEmpty(runID: run.runID)
        }
        return report
    }

    private func upload(
        _ pending: Spool.PendingRun, ownFolder: WriterFolder?, budget: RetryBudget, report: inout Report
    ) async {
        report.runs.append(pending.runID)
        // The folders this process may deliver, each with the claim that keeps others off it.
        var folders: [(folder: WriterFolder, claim: WriterFolder.Claim?)] = []
        for folder in pending.writers {
            if folder == ownFolder {
                folders.append((folder, nil))
            } else if let claim = folder.claim(creatingLock: folder.url == pending.folder) {
                do {
                    report.crashedTests += try recoverEndedProcess(folder)
                } catch {
                    report.problems.append("\(folder.url.path): cannot record its crashed tests: \(error)")
                }
                folders.append((folder, claim))
            } else {
                report.foldersOfRunningProcesses += 1
                report.remainingFiles += folder.remainingFileCount
            }
        }
        guard !folders.isEmpty else { return }
        do {
            let delivered = try await send(pending, folders.map(\.folder), budget: budget, report: &report)
            for folder in delivered {
                if folder == ownFolder {
                    report.ownFolderDelivered = true  // its writer removes it: it may be writing again
                } else {
                    remove(folder, of: pending)
                }
            }
            spool.markUnreachable(runID: pending.runID, false)
        } catch {
            report.problems.append("run \(pending.runID): \(error)")
            if (error as? APIClientError)?.isRetryable ?? true {
                report.serviceUnreachable = true
                spool.markUnreachable(runID: pending.runID, true)
            }
        }
        report.remainingFiles += folders.reduce(0) { $0 + $1.folder.remainingFileCount }
    }

    /// Removes a delivered folder; in a run folder of the older layout, only the spool files in it.
    private func remove(_ folder: WriterFolder, of pending: Spool.PendingRun) {
        guard folder.url == pending.folder else { return folder.remove() }
        for file in folder.entries + [folder.lockFile] { try? FileManager.default.removeItem(at: file) }
    }

    /// Replays the journal of a folder whose process ended, and finishes it at its last write when
    /// the process did not say its tests ended (it crashed, or ended before its first test did).
    private func recoverEndedProcess(_ folder: WriterFolder) throws -> Int {
        let lastSeenWorking = folder.lastWritten ?? folder.folderChanged  // before the replay writes a file
        let crashed = try folder.recoverJournal()
        if folder.finish() == nil, let lastSeenWorking {
            try AtomicFile.write(
                try WireCoding.encoder().encode(RunFinish(finishedAt: lastSeenWorking)), to: folder.finishFile)
        }
        return crashed
    }

    /// Sends the run, then `folders`' artifacts and results, then the latest finish of those whose
    /// process said its tests ended; returns the folders delivered whole (sent, finished).
    private func send(_ pending: Spool.PendingRun, _ folders: [WriterFolder], budget: RetryBudget, report: inout Report)
        async throws -> [WriterFolder]
    {
        let runID = pending.runID
        // The earliest start any process of the run reported (the service keeps the earliest anyway),
        // with the device one of them reported (a process whose tests launched no app saw none).
        let reported = pending.writers.compactMap { try? $0.run() }
        if var run = reported.min(by: { $0.startedAt < $1.startedAt }) {
            if run.device == nil, let withDevice = reported.first(where: { $0.device != nil }) {
                run.device = withDevice.device
                run.osVersion = withDevice.osVersion
            }
            try await retrying(within: budget) { try await api.putRun(run) }
        }
        for folder in folders {
            try await sendArtifacts(of: folder, budget: budget, report: &report)
            try await sendResults(of: folder, runID: runID, budget: budget, report: &report)
        }
        let done = folders.filter { $0.remainingFileCount == 0 && $0.finish() != nil }
        if let finish = done.compactMap({ $0.finish() }).max(by: { $0.finishedAt < $1.finishedAt }) {
            try await retrying(within: budget) { try await api.finishRun(runID: runID, finish: finish) }
            report.finishedRuns += 1
        }
        return done
    }

    private func sendArtifacts(of folder: WriterFolder, budget: RetryBudget, report: inout Report) async throws {
        for file in folder.artifactFiles {
            let sha256 = file.deletingPathExtension().lastPathComponent
            let exists = try await retrying(within: budget) { try await api.artifactExists(sha256: sha256) }
            if exists {
                report.artifactsSkipped += 1
            } else {
                let data = try Data(contentsOf: file)
                let type = file.pathExtension == "png" ? "image/png" : "application/json"
                try await retrying(within: budget) {
                    try await api.putArtifact(sha256: sha256, data: data, contentType: type)
                }
                report.artifactsSent += 1
            }
            try? FileManager.default.removeItem(at: file)
        }
    }

    private func sendResults(of folder: WriterFolder, runID: String, budget: RetryBudget, report: inout Report)
        async throws
    {
        for file in folder.resultFiles {
            guard let data = try? Data(contentsOf: file) else { continue }
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
                try await retrying(within: budget) { try await api.postResults(runID: runID, batch: batch) }
                start += batch.results.count
            }
            report.results += results.count
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Runs `body` until it succeeds, retrying retryable errors with backoff while `budget` allows.
    private func retrying<T>(within budget: RetryBudget, _ body: () async throws -> T) async throws -> T {
        var attempt = 1
        while true {
            do {
                return try await body()
            } catch let error as APIClientError where !error.isRetryable {
                throw error
            } catch {
                let delay = backoff.delay(forAttempt: attempt)
                guard budget.allowsRetry(after: delay) else { throw error }
                await Backoff.pause(delay)
                attempt += 1
            }
        }
    }
}

/// How long one run's upload may retry: until its deadline and, where the run can be marked
/// unreachable, only in the process that marked it first (`Spool.claimUnreachableMark`); a process
/// that finds the mark made by another gives up at its first failure, so that of many processes of a
/// run (`swift test --parallel`) that find the service down at once, one waits out the retries.
final class RetryBudget: @unchecked Sendable {
    let deadline: Date
    private let claimLead: (() -> Bool)?
    private var leads = false

    init(deadline: Date, claimLead: (() -> Bool)?) {
        self.deadline = deadline
        self.claimLead = claimLead
    }

    /// Whether a retry after `delay` seconds is allowed.
    func allowsRetry(after delay: Double) -> Bool {
        guard Date().addingTimeInterval(delay) < deadline else { return false }
        guard let claimLead else { return true }
        if !leads { leads = claimLead() }
        return leads
    }
}
