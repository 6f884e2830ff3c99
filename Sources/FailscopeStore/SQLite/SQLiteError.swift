import CSQLite

/// An error reported by SQLite: its (extended) result code, SQLite's message and the SQL that failed.
///
/// Bound values never appear in `description`: they may hold test-controlled text or secrets.
/// Codes and messages are SQLite's (https://sqlite.org/rescode.html).
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` = 2067, `SQLITE_BUSY` = 5, ...).
    public var code: Int32
    /// SQLite's message (`sqlite3_errmsg`), or a description of what the wrapper found wrong.
    public var message: String
    /// The SQL text of the statement that failed, when there was one.
    public var sql: String?

    public init(code: Int32, message: String, sql: String? = nil) {
        self.code = code
        self.message = message
        self.sql = sql
    }

    /// The primary result code (the low 8 bits of `code`).
    public var primaryCode: Int32 { code & 0xFF }

    /// Whether this is a constraint violation (`SQLITE_CONSTRAINT`).
    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }

    public var description: String {
        var text = "SQLite error \(code): \(message)"
        if let sql { text += " — while executing `\(sql)`" }
        return text
    }
}

extension SQLiteError {
    /// The store's word for this condition when it is one a caller acts on (retry, wait for the disk, give
    /// up with 503), `nil` for the rest (a bug or a damaged database: a 500). Messages carry no path.
    var storeError: StoreError? {
        switch primaryCode {
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_FULL: .storageFull(StoreError.dataFolderFullMessage)
        case SQLITE_IOERR: .unavailable("SQLite reported an I/O error (\(code))")
        case SQLITE_CANTOPEN: .unavailable("SQLite cannot open the database file")
        default: nil
        }
    }

    /// Runs `body`, throwing ``storeError`` in place of a `SQLiteError` that has one.
    static func translating<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteError {
            throw error.storeError ?? error
        }
    }
}
