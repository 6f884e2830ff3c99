import FailscopeClient
import FailscopeModel
import Foundation

/// Writes finished tests' results to the spool off the test thread, with group commit: the results
/// that finish while one batch file is being written (and fsynced) go together into the next, so a
/// fast suite pays one fsync per batch instead of one per test.
///
/// `flush()` blocks until everything appended so far is on disk (the bundle end calls it before
/// uploading). A process killed between `append` and the write loses at most that batch.
final class ResultWriter: @unchecked Sendable {
    private let spool: Spool
    private let runID: String
    private let queue = DispatchQueue(label: "failscope.result-writer")
    private let lock = NSLock()
    private var pending: [TestResult] = []
    private var scheduled = false
    private var problems: [String] = []

    init(spool: Spool, runID: String) {
        self.spool = spool
        self.runID = runID
    }

    /// Queues a result; it reaches the spool within one batch write.
    func append(_ result: TestResult) {
        let schedule = lock.withLock {
            pending.append(result)
            defer { scheduled = true }
            return !scheduled
        }
        if schedule { queue.async { self.drain() } }
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
            try spool.write(batch, runID: runID)
        } catch {
            lock.withLock {
                problems.append("cannot write \(batch.count) result(s) to the spool at \(spool.directory.path): \(error)")
            }
        }
    }
}
