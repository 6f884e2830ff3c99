import CSQLite

/// One SQLite connection: owns its `sqlite3` handle (closed in `deinit`) and a cache of prepared
/// statements keyed by SQL text.
///
/// A `Database` is not thread-safe by itself: `DatabasePool` gives each thread exclusive use of one
/// (one serialized writer, several read-only readers). Every result code is checked and becomes a
/// `SQLiteError` carrying SQLite's code, message and the SQL; bound values are never reported.
public final class Database: SQLConnection {
    /// SQLite's spellings.
    public var dialect: SQLDialect { .sqlite }

    /// How a connection opens its file.
    public enum Mode: Sendable {
        /// Read and write, creating the file when missing (the writer).
        case readWrite
        /// Read only; `PRAGMA query_only` is also set (the readers).
        case readOnly
    }

    let handle: OpaquePointer
    /// The database file's path.
    public let path: String
    public let mode: Mode
    private var statements: [String: Statement] = [:]

    /// Opens `path` in `mode` and sets the busy timeout (milliseconds a statement waits for a lock).
    ///
    /// - Throws: `SQLiteError` when SQLite cannot open the file.
    public init(path: String, mode: Mode, busyTimeoutMilliseconds: Int32 = 5_000) throws(SQLiteError) {
        var connection: OpaquePointer?
        let flags =
            (mode == .readWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY)
            | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        guard code == SQLITE_OK, let connection else {
            let message = connection.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open database"
            sqlite3_close_v2(connection)
            throw SQLiteError(code: code, message: "\(message) (\(path))")
        }
        self.handle = connection
        self.path = path
        self.mode = mode
        sqlite3_extended_result_codes(connection, 1)
        let timeoutCode = sqlite3_busy_timeout(connection, busyTimeoutMilliseconds)
        guard timeoutCode == SQLITE_OK else {
            throw SQLiteError(code: timeoutCode, message: String(cString: sqlite3_errmsg(connection)))
        }
        if mode == .readOnly {
            try execute("PRAGMA query_only = ON")
            // A 32 MiB page cache (SQLite's default is 2 MiB): the summary pages a flaky query touches stay
            // in the process instead of being read again on every query. Set once per connection.
            try execute("PRAGMA cache_size = -32768")
        }
        // Reads of the database file through a memory map (up to SQLite's compiled-in limit, 2 GiB in
        // Debian's build) instead of a read() copy per page: the flaky queries and ingest touch scattered
        // summary pages that the page cache alone does not keep (docs/flaky.md, "How it stays fast").
        try execute("PRAGMA mmap_size = \(Self.memoryMapBytes)")
    }

    /// The `mmap_size` asked of every connection; SQLite lowers it to its compile-time maximum.
    static let memoryMapBytes: Int64 = 1 << 34

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Runs one or more SQL statements without parameters (`sqlite3_exec`): DDL, pragmas, migrations.
    ///
    /// - Throws: `SQLiteError` with the whole SQL text when any statement fails.
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// Gives `body` the cached prepared statement for `sql` with `values` bound; resets it afterwards.
    public func withStatement<T>(
        _ sql: String, _ values: [any SQLBindable] = [], _ body: (Statement) throws -> T
    ) throws -> T {
        let statement: Statement
        if let cached = statements[sql] {
            statement = cached
        } else {
            statement = try Statement(connection: handle, sql: sql)
            statements[sql] = statement
        }
        defer { statement.reset() }
        try statement.bind(values)
        return try body(statement)
    }

    /// Runs `sql` with `values` bound, calling `body` with each row until it returns `false`; returns the rows
    /// the statement changed (``SQLConnection``).
    @discardableResult
    public func forEachRow(_ sql: String, _ values: [any SQLBindable], _ body: (any SQLRow) throws -> Bool) throws
        -> Int
    {
        try withStatement(sql, values) { statement in
            while try statement.step() {
                guard try body(statement) else { return 0 }
            }
            return Int(sqlite3_changes(handle))
        }
    }

    /// Whether a transaction is open on this connection.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The kind of `BEGIN` (https://sqlite.org/lang_transaction.html).
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ kind: TransactionKind, _ body: () throws -> T) throws -> T {
        try execute("BEGIN \(kind.rawValue) TRANSACTION")
        do {
            let value = try body()
            try execute("COMMIT TRANSACTION")
            return value
        } catch {
            if isInTransaction { try? execute("ROLLBACK TRANSACTION") }
            throw error
        }
    }

    /// Runs `body` in an immediate transaction (the writer's), or inside the one already open.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        isInTransaction ? try body() : try transaction(.immediate, body)
    }

    /// Sets WAL mode and verifies SQLite answered `wal` (it silently keeps another mode otherwise,
    /// e.g. on a file system without shared memory), then `synchronous=NORMAL`, foreign keys on and a
    /// 64 MiB page cache.
    ///
    /// - Throws: `SQLiteError` when WAL cannot be enabled or a pragma fails.
    public func configureAsWriter() throws {
        let journalMode = try scalar("PRAGMA journal_mode = WAL").string?.lowercased()
        guard journalMode == "wal" else {
            throw SQLiteError(
                code: SQLITE_ERROR,
                message: "the database refused WAL mode (journal_mode is \(journalMode ?? "unknown"))",
                sql: "PRAGMA journal_mode = WAL")
        }
        try execute("PRAGMA synchronous = NORMAL")
        try execute("PRAGMA foreign_keys = ON")
        // A 64 MiB page cache (default 2 MiB): ingest touches many indexes and the flaky summary tables,
        // and re-reading their pages from the OS cache was a large share of the writer's time.
        try execute("PRAGMA cache_size = -65536")
        guard try scalar("PRAGMA foreign_keys").int == 1 else {
            throw SQLiteError(
                code: SQLITE_ERROR, message: "foreign keys could not be enabled", sql: "PRAGMA foreign_keys")
        }
    }
}
