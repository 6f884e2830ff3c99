/// The largest values the service stores, as the ingest API states them: a request beyond one is
/// refused (400, `invalid`). Producers that cut text to fit (the importers) cut it to these.
public enum IngestLimits {
    /// Results in one `POST /api/v1/runs/{runId}/results`.
    public static let resultsPerBatch = 1_000
    /// The highest `attempt` of a result (attempts count from 1).
    public static let maximumAttempt = 1_000
    /// UTF-8 bytes of a name-like text field: suite, name, arguments, device, page, action, file.
    public static let textFieldBytes = 4_096
    /// UTF-8 bytes of a failure message, `systemOut` or `systemErr`.
    public static let outputBytes = 1 << 20
}
