import CLibPQ

/// One PostgreSQL connection: owns its libpq `PGconn` (closed in `deinit`) and the statements it prepared,
/// by SQL text (https://www.postgresql.org/docs/15/libpq-exec.html).
///
/// Values are only ever sent as `$n` parameters, never spliced into SQL: integers, reals and text in text
/// format (the server types them from the statement), BLOBs in binary format as `bytea`. Results come in
/// text format. Not thread-safe by itself: ``PostgresPool`` gives each thread exclusive use of one.
final class PostgresConnection: SQLConnection {
    private let handle: OpaquePointer
    /// Prepared statement names (`s1`, `s2`, ...) by SQL text.
    private var prepared: [String: String] = [:]
    /// The store's `?` statements rewritten with `$n` parameters, by their text.
    private var rewritten: [String: String] = [:]

    var dialect: SQLDialect { .postgres }

    /// Connects with the libpq connection URI `url` (it carries no password: libpq reads `PGPASSWORD` or
    /// `~/.pgpass`) and sets the session's statement timeout.
    ///
    /// - Throws: `PostgresError` (SQLSTATE `08006`) with libpq's message when the server cannot be reached
    ///   or refuses the connection.
    init(url: String, statementTimeoutMilliseconds: Int) throws(PostgresError) {
        guard let connection = PQconnectdb(url) else {
            throw PostgresError(sqlState: "08006", message: "libpq could not allocate a connection")
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.message(PQerrorMessage(connection))
            PQfinish(connection)
            throw PostgresError(sqlState: "08006", message: message)
        }
        handle = connection
        // The server's notices and warnings (a shutdown's "terminating connection") are not printed on stderr:
        // the store reports what it acts on as errors.
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
        try execute("SET statement_timeout = \(max(0, statementTimeoutMilliseconds))")
        try execute("SET application_name = 'failscope'")
        // No NOTICE lines on stderr (`CREATE … IF NOT EXISTS` of an existing table sends one).
        try execute("SET client_min_messages = warning")
    }

    deinit {
        PQfinish(handle)
    }

    /// Whether the connection still works; a broken one is dropped by the pool, not reused.
    var isBroken: Bool { PQstatus(handle) != CONNECTION_OK }

    /// Runs SQL without parameters, one or several statements (`PQexec`): DDL, `SET`, a migration's script.
    ///
    /// - Throws: `PostgresError` carrying the SQL.
    func execute(_ sql: String) throws(PostgresError) {
        let result = PQexec(handle, sql)
        defer { PQclear(result) }
        try check(result, sql: sql)
    }

    /// Runs `sql` (prepared once per connection) with `values` bound to `$1`...`$n`; returns its rows.
    ///
    /// - Throws: `PostgresError` carrying the SQL, never the values.
    @discardableResult
    func query(_ sql: String, _ values: [any SQLBindable] = []) throws(PostgresError) -> PostgresRows {
        let name = try statementName(sql, parameterCount: values.count)
        let parameters = values.map { Parameter($0.sqlValue) }
        let result = withParameters(parameters) { pointers, lengths, formats in
            PQexecPrepared(handle, name, Int32(parameters.count), pointers, lengths, formats, 0)
        }
        do {
            try check(result, sql: sql)
        } catch {
            PQclear(result)
            throw error
        }
        return PostgresRows(result!)
    }

    /// ``SQLConnection``: `sql` (with `?` parameters) prepared once, run with `values`, its rows handed to `body`.
    @discardableResult
    func forEachRow(_ sql: String, _ values: [any SQLBindable], _ body: (any SQLRow) throws -> Bool) throws -> Int {
        let text: String
        if let cached = rewritten[sql] {
            text = cached
        } else {
            text = SQLDialect.postgresPlaceholders(sql)
            rewritten[sql] = text
        }
        let rows = try query(text, values)
        let row = PostgresRow(rows)
        while row.index < rows.count {
            guard try body(row) else { break }
            row.index += 1
        }
        return rows.changes
    }

    /// ``SQLConnection``: `BEGIN` … `COMMIT` (`ROLLBACK` when `body` throws), or `body` alone inside an open
    /// transaction (the pool's, which also runs it again after a serialization failure).
    func transaction<T>(_ body: () throws -> T) throws -> T {
        guard PQtransactionStatus(handle) == PQTRANS_IDLE else { return try body() }
        try execute("BEGIN")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if !isBroken { try? execute("ROLLBACK") }
            throw error
        }
    }

    private func statementName(_ sql: String, parameterCount: Int) throws(PostgresError) -> String {
        if let name = prepared[sql] { return name }
        let name = "s\(prepared.count + 1)"
        let result = PQprepare(handle, name, sql, 0, nil)
        defer { PQclear(result) }
        try check(result, sql: sql)
        prepared[sql] = name
        return name
    }

    private func check(_ result: OpaquePointer?, sql: String) throws(PostgresError) {
        let status = result.map(PQresultStatus) ?? PGRES_FATAL_ERROR
        guard status != PGRES_COMMAND_OK, status != PGRES_TUPLES_OK else { return }
        let state = result.flatMap { PQresultErrorField($0, cpq_diag_sqlstate()) }.map { String(cString: $0) }
        let primary = result.flatMap { PQresultErrorField($0, cpq_diag_message_primary()) }.map { String(cString: $0) }
        // No SQLSTATE: libpq itself failed (the connection broke).
        throw PostgresError(
            sqlState: state ?? "08006", message: primary ?? Self.message(PQerrorMessage(handle)), sql: sql)
    }

    private static func message(_ text: UnsafePointer<CChar>?) -> String {
        text.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "unknown libpq error"
    }

    /// One parameter's bytes and format (0 text, 1 binary), `nil` bytes for NULL.
    private struct Parameter {
        var bytes: [UInt8]?
        var format: Int32

        init(_ value: SQLValue) {
            switch value {
            case .null: (bytes, format) = (nil, 0)
            case .integer(let integer): (bytes, format) = (Array(String(integer).utf8) + [0], 0)
            case .real(let real): (bytes, format) = (Array("\(real)".utf8) + [0], 0)
            case .text(let text): (bytes, format) = (Array(text.utf8) + [0], 0)
            case .blob(let blob): (bytes, format) = (blob, 1)
            }
        }
    }

    private func withParameters<T>(
        _ parameters: [Parameter],
        _ body: (UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?) -> T
    ) -> T {
        let lengths = parameters.map { Int32($0.bytes?.count ?? 0) }
        let formats = parameters.map(\.format)
        // Copies that live until `body` returns; libpq reads them during the call only.
        let buffers: [UnsafeMutablePointer<CChar>?] = parameters.map { parameter in
            guard let bytes = parameter.bytes else { return nil }
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(bytes.count, 1))
            bytes.withUnsafeBytes { raw in
                if let base = raw.baseAddress {
                    buffer.initialize(from: base.assumingMemoryBound(to: CChar.self), count: bytes.count)
                }
            }
            return buffer
        }
        defer { buffers.forEach { $0?.deallocate() } }
        let pointers = buffers.map { UnsafePointer($0) }
        return pointers.withUnsafeBufferPointer { pointers in
            lengths.withUnsafeBufferPointer { lengths in
                formats.withUnsafeBufferPointer { formats in
                    body(pointers.baseAddress, lengths.baseAddress, formats.baseAddress)
                }
            }
        }
    }
}

/// The rows of one statement's result in text format (owns the `PGresult`, cleared in `deinit`).
final class PostgresRows {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) { self.result = result }

    deinit { PQclear(result) }

    /// The number of rows.
    var count: Int { Int(PQntuples(result)) }

    /// The number of columns.
    var columnCount: Int { Int(PQnfields(result)) }

    /// Rows an INSERT, UPDATE or DELETE changed (0 for a query).
    var changes: Int { Int(String(cString: PQcmdTuples(result))) ?? 0 }

    /// The type OID of column `column` (`pg_type.oid`: 16 boolean, 17 bytea, 20/21/23 integers, 700/701 reals,
    /// 1700 numeric).
    func type(_ column: Int) -> UInt32 { UInt32(PQftype(result, Int32(column))) }

    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }

    /// Column `column` of row `row` as text, `nil` for NULL.
    func string(_ row: Int, _ column: Int) -> String? {
        guard !isNull(row, column) else { return nil }
        let length = Int(PQgetlength(result, Int32(row), Int32(column)))
        return PQgetvalue(result, Int32(row), Int32(column)).withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    func int64(_ row: Int, _ column: Int) -> Int64? { string(row, column).flatMap { Int64($0) } }

    func double(_ row: Int, _ column: Int) -> Double? { string(row, column).flatMap { Double($0) } }

    /// A `bytea` column (text format: `\x` and two hex digits a byte).
    func bytes(_ row: Int, _ column: Int) -> [UInt8]? {
        guard let text = string(row, column) else { return nil }
        let digits = Array(text.utf8.dropFirst(2))
        func nibble(_ digit: UInt8) -> UInt8 { digit <= 0x39 ? digit - 0x30 : (digit | 0x20) - 0x61 + 10 }
        return stride(from: 0, to: digits.count - 1, by: 2).map { nibble(digits[$0]) << 4 | nibble(digits[$0 + 1]) }
    }
}

/// One row of a ``PostgresRows`` as an ``SQLRow``: text-format values read in SQLite's storage classes
/// (booleans as 0/1, `numeric` as an integer when it has no fraction).
final class PostgresRow: SQLRow {
    let rows: PostgresRows
    var index = 0

    init(_ rows: PostgresRows) { self.rows = rows }

    var columnCount: Int { rows.columnCount }

    func isNull(_ column: Int) -> Bool { rows.isNull(index, column) }

    func int64(_ column: Int) -> Int64 {
        guard let text = rows.string(index, column) else { return 0 }
        if let value = Int64(text) { return value }
        switch text {
        case "t": return 1
        case "f": return 0
        default: return Double(text).map { Int64($0) } ?? 0
        }
    }

    func double(_ column: Int) -> Double { rows.double(index, column) ?? 0 }

    func optionalString(_ column: Int) -> String? { rows.string(index, column) }

    func withBlob<T>(_ column: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try (rows.bytes(index, column) ?? []).withUnsafeBytes(body)
    }

    func value(_ column: Int) -> SQLValue {
        guard let text = rows.string(index, column) else { return .null }
        switch rows.type(column) {
        case 16, 20, 21, 23: return .integer(int64(column))
        case 1700: return Int64(text).map { .integer($0) } ?? .real(Double(text) ?? 0)
        case 700, 701: return .real(Double(text) ?? 0)
        case 17: return .blob(rows.bytes(index, column) ?? [])
        default: return .text(text)
        }
    }
}
