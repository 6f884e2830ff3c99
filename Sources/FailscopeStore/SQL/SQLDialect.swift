/// The few places where SQLite's and PostgreSQL's SQL differ for the store's statements, spelled once
/// here so every statement is written once for both engines.
///
/// Everything else the store writes is common ground: `?`/`?N` parameters (rewritten for PostgreSQL by
/// ``postgresPlaceholders(_:)``), `ON CONFLICT … DO NOTHING/UPDATE`, `RETURNING`, `IS [NOT] DISTINCT FROM`,
/// `count(*) FILTER (WHERE …)`, `CASE` instead of booleans used as numbers, window functions, `->>` on JSON
/// arrays (SQLite ≥ 3.38).
public enum SQLDialect: Sendable, Hashable {
    case sqlite
    case postgres

    /// The larger of two non-NULL expressions (SQLite's scalar `max(a, b)`, PostgreSQL's `GREATEST`).
    /// With a NULL operand the engines differ (SQLite gives NULL, PostgreSQL the other operand): callers
    /// `coalesce` first.
    public func greatest(_ a: String, _ b: String) -> String {
        self == .sqlite ? "max(\(a), \(b))" : "GREATEST(\(a), \(b))"
    }

    /// The smaller of two non-NULL expressions (see ``greatest(_:_:)``).
    public func least(_ a: String, _ b: String) -> String {
        self == .sqlite ? "min(\(a), \(b))" : "LEAST(\(a), \(b))"
    }

    /// A FROM item named `alias` with one row per element of the JSON array in parameter `parameter`
    /// (`?1`): columns `value` (the element, read with `->> N` for an array element's N-th item, as text
    /// on PostgreSQL: cast to compare with numbers) and `key` (its position, for `ORDER BY`). PostgreSQL's
    /// `jsonb` is parsed once, where `json` would be parsed again by every `->>`.
    public func jsonArrayRows(_ parameter: String, as alias: String) -> String {
        switch self {
        case .sqlite: "json_each(\(parameter)) AS \(alias)"
        case .postgres: "jsonb_array_elements(CAST(\(parameter) AS jsonb)) WITH ORDINALITY AS \(alias) (value, key)"
        }
    }

    /// The value of a new test's `tests.key` in a single-row insert: SQLite numbers after the largest key (its
    /// one writer makes that safe); PostgreSQL takes the identity column's sequence, safe with writers side by
    /// side.
    public var nextTestKey: String {
        self == .sqlite ? "(SELECT coalesce(max(key), 0) + 1 FROM tests)" : "nextval('tests_key_seq')"
    }

    /// The values of the new tests' `tests.key` in an `INSERT … SELECT` of several, numbered in the order of
    /// `order` (an expression over the `SELECT`'s rows) as ``nextTestKey`` numbers one: SQLite adds the row's
    /// number to the largest key.
    public func nextTestKeys(orderedBy order: String) -> String {
        self == .sqlite
            ? "(SELECT coalesce(max(key), 0) FROM tests) + row_number() OVER (ORDER BY \(order))" : nextTestKey
    }

    /// Appended to the `SELECT` of a run's row in a write: on PostgreSQL it locks the row until the transaction
    /// ends, so writers of one run (several replicas) take turns from there on and each sees what the one
    /// before committed; SQLite's one writer needs nothing. `NO KEY`: the lock leaves alone the key-share locks
    /// that inserting a result takes on its run (a foreign key), so two batches that inserted results into a
    /// run do not deadlock asking for it.
    public var forUpdate: String { self == .sqlite ? "" : " FOR NO KEY UPDATE" }

    /// A query with a row when the connection has a temporary table `name` (a constant name).
    func temporaryTableExists(_ name: String) -> String {
        switch self {
        case .sqlite: "SELECT 1 FROM sqlite_temp_master WHERE type = 'table' AND name = '\(name)'"
        case .postgres: "SELECT 1 WHERE to_regclass('pg_temp.\(name)') IS NOT NULL"
        }
    }

    /// `sql` with SQLite-style parameters rewritten for PostgreSQL: `?N` becomes `$N` and a bare `?` becomes
    /// `$M`, M one more than the largest number so far (SQLite's numbering, https://sqlite.org/lang_expr.html#varparam).
    /// Text inside `'…'` literals, `"…"` names, `--` and `/* */` comments and `$$…$$` bodies is left as it is.
    public static func postgresPlaceholders(_ sql: String) -> String {
        var output = ""
        output.reserveCapacity(sql.utf8.count + 16)
        var largest = 0
        let scalars = Array(sql.unicodeScalars)
        var index = 0
        func copy(until end: Int) {
            output.unicodeScalars.append(contentsOf: scalars[index..<min(end, scalars.count)])
            index = min(end, scalars.count)
        }
        func find(_ terminator: [Unicode.Scalar], from start: Int) -> Int {
            var position = start
            while position + terminator.count <= scalars.count {
                if Array(scalars[position..<position + terminator.count]) == terminator {
                    return position + terminator.count
                }
                position += 1
            }
            return scalars.count
        }
        while index < scalars.count {
            let scalar = scalars[index]
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            switch scalar {
            case "'": copy(until: find(["'"], from: index + 1))
            case "\"": copy(until: find(["\""], from: index + 1))
            case "-" where next == "-": copy(until: find(["\n"], from: index + 2))
            case "/" where next == "*": copy(until: find(["*", "/"], from: index + 2))
            case "$" where next == "$": copy(until: find(["$", "$"], from: index + 2))
            case "?":
                var end = index + 1
                while end < scalars.count, ("0"..."9").contains(scalars[end]) { end += 1 }
                let number =
                    end > index + 1 ? Int(String(String.UnicodeScalarView(scalars[index + 1..<end])))! : largest + 1
                largest = max(largest, number)
                output += "$\(number)"
                index = end
            default:
                output.unicodeScalars.append(scalar)
                index += 1
            }
        }
        return output
    }
}
