import CSQLite

/// One prepared SQLite statement: owns its `sqlite3_stmt` and finalizes it in `deinit`.
///
/// Values are only ever bound as parameters (`?`), never spliced into SQL. A statement is used by
/// one thread at a time: the `Database` that prepared it hands it out inside `withStatement`.
/// Every result code is checked; failures throw `SQLiteError` carrying the SQL, never the values.
public final class Statement: SQLRow {
    let handle: OpaquePointer
    private let connection: OpaquePointer
    /// The SQL text this statement was prepared from.
    public let sql: String

    init(connection: OpaquePointer, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw SQLiteError(
                code: sqlite3_extended_errcode(connection), message: String(cString: sqlite3_errmsg(connection)),
                sql: sql)
        }
        self.handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// The number of `?` parameters.
    public var parameterCount: Int { Int(sqlite3_bind_parameter_count(handle)) }

    /// Binds `values` to parameters 1...n; the count must match the statement's parameters.
    public func bind(_ values: [any SQLBindable]) throws(SQLiteError) {
        guard values.count == parameterCount else {
            throw SQLiteError(
                code: SQLITE_RANGE, message: "expected \(parameterCount) bound values, got \(values.count)", sql: sql)
        }
        for (offset, value) in values.enumerated() {
            try bind(value.sqlValue, at: Int32(offset + 1))
        }
    }

    private func bind(_ value: SQLValue, at index: Int32) throws(SQLiteError) {
        let code: Int32
        switch value {
        case .null:
            code = sqlite3_bind_null(handle, index)
        case .integer(let integer):
            code = sqlite3_bind_int64(handle, index, integer)
        case .real(let real):
            code = sqlite3_bind_double(handle, index, real)
        case .text(let text):
            var text = text
            code = text.withUTF8 { buffer in
                // A nil pointer would bind NULL: empty text is bound from a static empty C string.
                guard let base = buffer.baseAddress, buffer.count > 0 else {
                    return sqlite3_bind_text(handle, index, "", 0, csqlite_transient())
                }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    sqlite3_bind_text(handle, index, $0, Int32(buffer.count), csqlite_transient())
                }
            }
        case .blob(let bytes):
            code = bytes.withUnsafeBytes { buffer in
                sqlite3_bind_blob(
                    handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
                    csqlite_transient())
            }
        }
        try check(code)
    }

    /// Advances to the next row: `true` when a row is available, `false` when the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw error(code)
        }
    }

    /// Resets the statement for reuse and clears its bindings.
    public func reset() {
        // sqlite3_reset repeats the last step's error, which `step` already threw.
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    // MARK: Columns of the current row

    /// Whether column `index` (0-based) is NULL.
    public func isNull(_ index: Int) -> Bool { sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL }

    /// Column `index` as an integer (0 for NULL).
    public func int64(_ index: Int) -> Int64 { sqlite3_column_int64(handle, Int32(index)) }

    /// Column `index` as an `Int` (0 for NULL).
    public func int(_ index: Int) -> Int { Int(int64(index)) }

    /// Column `index` as an `Int`, `nil` for NULL.
    public func optionalInt(_ index: Int) -> Int? { isNull(index) ? nil : int(index) }

    /// Column `index` as a `Double` (0 for NULL).
    public func double(_ index: Int) -> Double { sqlite3_column_double(handle, Int32(index)) }

    /// Column `index` as a `Double`, `nil` for NULL.
    public func optionalDouble(_ index: Int) -> Double? { isNull(index) ? nil : double(index) }

    /// Column `index` as text (empty for NULL).
    public func string(_ index: Int) -> String { optionalString(index) ?? "" }

    /// Column `index` as text, `nil` for NULL. Bytes that are not UTF-8 are repaired (U+FFFD).
    public func optionalString(_ index: Int) -> String? {
        guard let text = sqlite3_column_text(handle, Int32(index)) else { return nil }
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// Calls `body` with the bytes of column `index` as a BLOB (empty for NULL), valid only inside `body`.
    public func withBlob<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        let bytes = sqlite3_column_blob(handle, Int32(index))
        let count = Int(sqlite3_column_bytes(handle, Int32(index)))
        return try body(UnsafeRawBufferPointer(start: count > 0 ? bytes : nil, count: count))
    }

    /// Column `index` as a `SQLValue` in its storage class.
    public func value(_ index: Int) -> SQLValue {
        switch sqlite3_column_type(handle, Int32(index)) {
        case SQLITE_INTEGER: return .integer(int64(index))
        case SQLITE_FLOAT: return .real(double(index))
        case SQLITE_TEXT: return .text(string(index))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, Int32(index)))
            guard let bytes = sqlite3_column_blob(handle, Int32(index)), count > 0 else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
        default: return .null
        }
    }

    /// The number of columns in a result row.
    public var columnCount: Int { Int(sqlite3_column_count(handle)) }

    private func check(_ code: Int32) throws(SQLiteError) {
        guard code == SQLITE_OK else { throw error(code) }
    }

    private func error(_ code: Int32) -> SQLiteError {
        let extended = sqlite3_extended_errcode(connection)
        return SQLiteError(
            code: extended & 0xFF == code & 0xFF ? extended : code,
            message: String(cString: sqlite3_errmsg(connection)),
            sql: sql)
    }
}
