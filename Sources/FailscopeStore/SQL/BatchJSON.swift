import FailscopeModel

/// A JSON array of rows (each an array of text, numbers and nulls) that one statement reads as a table
/// (``SQLDialect/jsonArrayRows(_:as:)``), so a batch is written with one statement per table; written by
/// `WireJSONWriter`.
struct BatchJSON {
    enum Value {
        case text(String)
        case integer(Int64)
        case real(Double)
        case null
    }

    /// What a row's value is cast to when inserted into a column (``SQLConnection/insert(into:_:rows:then:_:)``).
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

    private var writer = WireJSONWriter()

    mutating func append(_ row: [Value]) {
        writer.raw(writer.bytes.isEmpty ? "[" : ",")
        writer.array(row) { json, value in
            switch value {
            case .text(let string): json.string(string)
            case .integer(let integer): json.raw(String(integer))
            case .real(let real): json.number(real)
            case .null: json.raw("null")
            }
        }
    }

    /// Appends a row of parameter values (integers, reals, text, NULL; not BLOBs).
    mutating func append(values: [any SQLBindable]) {
        append(
            values.map { value in
                switch value.sqlValue {
                case .null: .null
                case .integer(let integer): .integer(integer)
                case .real(let real): .real(real)
                case .text(let text): .text(text)
                case .blob: preconditionFailure("a BLOB cannot be written into a JSON row")
                }
            })
    }

    /// Whether no row was appended.
    var isEmpty: Bool { writer.bytes.isEmpty }

    /// The array's text.
    var json: String { writer.bytes.isEmpty ? "[]" : String(decoding: writer.bytes, as: UTF8.self) + "]" }
}

extension SQLConnection {
    /// Inserts `rows` into `table` with one statement, in the rows' order: the N-th value of each row into the
    /// N-th of `columns`, cast to its type. `clause` follows the `SELECT` (`ON CONFLICT …`, `RETURNING …`) and
    /// `body` gets each returned row. Returns the rows inserted; nothing is run for no rows.
    @discardableResult
    func insert(
        into table: String, _ columns: KeyValuePairs<String, BatchJSON.Column>, rows: BatchJSON,
        then clause: String = "", _ body: (any SQLRow) throws -> Void = { _ in }
    ) throws -> Int {
        guard !rows.isEmpty else { return 0 }
        let values = columns.enumerated().map { index, column in column.value.cast("(j.value ->> \(index))") }
        return try forEachRow(
            """
            INSERT INTO \(table) (\(columns.map(\.key).joined(separator: ", ")))
            SELECT \(values.joined(separator: ", ")) FROM \(dialect.jsonArrayRows("?1", as: "j")) WHERE true
            ORDER BY j.key \(clause)
            """, [rows.json]
        ) { row in
            try body(row)
            return true
        }
    }
}
