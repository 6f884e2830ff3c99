import FailscopeModel
import Foundation

/// Flaky queries straight from a database, without a service (`failscope flaky --data DIR` or
/// `--database URI`): no migration, no writer, safe beside running services. SQLite: one read-only
/// connection to the file; PostgreSQL: one connection, each query in a read-only snapshot.
///
/// - Throws (init): `StoreError.invalid` when the folder has no database, when `Migrator` refuses it (migrated by
///   a newer Failscope, a changed migration), or when migrations are pending (run `failscope migrate`);
///   `StoreError.unavailable` when it cannot be opened or reached.
public final class FlakyReader {
    private enum Connection {
        case sqlite(Database)
        case postgres(PostgresPool)
    }

    private let connection: Connection

    /// Opens the database at `database` (default: `DIR/failscope.sqlite` of the data folder `directory`).
    public init(directory: URL, database: DatabaseLocation? = nil) throws {
        let pending: [Migration]
        let name: String
        do {
            switch database ?? .sqlite(in: directory) {
            case .sqlite(let path):
                name = "the database at \(path)"
                guard FileManager.default.fileExists(atPath: path) else {
                    throw StoreError.invalid("no Failscope database at \(path)")
                }
                let db = try SQLiteError.translating { try Database(path: path, mode: .readOnly) }
                connection = .sqlite(db)
                // The summaries' layout is the newest migration's: the Migrator's checks (a database from a newer
                // binary, a changed migration) apply, and pending migrations need `failscope migrate`, which a
                // reader must not run.
                pending = try SQLiteError.translating {
                    try Migrator(migrations: Migration.embedded).pendingMigrations(in: db)
                }
            case .postgres(let url):
                name = "the PostgreSQL database"
                let pool = try PostgresPool(url: url, maximumConnectionCount: 1)
                connection = .postgres(pool)
                pending = try pool.withConnection {
                    try Migrator(migrations: PostgresDatabase.migrations).pendingMigrations(in: $0)
                }
            }
        } catch let error as MigrationError {
            throw StoreError.invalid("the database cannot be read: \(error)")
        }
        guard pending.isEmpty else {
            throw StoreError.invalid("\(name) predates the current flaky summaries: run 'failscope migrate'")
        }
    }

    /// `FailscopeStore.flakyTests` on this database.
    public func flakyTests(_ query: FailscopeStore.FlakyQuery) throws -> FlakyReport {
        let window = try FlakyWindow(query)
        return try reading { try FailscopeStore.flakyTests($0, window) }
    }

    /// `FailscopeStore.flakyPages` on this database.
    public func flakyPages(_ query: FailscopeStore.FlakyQuery) throws -> FlakyPageList {
        var query = query
        query.page = nil
        query.suite = nil
        let window = try FlakyWindow(query)
        return try reading { try FailscopeStore.flakyPages($0, window) }
    }

    /// Runs `body` in one read-only snapshot.
    func reading<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        switch connection {
        case .sqlite(let db): try SQLiteError.translating { try db.transaction(.deferred) { try body(db) } }
        case .postgres(let pool): try pool.transaction(.snapshot) { try body($0) }
        }
    }

    deinit {
        if case .postgres(let pool) = connection { pool.close() }
    }
}
