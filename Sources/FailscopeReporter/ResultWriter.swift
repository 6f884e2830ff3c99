import FailscopeClient
import FailscopeModel
import Foundation

/// Writes finished tests' results to the spool off the test thread, with group commit: results are
/// gathered for up to `interval` seconds (or `batchLimit` results) and written as one batch file
/// (temporary file, fsync, rename), so a fast suite pays a few fsyncs, not one per test.
///
/// `flush()` blocks until everything appended so far is on disk (the bundle end calls it before
/// uploading). A process killed between `append` and the write leaves those results in the spool's
/// journal (`TestJournal`), from which whoever delivers the folder writes them.
final class ResultWriter: @unchecked Sendable {
    private let spoolWriter: SpoolWriter
    /// Called after each batch reached the spool (the live upload).
    var batchWritten: (@Sendable () -> Void)?
    private let queue = DispatchQueue(label: "failscope.result-writer")
    private let lock = NSLock()
    private var pending: [Data] = []
    private var scheduled = false
    private var problems: [String] = []
    /// The longest a result waits in memory, in seconds.
    let interval: Double
    /// A batch this large is written at once.
    let batchLimit: Int

    init(spoolWriter: SpoolWriter, interval: Double = 0.2, batchLimit: Int = 500) {
        self.spoolWriter = spoolWriter
        self.interval = interval
        self.batchLimit = batchLimit
    }

    /// Queues a result encoded by `SpoolWriter.testEnded(_:)`; it reaches the spool within one batch write.
    func append(_ result: Data) {
        let (schedule, full) = lock.withLock {
            pending.append(result)
            defer { scheduled = true }
            return (!scheduled, pending.count >= batchLimit)
        }
        if full {
            queue.async { self.drain() }
        } else if schedule {
            queue.asyncAfter(deadline: .now() + interval) { self.drain() }
        }
    }

    /// Waits until every appended result is written; returns the write problems since the last flush.
    func flush() -> [String] {
        queue.sync { drain() }
        return lock.withLock {
            defer { problems = [] }
            return problems
        }
    }

    private func drain() {
        let batch = lock.withLock {
            defer {
                pending = []
                scheduled = false
            }
            return pending
        }
        guard !batch.isEmpty else { return }
        do {
            try spoolWriter.write(encodedResults: batch)
            batchWritten?()
        } catch {
            lock.withLock {
                problems.append(
                    "cannot write \(batch.count) result(s) to the spool at \(spoolWriter.folder.url.path): \(error)")
            }
        }
    }
}
