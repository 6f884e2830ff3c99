/// Why the store refused or could not do something, in the domain's words: the one error type that
/// leaves `FailscopeStore`, whatever the engine (the service maps each case to an HTTP status).
///
/// Messages name the offending field or the condition and are safe to show to clients: no SQL, no bound
/// values, no paths or connection strings (a password in one would otherwise reach a log).
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The input breaks a rule (bad run id, attempt < 1, malformed SHA-256, ...). HTTP 400/422.
    case invalid(String)
    /// A named thing does not exist: `kind` is the noun (`run`), `id` its identifier. HTTP 404.
    case notFound(kind: String, id: String)
    /// The change conflicts with stored data (a run's project cannot change). HTTP 409.
    case conflict(String)
    /// Artifact bytes do not match their name or declared type. HTTP 422.
    case artifactRejected(String)
    /// The database is locked by other work longer than the store waits; retrying shortly succeeds. HTTP 503.
    case busy
    /// The database cannot be reached or answered with an I/O error (file gone, server down); the
    /// message says which, without credentials. HTTP 503 until it is back.
    case unavailable(String)
    /// The disk or the database's space is full; nothing of the request was stored. HTTP 507.
    case storageFull

    /// A run that does not exist.
    public static func runNotFound(_ id: String) -> StoreError { .notFound(kind: "run", id: id) }

    public var description: String {
        switch self {
        case .invalid(let message): message
        case .notFound(let kind, let id): "\(kind) '\(id)' does not exist"
        case .conflict(let message): message
        case .artifactRejected(let message): message
        case .busy: "the database is busy"
        case .unavailable(let message): "the database is unavailable: \(message)"
        case .storageFull: "the database's storage is full"
        }
    }
}
