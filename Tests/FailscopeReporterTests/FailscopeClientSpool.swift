import FailscopeClient
import FailscopeModel
import Foundation

/// Fills a spool the way the reporter does, for upload tests.
struct FailscopeClientSpool {
    let spool: Spool

    init(directory: URL) {
        spool = Spool(directory: directory)
    }

    func fill(runID: String, results count: Int, perFile: Int) throws {
        try spool.write(Run(id: runID, project: "demo", branch: "main", commit: "abc", startedAt: Date()))
        var index = 0
        while index < count {
            let batch = (index..<min(index + perFile, count)).map {
                TestResult(
                    suite: "BulkTests", name: "test\($0)", status: $0 % 50 == 0 ? .failed : .passed, duration: 0.01)
            }
            try spool.write(batch, runID: runID)
            index += batch.count
        }
        try spool.markFinished(runID: runID, at: Date())
    }
}
