import CSQLite
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
    /// A statement ran past the database's time limit for one statement and was cancelled (PostgreSQL's
    /// `statement_timeout`, SQLSTATE 57014); the message says which limit. Nothing of the statement's
    /// transaction was stored. HTTP 503.
    case timedOut(String)
    /// The database cannot be reached or answered with an I/O error (file gone, server down); the
    /// message says which, without credentials. HTTP 503 until it is back.
    case unavailable(String)
    /// The disk (the data folder's, or the database server's) is full: the write was not stored (nothing
    /// of it; reads still work). HTTP 507. The message says what to do; ``storageFull(from:directory:)``
    /// makes it from what the engine or the file system reported.
    case storageFull(String)

    /// A run that does not exist.
    public static func runNotFound(_ id: String) -> StoreError { .notFound(kind: "run", id: id) }

    public var description: String {
        switch self {
        case .invalid(let message): message
        case .notFound(let kind, let id): "\(kind) '\(id)' does not exist"
        case .conflict(let message): message
        case .artifactRejected(let message): message
        case .busy: "the database is busy"
        case .timedOut(let message): "the database timed out: \(message)"
        case .unavailable(let message): "the database is unavailable: \(message)"
        case .storageFull(let message): message
        }
    }
}

extension StoreError {
    /// The message of a full disk under the data folder.
    static let dataFolderFullMessage =
        "The disk holding the data folder is full: nothing was stored. Free some space (or run failscope gc); "
        + "reads still work."

    /// `error` as ``storageFull(_:)`` when it means the disk holding `directory` has no room: SQLite's
    /// `SQLITE_FULL` (or the store's own `storageFull`), a file write's `ENOSPC` or `EDQUOT`, or an I/O error
    /// (SQLite's "disk I/O error", which the store reports as `unavailable`) while that file system has no free
    /// space. `nil` for anything else. The one place that reads file system codes for this.
    public static func storageFull(from error: any Error, directory: URL) -> StoreError? {
        if case .storageFull = error as? StoreError { return error as? StoreError }
        let full: Bool
        if case .unavailable = error as? StoreError {
            full = noSpaceLeft(directory)
        } else if let sqlite = error as? SQLiteError {
            full = sqlite.primaryCode == SQLITE_FULL || (sqlite.primaryCode == SQLITE_IOERR && noSpaceLeft(directory))
        } else if let posix = error as? POSIXError {
            full = posix.code == .ENOSPC || posix.code == .EDQUOT
        } else {
            let underlying = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError
            let codes = [(error as NSError), underlying].compactMap { $0 }.filter { $0.domain == NSPOSIXErrorDomain }
            full =
                codes.contains { $0.code == Int(ENOSPC) || $0.code == Int(EDQUOT) }
                || ((error as NSError).domain == NSCocoaErrorDomain
                    && (error as NSError).code == CocoaError.fileWriteOutOfSpace.rawValue)
        }
        guard full else { return nil }
        return .storageFull(dataFolderFullMessage)
    }

    /// Whether the file system holding `directory` has no space left for an unprivileged write.
    static func noSpaceLeft(_ directory: URL) -> Bool {
        guard let free = freeBytes(directory) else { return false }
        return free < 64 * 1024
    }

    /// Bytes an unprivileged process may still write on the file system holding `directory`, or `nil`.
    static func freeBytes(_ directory: URL) -> Int? {
        var info = statvfs()
        guard statvfs(directory.path, &info) == 0 else { return nil }
        return Int(info.f_bavail) * Int(info.f_frsize)
    }
}
