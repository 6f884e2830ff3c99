import FailscopeClient
import FailscopeModel
import Foundation

/// Fills a spool the way the reporter does, for upload tests, and reads what the reporter left.
struct FailscopeClientSpool {
    let spool: Spool

    init(directory: URL) {
        spool = Spool(directory: directory)
    }

    func fill(runID: String, results count: Int, perFile: Int) throws {
        let writer = SpoolWriter(spool: spool, runID: runID)
        try writer.write(Run(id: runID, project: "demo", branch: "main", commit: "abc", startedAt: Date()))
        var index = 0
        while index < count {
            let batch = (index..<min(index + perFile, count)).map {
                TestResult(
                    suite: "BulkTests", name: "test\($0)", status: $0 % 50 == 0 ? .failed : .passed, duration: 0.01)
            }
            try writer.write(batch)
            index += batch.count
        }
        try writer.markFinished(at: Date())
    }

    /// Every result waiting in the batch files of run `runID`'s writer folders.
    func results(ofRun runID: String) throws -> [TestResult] {
        try spool.results(ofRun: runID)
    }
}
