import FailscopeStore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A size-bounded folder of recently used objects, so hot screenshots are sent with `sendfile` from local disk
/// instead of being fetched from the bucket for every request.
///
/// Files are named by their digest (content-addressed, so a copy is never stale). At most ``capacity`` bytes are
/// kept; adding a file evicts the least recently used others until the total fits (the file just added stays,
/// even when alone it is larger). An evicted file that a request still has open is sent whole (Linux keeps an
/// unlinked file until it is closed). The folder is emptied when the cache is created.
final class ObjectCache: Sendable {
    let directory: URL
    /// Most bytes kept.
    let capacity: Int

    private struct Entry {
        var byteCount: Int
        var lastUse: UInt64
    }
    private struct State {
        var entries: [String: Entry] = [:]
        var total = 0
        var clock: UInt64 = 0
    }
    private let state = Mutex(State())

    init(directory: URL, capacity: Int) throws {
        self.directory = directory
        self.capacity = capacity
        try? FileManager.default.removeItem(at: directory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Bytes kept now.
    var byteCount: Int { state.withLock { $0.total } }

    /// The cached file of `sha256`, marked as used; `nil` when not cached (or its file was removed behind the
    /// cache's back).
    func file(sha256: String) -> ArtifactFile? {
        state.withLock { state in
            guard var entry = state.entries[sha256] else { return nil }
            var info = stat()
            guard stat(path(sha256), &info) == 0 else {
                state.entries[sha256] = nil
                state.total -= entry.byteCount
                return nil
            }
            state.clock += 1
            entry.lastUse = state.clock
            state.entries[sha256] = entry
            return ArtifactFile(path: path(sha256), byteCount: entry.byteCount)
        }
    }

    /// Keeps `bytes` as the copy of `sha256` (a failed write only means no copy).
    func insert(sha256: String, bytes: [UInt8]) {
        let temporary = temporaryPath()
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else { return }
        adopt(temporary, sha256: sha256, byteCount: bytes.count)
    }

    /// Fills a new temporary file with `fill`; when it returns `true`, the file becomes the copy of `sha256` and is
    /// returned, else it is removed and `nil` returned.
    ///
    /// - Throws: what `fill` throws (the temporary file is removed).
    func download(sha256: String, _ fill: (FileHandle) throws -> Bool) throws -> ArtifactFile? {
        let temporary = temporaryPath()
        guard FileManager.default.createFile(atPath: temporary, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary)
        else {
            throw ArtifactStorageError.unavailable("the local artifact cache \(directory.path) is not writable")
        }
        let filled: Bool
        do {
            filled = try fill(handle)
            try handle.close()
        } catch {
            try? handle.close()
            unlink(temporary)
            throw error
        }
        guard filled else {
            unlink(temporary)
            return nil
        }
        var info = stat()
        guard stat(temporary, &info) == 0 else { return nil }
        adopt(temporary, sha256: sha256, byteCount: Int(info.st_size))
        return ArtifactFile(path: path(sha256), byteCount: Int(info.st_size))
    }

    /// Forgets and deletes the copy of `sha256`.
    func remove(sha256: String) {
        state.withLock { state in
            guard let entry = state.entries.removeValue(forKey: sha256) else { return }
            state.total -= entry.byteCount
            unlink(path(sha256))
        }
    }

    private func adopt(_ temporary: String, sha256: String, byteCount: Int) {
        state.withLock { state in
            guard rename(temporary, path(sha256)) == 0 else {
                unlink(temporary)
                return
            }
            state.clock += 1
            if let old = state.entries[sha256] { state.total -= old.byteCount }
            state.entries[sha256] = Entry(byteCount: byteCount, lastUse: state.clock)
            state.total += byteCount
            guard state.total > capacity else { return }
            for (victim, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                guard state.total > capacity else { break }
                if victim == sha256 { continue }
                state.entries[victim] = nil
                state.total -= entry.byteCount
                unlink(path(victim))
            }
        }
    }

    private func path(_ sha256: String) -> String { directory.appendingPathComponent(sha256).path }

    private func temporaryPath() -> String { directory.appendingPathComponent("tmp-\(UUID().uuidString)").path }
}
