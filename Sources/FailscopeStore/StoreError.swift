import CSQLite
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

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
    /// The disk holding the store is full: the write was not stored (nothing of it; reads still work).
    /// HTTP 507. Made from whatever the engine or the file system reported (``storageFull(from:directory:)``).
    case storageFull(String)

    public var description: String {
        switch self {
        case .invalid(let message): message
        case .runNotFound(let id): "run '\(id)' does not exist"
        case .conflict(let message): message
        case .artifactRejected(let message): message
        case .storageFull(let message): message
        }
    }
}

extension StoreError {
    /// `error` as ``storageFull(_:)`` when it means the disk holding `directory` has no room: SQLite's
    /// `SQLITE_FULL`, a file write's `ENOSPC` or `EDQUOT`, or an I/O error (SQLite's "disk I/O error") while that
    /// file system has no free space. `nil` for anything else. The one place that reads engine and file
    /// system codes for this.
    public static func storageFull(from error: any Error, directory: URL) -> StoreError? {
        if case .storageFull = error as? StoreError { return error as? StoreError }
        let full: Bool
        if let sqlite = error as? SQLiteError {
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
        return .storageFull(
            "The disk holding the data folder is full: nothing was stored. "
                + "Free some space (or run failscope gc); reads still work.")
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
