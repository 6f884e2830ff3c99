/// A request the store refuses; the service maps each case to an HTTP status.
///
/// Messages name the offending field and are safe to show to clients (no SQL, no paths).
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input breaks a rule (bad run id, attempt < 1, malformed SHA-256, ...). HTTP 400/422.
    case invalid(String)
    /// The run does not exist. HTTP 404.
    case runNotFound(String)
    /// The change conflicts with stored data (a run's project cannot change). HTTP 409.
    case conflict(String)
    /// Artifact bytes do not match their name or declared type. HTTP 422.
    case artifactRejected(String)

    public var description: String {
        switch self {
        case .invalid(let message): message
        case .runNotFound(let id): "run '\(id)' does not exist"
        case .conflict(let message): message
        case .artifactRejected(let message): message
        }
    }
}
