import FailscopeModel
import Foundation

/// The ingest half of the Failscope HTTP API, as the spool uploader uses it (`openapi.json`).
///
/// Every call is idempotent on the server: the same run, result key or artifact sent twice is
/// stored once, so a retry after a timeout or a crash never duplicates anything. Implementations:
/// the URLSession `APIClient`, and in tests an in-memory one.
public protocol IngestAPI: Sendable {
    /// `PUT /api/v1/runs/{runId}`: creates or updates the run's metadata.
    func putRun(_ run: Run) async throws
    /// `POST /api/v1/runs/{runId}/results`: adds a batch of results.
    func postResults(runID: String, batch: ResultBatch) async throws
    /// `HEAD /api/v1/artifacts/{sha256}`: whether the server already has the artifact.
    func artifactExists(sha256: String) async throws -> Bool
    /// `PUT /api/v1/artifacts/{sha256}`: uploads the artifact's bytes (`image/png` or `application/json`).
    func putArtifact(sha256: String, data: Data, contentType: String) async throws
    /// `POST /api/v1/runs/{runId}/finish`.
    func finishRun(runID: String, finish: RunFinish) async throws
    /// The dashboard URL of a run, for the summary line.
    func dashboardURL(runID: String) -> String
}
