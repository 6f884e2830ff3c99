/// One row of a statement's result, its columns read by 0-based index: what the store's SQL reads,
/// whatever the engine (SQLite's `Statement`, a PostgreSQL result row).
///
/// Types follow SQLite's storage classes (``SQLValue``): integers (PostgreSQL's `bigint`, `integer`,
/// `numeric` without a fraction, and `boolean` as 0/1), reals, text, BLOBs (`bytea`), NULL.
public protocol SQLRow {
    /// Whether column `index` is NULL.
    func isNull(_ index: Int) -> Bool
    /// Column `index` as an integer (0 for NULL).
    func int64(_ index: Int) -> Int64
    /// Column `index` as a `Double` (0 for NULL).
    func double(_ index: Int) -> Double
    /// Column `index` as text, `nil` for NULL.
    func optionalString(_ index: Int) -> String?
    /// Calls `body` with the bytes of BLOB column `index` (empty for NULL), valid only inside `body`.
    func withBlob<T>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T
    /// Column `index` in its storage class.
    func value(_ index: Int) -> SQLValue
    /// The number of columns.
    var columnCount: Int { get }
}

extension SQLRow {
    /// Column `index` as an `Int` (0 for NULL).
    public func int(_ index: Int) -> Int { Int(int64(index)) }
    /// Column `index` as an `Int`, `nil` for NULL.
    public func optionalInt(_ index: Int) -> Int? { isNull(index) ? nil : int(index) }
    /// Column `index` as a `Double`, `nil` for NULL.
    public func optionalDouble(_ index: Int) -> Double? { isNull(index) ? nil : double(index) }
    /// Column `index` as text (empty for NULL).
    public func string(_ index: Int) -> String { optionalString(index) ?? "" }
}

/// One connection of either engine, as the store's code uses it: statements with their values bound as
/// parameters, rows read by column, transactions. The SQL the store writes runs unchanged on both engines
/// (``SQLDialect`` holds the few spellings that differ).
///
/// Parameters are written `?` (the next number) or `?N` (the N-th value, 1-based) in SQLite's manner; the
/// PostgreSQL connection rewrites them to `$N` once per statement (``SQLDialect/postgresPlaceholders(_:)``),
/// leaving string literals, quoted names and comments alone. Values are never spliced into SQL.
public protocol SQLConnection: AnyObject {
    /// The engine's spellings.
    var dialect: SQLDialect { get }

    /// Runs `sql` with `values` bound and calls `body` with each result row until it returns `false`;
    /// returns the rows the statement inserted, updated or deleted (0 for a query). The engine prepares
    /// each SQL text once per connection and reuses it.
    ///
    /// - Throws: the engine's error (`SQLiteError`, `PostgresError`) carrying the SQL, never the values.
    @discardableResult
    func forEachRow(_ sql: String, _ values: [any SQLBindable], _ body: (any SQLRow) throws -> Bool) throws -> Int

    /// Runs SQL without parameters, one statement or a script of several (DDL, a migration).
    func execute(_ sql: String) throws

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws. Inside a
    /// transaction already open on this connection `body` joins it.
    func transaction<T>(_ body: () throws -> T) throws -> T
}

extension SQLConnection {
    /// Runs a statement that returns no rows (or whose rows are not needed); returns the rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: [any SQLBindable] = []) throws -> Int {
        try forEachRow(sql, values) { _ in true }
    }

    /// Runs a query and maps every row with `row`.
    public func query<T>(_ sql: String, _ values: [any SQLBindable] = [], row: (any SQLRow) throws -> T) throws
        -> [T]
    {
        var rows: [T] = []
        try forEachRow(sql, values) { statement in
            rows.append(try row(statement))
            return true
        }
        return rows
    }

    /// The first row of a query mapped with `row`, or `nil` when there is none.
    public func queryFirst<T>(_ sql: String, _ values: [any SQLBindable] = [], row: (any SQLRow) throws -> T)
        throws -> T?
    {
        var first: T?
        try forEachRow(sql, values) { statement in
            first = try row(statement)
            return false
        }
        return first
    }

    /// The first column of the first row (`.null` when there is no row).
    public func scalar(_ sql: String, _ values: [any SQLBindable] = []) throws -> SQLValue {
        try queryFirst(sql, values) { $0.value(0) } ?? .null
    }
}
