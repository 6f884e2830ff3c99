import FailscopeModel
import FailscopeStore
import Foundation
import HTTPRouting
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Serves `GET /artifacts/{sha256}.png|.json`: the stored bytes of one kind of artifact, immutable
/// (content-addressed), with `ETag` = the quoted digest (`If-None-Match` → 304), `Cache-Control: public,
/// max-age=31536000, immutable`, `X-Content-Type-Options: nosniff` and `Content-Security-Policy: sandbox`; 404
/// `not_found` for anything else (a malformed name, an unknown digest, the other kind, a deleted file).
///
/// Hot path: the first request for a digest asks the store (one SQLite read: the row exists and has this
/// kind, and the file exists) and remembers the file's path and, within ``memoryBudget``, its bytes as a
/// ``PreparedResponse``. Later requests skip SQLite; remembered bytes are sent from memory by one shared
/// libmicrohttpd response (header and body in one `sendmsg`, no file opened, nothing allocated; without
/// `X-Request-Id`), others are opened and sent with `sendfile`. This is safe because an artifact never changes once
/// stored (its name is the hash of its bytes). A remembered file that is gone is forgotten and the store asked
/// again, so an artifact retention deleted is answered 404: a file sent from disk fails to open at once; one sent
/// from memory is checked (`stat`) when it was last seen more than a second ago, so it may be served for up to a
/// second after its deletion. When the artifact storage does not answer: 503 (unreachable) or 502 (refused). At most ``capacity`` digests and
/// ``memoryBudget`` bytes are remembered; when either is full, everything is forgotten and refills from the store.
final class ArtifactFiles: Sendable {
    static let cacheControl = "public, max-age=31536000, immutable"

    let store: FailscopeStore
    let kind: ArtifactRef.Kind
    /// Most digests remembered.
    let capacity: Int
    /// Most bytes of artifact content kept in memory (0: always `sendfile` from disk).
    let memoryBudget: Int
    /// Largest artifact kept in memory.
    let largestInMemory: Int

    private final class Entry: Sendable {
        let path: String
        /// The 200 response's header fields, built once.
        let headers: HTTPHeaders
        /// The whole 200 response when the bytes are kept in memory (one libmicrohttpd object for every request).
        let prepared: PreparedResponse?
        /// When the file was last seen to exist (monotonic nanoseconds).
        let seen: Atomic<UInt64>

        init(path: String, headers: HTTPHeaders, bytes: SharedBytes?, seen: UInt64) {
            self.path = path
            self.headers = headers
            self.prepared = bytes.map { PreparedResponse(headers: headers, body: $0) }
            self.seen = Atomic(seen)
        }
    }
    private struct State {
        var entries: [String: Entry] = [:]
        var bytesInMemory = 0
    }
    private let state = Mutex(State())

    init(
        store: FailscopeStore, kind: ArtifactRef.Kind, capacity: Int = 4096, memoryBudget: Int = 64 << 20,
        largestInMemory: Int = 4 << 20
    ) {
        self.store = store
        self.kind = kind
        self.capacity = capacity
        self.memoryBudget = memoryBudget
        self.largestInMemory = largestInMemory
    }

    /// How many digests are remembered and how many bytes of them are in memory (for tests).
    var remembered: (digests: Int, bytes: Int) { state.withLock { ($0.entries.count, $0.bytesInMemory) } }

    /// The ``Handler``: the file response for the request's `sha256` path parameter.
    ///
    /// - Throws: ``ServiceError`` 404 as described above; a store error (500) if SQLite fails.
    func respond(to request: Request) throws -> Response {
        let sha256 = try request.parameter("sha256")
        // Only digests the store confirmed are remembered, so a hit needs no further validation. A remembered file
        // that is gone (deleted by retention, or evicted from an object storage's local cache) is forgotten and the
        // store asked again: 404 when the artifact is gone, a fresh file when it is not.
        if let entry = state.withLock({ $0.entries[sha256] }) {
            if let prepared = entry.prepared {
                let now = MonotonicClock.nanoseconds()
                var fresh = true
                if now &- entry.seen.load(ordering: .relaxed) > Self.recheckNanoseconds {
                    var info = stat()
                    fresh = stat(entry.path, &info) == 0
                    if fresh { entry.seen.store(now, ordering: .relaxed) }
                }
                if fresh { return notModified(entry.headers, request) ?? Response(prepared: prepared) }
            } else if let file = try? OpenFile(path: entry.path, noFollow: true) {
                return notModified(entry.headers, request)
                    ?? Response(status: .ok, headers: entry.headers, body: .file(file))
            }
            forget(sha256)
        }
        guard SHA256.isValidHex(sha256),
            let artifact = try ServiceError.wrapping(
                reading: true, { try store.artifact(sha256: sha256, checkingBytes: false) }),
            artifact.kind == kind
        else {
            throw ServiceError.notFound("The artifact")
        }
        // The storage's file may vanish between `open` and opening it (a cache eviction): ask once more.
        var opened: (path: String, file: OpenFile)?
        for _ in 0..<2 where opened == nil {
            guard let stored = try ServiceError.wrapping(reading: true, { try store.artifacts.open(sha256: sha256) })
            else { throw ServiceError.notFound("The artifact") }
            if let file = try? OpenFile(path: stored.path, noFollow: true) { opened = (stored.path, file) }
        }
        guard let (path, file) = opened else { throw ServiceError.notFound("The artifact") }
        var bytes: SharedBytes?
        if memoryBudget > 0, file.length <= min(largestInMemory, memoryBudget), let data = try? file.readAll(),
            data.count == file.length
        {
            bytes = SharedBytes(data)
        }
        let headers: HTTPHeaders = [
            "Content-Type": kind.mediaType, "ETag": "\"\(sha256)\"", "Cache-Control": Self.cacheControl,
            "X-Content-Type-Options": "nosniff", "Content-Security-Policy": "sandbox",
        ]
        let entry = Entry(path: path, headers: headers, bytes: bytes, seen: MonotonicClock.nanoseconds())
        remember(sha256, entry)
        if let response = notModified(headers, request) { return response }
        return entry.prepared.map(Response.init(prepared:))
            ?? Response(status: .ok, headers: headers, body: .file(file))
    }

    /// How long a file sent from memory is trusted to still exist before it is checked again: 1 s.
    static let recheckNanoseconds: UInt64 = 1_000_000_000

    private func remember(_ sha256: String, _ entry: Entry) {
        let size = entry.prepared?.body.count ?? 0
        state.withLock { state in
            if state.entries[sha256] != nil { return }
            if state.entries.count >= capacity || state.bytesInMemory + size > memoryBudget {
                state.entries.removeAll(keepingCapacity: true)
                state.bytesInMemory = 0
            }
            state.entries[sha256] = entry
            state.bytesInMemory += size
        }
    }

    /// Forgets a remembered digest whose file is gone.
    private func forget(_ sha256: String) {
        state.withLock { state in
            if let entry = state.entries.removeValue(forKey: sha256) {
                state.bytesInMemory -= entry.prepared?.body.count ?? 0
            }
        }
    }

    /// 304 with the validators of `headers` (no `Content-Type`) when the request's `If-None-Match` names the
    /// digest, else `nil`.
    private func notModified(_ headers: HTTPHeaders, _ request: Request) -> Response? {
        guard let condition = request.headers["If-None-Match"], let etag = headers["ETag"],
            StaticFiles.matches(ifNoneMatch: condition, etag: etag)
        else { return nil }
        var validators = headers
        validators.remove("Content-Type")
        return Response(status: .notModified, headers: validators)
    }
}
