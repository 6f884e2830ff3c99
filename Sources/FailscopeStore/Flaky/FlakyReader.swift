import FailscopeModel
import Foundation

/// Flaky queries over a data folder opened read-only (`failscope flaky --data DIR`): one read-only
/// connection, no migration, no writer, safe beside a running service.
///
/// - Throws (init): `StoreError.invalid` when the folder has no database, when `Migrator` refuses it (migrated by
///   a newer Failscope, a changed migration), or when migrations are pending (run `failscope migrate`);
///   `StoreError.unavailable` when it cannot be opened.
public final class FlakyReader {
    private let db: Database

    /// Opens the database at `database` (default: `DIR/failscope.sqlite` of the data folder `directory`).
    public init(directory: URL, database: DatabaseLocation? = nil) throws {
        let path: String
        switch database ?? .sqlite(in: directory) {
        case .sqlite(let file): path = file
        case .postgres:
            throw StoreError.invalid("flaky --data reads an SQLite database; ask a service on PostgreSQL with --url")
        }
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.invalid("no Failscope database at \(path)")
        }
        db = try SQLiteError.translating { try Database(path: path, mode: .readOnly) }
        // The summaries' layout is the newest migration's: the Migrator's checks (a database from a newer
        // binary, a changed migration) apply, and pending migrations need `failscope migrate`, which a
        // read-only reader must not run.
        let pending: [Migration]
        do {
            pending = try SQLiteError.translating {
                try Migrator(migrations: Migration.embedded).pendingMigrations(in: db)
            }
        } catch let error as MigrationError {
            throw StoreError.invalid("the database at \(path) cannot be read: \(error)")
        }
        guard pending.isEmpty else {
            throw StoreError.invalid(
                "the database at \(path) predates the current flaky summaries: run 'failscope migrate'")
        }
    }

    /// `FailscopeStore.flakyTests` on this folder.
    public func flakyTests(_ query: FailscopeStore.FlakyQuery) throws -> FlakyReport {
        let window = try FlakyWindow(query)
        return try SQLiteError.translating {
            try db.transaction(.deferred) { try FailscopeStore.flakyTests(db, window) }
        }
    }

    /// `FailscopeStore.flakyPages` on this folder.
    public func flakyPages(_ query: FailscopeStore.FlakyQuery) throws -> FlakyPageList {
        var query = query
        query.page = nil
        query.suite = nil
        let window = try FlakyWindow(query)
        return try SQLiteError.translating {
            try db.transaction(.deferred) { try FailscopeStore.flakyPages(db, window) }
        }
    }
}
