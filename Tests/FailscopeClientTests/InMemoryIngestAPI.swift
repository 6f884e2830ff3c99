import FailscopeClient
import FailscopeModel
import Foundation

/// An in-memory service: stores what it receives the way the real one does (idempotent by run id,
/// result key and artifact hash) and can fail its next requests on demand.
final class InMemoryIngestAPI: IngestAPI, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var runs: [String: Run] = [:]
    private(set) var results: [String: [String: TestResult]] = [:]
    private(set) var artifacts: [String: Data] = [:]
    private(set) var finished: Set<String> = []
    private(set) var finishTimes: [String: Date] = [:]
    private(set) var requests = 0
    /// Requests still to refuse as if the service were down.
    var failuresToInject = 0
    /// Refuse every request with this status (non-retryable statuses included).
    var refuseWithStatus: Int?

    private func request() throws {
        try lock.withLock {
            requests += 1
            if let status = refuseWithStatus {
                throw APIClientError.status(code: status, errorCode: "refused", message: "refused by the test")
            }
            if failuresToInject > 0 {
                failuresToInject -= 1
                throw APIClientError.transport("connection refused (injected)")
            }
        }
    }

    func putRun(_ run: Run) async throws {
        try request()
        lock.withLock { runs[run.id] = run }
    }

    func postResults(runID: String, batch: ResultBatch) async throws {
        try request()
        lock.withLock {
            for result in batch.results { results[runID, default: [:]][result.resultKey] = result }
        }
    }

    func artifactExists(sha256: String) async throws -> Bool {
        try request()
        return lock.withLock { artifacts[sha256] != nil }
    }

    func putArtifact(sha256: String, data: Data, contentType: String) async throws {
        try request()
        precondition(SHA256.hex(of: data) == sha256)
        lock.withLock { artifacts[sha256] = data }
    }

    func finishRun(runID: String, finish: RunFinish) async throws {
        try request()
        lock.withLock {
            finished.insert(runID)
            finishTimes[runID] = finish.finishedAt
        }
    }

    func dashboardURL(runID: String) -> String { "memory://runs/\(runID)" }

    func resultCount(_ runID: String) -> Int { lock.withLock { results[runID]?.count ?? 0 } }
}
