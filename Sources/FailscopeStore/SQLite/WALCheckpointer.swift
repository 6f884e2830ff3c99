import CSQLite
import Synchronization

/// Checkpoints a ``DatabasePool``'s WAL (https://sqlite.org/wal.html#ckpt) after its writes instead of
/// inside them.
///
/// SQLite's auto-checkpoint runs in the commit that takes the WAL past 1,000 frames, while that writer holds
/// the pool's one writer: every upload queued behind it waits while pages are copied into the database file
/// and both files are synced. Here the writer's WAL hook (which replaces the auto-checkpoint) only records how
/// many frames the WAL holds; the thread that finished a write, once it released the writer, runs a PASSIVE
/// checkpoint on a connection of its own when ``frames`` or more were added since the last one. One thread
/// checkpoints at a time (the others go on), and writers keep writing meanwhile. A single-threaded caller does
/// the same work as with auto-checkpoint, in the same order.
///
/// A WAL starts over from its beginning only when it was fully copied at the moment a write starts and no read
/// still uses an older snapshot, so a steady stream of writes, and reads overlapping them (a dashboard open
/// while CI uploads), would keep it growing ("checkpoint starvation", https://sqlite.org/wal.html#bigwal).
/// Past `8 × frames` the writer therefore checkpoints before releasing, which is enough without such reads;
/// past `16 × frames` it also waits for them (RESTART), so the WAL stays under about `16 × frames` pages.
final class WALCheckpointer: Sendable {
    /// Frames (pages) added to the WAL between checkpoints (SQLite's auto-checkpoint default is 1,000).
    let frames: Int
    private let path: String
    private let busyTimeoutMilliseconds: Int32
    /// Frames in the WAL after the newest commit (the WAL hook's count).
    private let walFrames = Atomic<Int>(0)
    /// `walFrames` when the last checkpoint ran.
    private let checkpointedAt = Atomic<Int>(0)
    private let state = Mutex(State())

    private struct State {
        /// The checkpointing connection, opened on first need.
        var connection: Database?
        var closed = false
    }

    init(path: String, busyTimeoutMilliseconds: Int32, frames: Int) {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.frames = frames
    }

    /// Makes `writer`'s commits report the WAL's size here (and turns its auto-checkpoint off). `writer` must not
    /// outlive this object.
    func observe(_ writer: Database) {
        sqlite3_wal_hook(
            writer.handle,
            { context, _, _, frames in
                guard let context else { return SQLITE_OK }
                Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue().walFrames.store(
                    Int(frames), ordering: .relaxed)
                return SQLITE_OK
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Called by the holder of the writer after its write: when the WAL has grown past `8 × frames`, waits for a
    /// running checkpoint and checkpoints on `writer` itself, so the whole WAL is copied (no write runs meanwhile)
    /// and the next write can start it over. Past `16 × frames`, reads on older snapshots kept it from starting
    /// over: the checkpoint is then a RESTART, which also waits for those reads (up to the busy timeout).
    func checkpointIfOverdue(_ writer: Database) {
        let count = walFrames.load(ordering: .relaxed)
        guard count >= 8 * frames else { return }
        let mode = count >= 16 * frames ? "RESTART" : "PASSIVE"
        state.withLock { _ in try? writer.execute("PRAGMA wal_checkpoint(\(mode))") }
        checkpointedAt.store(count, ordering: .relaxed)
    }

    /// Called after the writer was released: a PASSIVE checkpoint when ``frames`` or more frames were added
    /// since the last one and no other thread is checkpointing. Failures (another checkpoint holds SQLite's
    /// checkpoint lock, a closed pool) are left for the next write.
    func checkpointIfDue() {
        let count = walFrames.load(ordering: .relaxed)
        let last = checkpointedAt.load(ordering: .relaxed)
        // A smaller count than at the last checkpoint: the WAL restarted since.
        guard count >= frames, count < last || count - last >= frames else { return }
        _ = state.withLockIfAvailable { state in
            guard !state.closed else { return }
            checkpointedAt.store(count, ordering: .relaxed)
            if state.connection == nil {
                state.connection = try? Database(
                    path: path, mode: .readWrite, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
                // The checkpointer's synchronous setting decides the checkpoint's syncs; NORMAL like the writer.
                try? state.connection?.execute("PRAGMA synchronous = NORMAL")
            }
            try? state.connection?.execute("PRAGMA wal_checkpoint(PASSIVE)")
        }
    }

    /// Waits for a running checkpoint and closes the checkpointing connection; later calls do nothing.
    func close() {
        state.withLock { state in
            state.closed = true
            state.connection = nil
        }
    }
}
