import CSQLite

extension Database {
    /// Registers the deterministic aggregate SQL function `name(…)` of `argumentCount` arguments on this
    /// connection (`sqlite3_create_function_v2`; registering a name again replaces it). SQLite hands each
    /// group's argument rows to `final`, in the order it stepped them, and stores its value as the result.
    ///
    /// For functions that SQL statements of the schema itself need (flaky_summaries.sql):
    /// the rows of a group are collected first, so keep groups to thousands of rows.
    /// - Throws: `SQLiteError` when SQLite refuses the registration.
    public func createAggregate(
        _ name: String, argumentCount: Int, final: @escaping ([[SQLValue]]) -> SQLValue
    ) throws(SQLiteError) {
        let function = Unmanaged.passRetained(AggregateFunction(final: final)).toOpaque()
        let code = sqlite3_create_function_v2(
            handle, name, Int32(argumentCount), SQLITE_UTF8 | SQLITE_DETERMINISTIC, function, nil,
            aggregateStep, aggregateFinal, { Unmanaged<AggregateFunction>.fromOpaque($0!).release() })
        guard code == SQLITE_OK else {
            throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: name)
        }
    }
}

private final class AggregateFunction {
    let final: ([[SQLValue]]) -> SQLValue

    init(final: @escaping ([[SQLValue]]) -> SQLValue) { self.final = final }
}

/// One group's argument rows, owned by the group's aggregate context until `aggregateFinal`.
private final class AggregateRows {
    var rows: [[SQLValue]] = []
}

/// The group's slot in SQLite's aggregate context: a retained `AggregateRows` pointer, zero until the
/// first row.
private func rowsSlot(_ context: OpaquePointer?, create: Bool) -> UnsafeMutablePointer<UnsafeMutableRawPointer?>? {
    let size = create ? Int32(MemoryLayout<UnsafeMutableRawPointer?>.size) : 0
    return sqlite3_aggregate_context(context, size)?.assumingMemoryBound(to: UnsafeMutableRawPointer?.self)
}

private func aggregateStep(_ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?) {
    guard let slot = rowsSlot(context, create: true) else {
        sqlite3_result_error_nomem(context)
        return
    }
    let rows: AggregateRows
    if let existing = slot.pointee {
        rows = Unmanaged<AggregateRows>.fromOpaque(existing).takeUnretainedValue()
    } else {
        rows = AggregateRows()
        slot.pointee = Unmanaged.passRetained(rows).toOpaque()
    }
    rows.rows.append((0..<Int(count)).map { SQLValue(arguments?[$0]) })
}

private func aggregateFinal(_ context: OpaquePointer?) {
    var rows: [[SQLValue]] = []
    if let slot = rowsSlot(context, create: false), let stored = slot.pointee {
        rows = Unmanaged<AggregateRows>.fromOpaque(stored).takeRetainedValue().rows
        slot.pointee = nil
    }
    let function = Unmanaged<AggregateFunction>.fromOpaque(sqlite3_user_data(context)).takeUnretainedValue()
    switch function.final(rows) {
    case .null: sqlite3_result_null(context)
    case .integer(let value): sqlite3_result_int64(context, value)
    case .real(let value): sqlite3_result_double(context, value)
    case .text(let value):
        // NUL-terminated, so empty text has a pointer (a nil one would make the result NULL).
        let characters = value.utf8CString
        characters.withUnsafeBufferPointer {
            sqlite3_result_text(context, $0.baseAddress, Int32($0.count - 1), csqlite_transient())
        }
    case .blob(let bytes):
        bytes.withUnsafeBytes {
            sqlite3_result_blob(
                context, $0.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32($0.count), csqlite_transient())
        }
    }
}

extension SQLValue {
    /// An argument of an SQL function call (`sqlite3_value`), in its storage class.
    init(_ value: OpaquePointer?) {
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: self = .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: self = .real(sqlite3_value_double(value))
        case SQLITE_TEXT:
            let count = Int(sqlite3_value_bytes(value))
            self = .text(sqlite3_value_text(value).map { String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self) } ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            self = .blob(sqlite3_value_blob(value).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? [])
        default: self = .null
        }
    }
}
