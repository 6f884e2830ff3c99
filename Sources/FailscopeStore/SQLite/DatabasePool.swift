import Dispatch
import Foundation

/// One serialized writer connection and up to `maximumReaderCount` read-only reader connections to
/// one SQLite file in WAL mode, so that reads never wait for the writer (https://sqlite.org/wal.html).
///
/// `write` runs its body with exclusive use of the writer (callers queue on a lock); `read` gives a
/// reader inside a deferred transaction, so every query in the body sees one snapshot. Readers are
/// opened on first need and reused. The WAL is checkpointed after writes, outside the writer
/// (``WALCheckpointer``). `close()` waits for the writer, checkpoints the WAL and closes every connection;
/// later calls throw `SQLiteError` (`SQLITE_MISUSE`).
public final class DatabasePool: @unchecked Sendable {
    /// The database file's path.
    public let path: String
    private let maximumReaderCount: Int
    private let busyTimeoutMilliseconds: Int32

    private let writerLock = NSLock()
    private var writer: Database?
    private let checkpointer: WALCheckpointer

    private let readerLock = NSLock()
    private let readerSlots: DispatchSemaphore
    private var idleReaders: [Database] = []
    private var closed = false

    /// Opens (creating when missing) the file at `path`, verifies WAL and configures the writer;
    /// `checkpointFrames` is how many pages the WAL gains between checkpoints (``WALCheckpointer``).
    ///
    /// - Throws: `SQLiteError` when the file cannot be opened or WAL is refused.
    public init(
        path: String, maximumReaderCount: Int = 4, busyTimeoutMilliseconds: Int32 = 5_000, checkpointFrames: Int = 1_000
    ) throws {
        precondition(maximumReaderCount >= 1, "a pool needs at least one reader")
        self.path = path
        self.maximumReaderCount = maximumReaderCount
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        self.readerSlots = DispatchSemaphore(value: maximumReaderCount)
        let writer = try Database(path: path, mode: .readWrite, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try writer.configureAsWriter()
        self.writer = writer
        checkpointer = WALCheckpointer(
            path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds, frames: checkpointFrames)
        checkpointer.observe(writer)
    }

    /// Runs `body` with exclusive use of the writer connection.
    @discardableResult
    public func write<T>(_ body: (Database) throws -> T) throws -> T {
        defer { checkpointer.checkpointIfDue() }
        writerLock.lock()
        defer { writerLock.unlock() }
        guard let writer else { throw Self.closedError }
        defer { checkpointer.checkpointIfOverdue(writer) }
        return try body(writer)
    }

    /// Runs `body` with a read-only connection inside one deferred (snapshot) transaction.
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        readerSlots.wait()
        defer { readerSlots.signal() }
        let reader = try checkOutReader()
        defer { checkIn(reader) }
        return try reader.transaction(.deferred) { try body(reader) }
    }

    /// Checkpoints the WAL into the database file and closes every connection. Idempotent.
    public func close() {
        writerLock.lock()
        defer { writerLock.unlock() }
        readerLock.lock()
        closed = true
        idleReaders.removeAll()
        readerLock.unlock()
        checkpointer.close()
        if let writer {
            try? writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        writer = nil
    }

    private func checkOutReader() throws -> Database {
        readerLock.lock()
        if closed {
            readerLock.unlock()
            throw Self.closedError
        }
        if let reader = idleReaders.popLast() {
            readerLock.unlock()
            return reader
        }
        readerLock.unlock()
        return try Database(path: path, mode: .readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    private func checkIn(_ reader: Database) {
        readerLock.lock()
        defer { readerLock.unlock() }
        if !closed && idleReaders.count < maximumReaderCount { idleReaders.append(reader) }
    }

    private static var closedError: SQLiteError {
        SQLiteError(code: 21, message: "the database is closed")
    }
}
