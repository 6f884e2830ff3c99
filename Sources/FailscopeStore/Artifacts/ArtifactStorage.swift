import Foundation

/// Where artifact bytes live, named by their SHA-256: the content-addressed folder (``ArtifactStore``, the
/// default) or S3-compatible object storage (`FailscopeObjectStore.S3ArtifactStorage`). The store verifies bytes
/// (``ArtifactStore/verify(_:sha256:mediaType:)``, the one definition) before it calls ``put(_:verified:)``, and
/// writes an artifact's row only after `put` returned, so a row never names bytes that are not stored.
///
/// Every method may be called from any thread and by several processes sharing one storage at once: `put` of
/// identical bytes is idempotent (content addressing), so replicas receiving the same upload store it once.
/// Errors from the storage itself (unreachable, refused, slow) are ``ArtifactStorageError``; a folder's full disk
/// is the file system's `ENOSPC`, which the store turns into `StoreError.storageFull`.
public protocol ArtifactStorage: Sendable {
    /// Where the bytes are, for logs and `/healthz` (`/srv/failscope/artifacts`, `s3://bucket/prefix`); never
    /// credentials.
    var location: String { get }

    /// Stores verified bytes under `verified.sha256`; returns `false` when they were already stored (nothing
    /// written).
    func put(_ bytes: [UInt8], verified: ArtifactStore.Verified) throws -> Bool

    /// Whether bytes named `sha256` are stored (`false` for a malformed digest).
    func contains(sha256: String) throws -> Bool

    /// A local file holding the bytes of `sha256` for sending (`sendfile`), or `nil` when none is stored. The
    /// file may be removed later (by retention, or from a bounded cache): open it at once, and ask again if
    /// opening fails.
    func open(sha256: String) throws -> ArtifactFile?

    /// Removes the bytes of `sha256` if present (not an error when absent).
    func remove(sha256: String) throws

    /// Removes the bytes of every digest in `sha256s` (garbage collection); a backend may remove several at once.
    /// The default removes them one after another.
    func remove(sha256s: [String]) throws

    /// Everything stored, with sizes and last-modified times, for garbage collection (grace periods are judged
    /// on ``StoredArtifact/lastModified``).
    func list() throws -> [StoredArtifact]

    /// Removes what interrupted writes left behind before `date` (a folder's temporary files).
    func removeLeftovers(before date: Date)

    /// Checks that the storage answers now (`/healthz`); throws ``ArtifactStorageError`` saying why not.
    func checkHealth() throws
}

extension ArtifactStorage {
    public func remove(sha256s: [String]) throws {
        for sha256 in sha256s { try remove(sha256: sha256) }
    }
}

/// A local file with an artifact's bytes (``ArtifactStorage/open(sha256:)``).
public struct ArtifactFile: Sendable, Hashable {
    /// The file's path.
    public var path: String
    /// Its size, bytes.
    public var byteCount: Int

    public init(path: String, byteCount: Int) {
        self.path = path
        self.byteCount = byteCount
    }
}

/// One stored artifact as ``ArtifactStorage/list()`` reports it.
public struct StoredArtifact: Sendable, Hashable {
    public var sha256: String
    /// Bytes.
    public var byteCount: Int
    /// When it was last written (a file's modification time, an object's `Last-Modified`).
    public var lastModified: Date

    public init(sha256: String, byteCount: Int, lastModified: Date) {
        self.sha256 = sha256
        self.byteCount = byteCount
        self.lastModified = lastModified
    }
}

/// Why the artifact storage could not do something. Messages name the condition and the storage's location,
/// never credentials or request signatures.
public enum ArtifactStorageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The storage cannot be reached or did not answer in time (connection refused, timeout, 5xx). HTTP 503
    /// with `Retry-After` until it is back.
    case unavailable(String)
    /// The storage answered but refused (wrong credentials, missing bucket, an unexpected answer). HTTP 503 for
    /// uploads (nothing was stored; the reporter retries), 502 for reads.
    case refused(String)

    public var description: String {
        switch self {
        case .unavailable(let message): "the artifact storage is unavailable: \(message)"
        case .refused(let message): "the artifact storage refused the request: \(message)"
        }
    }
}
