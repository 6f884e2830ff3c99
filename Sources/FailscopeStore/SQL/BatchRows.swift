import FailscopeModel

/// The rows of a batch (each a list of integers, reals, text and NULLs; no BLOBs), written by one call per
/// table: ``SQLConnection/insert(into:_:rows:then:_:)``, or a statement that reads ``json`` as a table
/// (``SQLDialect/jsonArrayRows(_:as:)``).
struct BatchRows {
    /// What a row's value is cast to when read from ``BatchRows/json`` into a column.
    enum Column {
        case text
        case integer
        case real

        /// `value` (the text `->>` gives on PostgreSQL) as this type.
        func cast(_ value: String) -> String {
            switch self {
            case .text: value
            case .integer: "CAST(\(value) AS BIGINT)"
            case .real: "CAST(\(value) AS DOUBLE PRECISION)"
            }
        }
    }

    /// The rows, in the order they were appended.
    private(set) var rows: [[SQLValue]] = []

    /// Appends a row.
    mutating func append(_ row: [SQLValue]) {
        precondition(!row.contains { if case .blob = $0 { true } else { false } }, "a batch row holds no BLOB")
        rows.append(row)
    }

    /// Appends a row of parameter values.
    mutating func append(values: [any SQLBindable]) { append(values.map(\.sqlValue)) }

    /// Whether no row was appended.
    var isEmpty: Bool { rows.isEmpty }

    /// The rows as one JSON array of arrays, written by `WireJSONWriter`.
    var json: String {
        var writer = WireJSONWriter()
        writer.array(rows) { json, row in
            json.array(row) { json, value in
                switch value {
                case .text(let string): json.string(string)
                case .integer(let integer): json.raw(String(integer))
                case .real(let real): json.number(real)
                case .null, .blob: json.raw("null")
                }
            }
        }
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}

extension SQLConnection {
    /// Inserts `rows` into `table` in the rows' order: the N-th value of each row into the N-th of `columns`.
    /// `clause` follows the values (`ON CONFLICT …`, `RETURNING …`) and `body` gets each returned row. Returns
    /// the rows inserted; nothing is run for no rows.
    ///
    /// SQLite runs one prepared single-row statement per row (in-process calls are cheaper than reading JSON);
    /// PostgreSQL one statement over the rows as a JSON array, cast to the columns' types (one round trip).
    @discardableResult
    func insert(
        into table: String, _ columns: KeyValuePairs<String, BatchRows.Column>, rows: BatchRows,
        then clause: String = "", _ body: (any SQLRow) throws -> Void = { _ in }
    ) throws -> Int {
        guard !rows.isEmpty else { return 0 }
        func each(_ row: any SQLRow) throws -> Bool {
            try body(row)
            return true
        }
        let names = columns.map(\.key).joined(separator: ", ")
        guard dialect == .postgres else {
            let parameters = (1...columns.count).map { "?\($0)" }.joined(separator: ", ")
            let sql = "INSERT INTO \(table) (\(names)) VALUES (\(parameters)) \(clause)"
            return try rows.rows.reduce(0) { count, row in count + (try forEachRow(sql, row, each)) }
        }
        let values = columns.enumerated().map { index, column in column.value.cast("(j.value ->> \(index))") }
        return try forEachRow(
            """
            INSERT INTO \(table) (\(names))
            SELECT \(values.joined(separator: ", ")) FROM \(dialect.jsonArrayRows("?1", as: "j")) WHERE true
            ORDER BY j.key \(clause)
            """, [rows.json], each)
    }
}
