import FailscopeModel
import Foundation

/// Flaky queries over a data folder opened read-only (`failscope flaky --data DIR`): one read-only
/// connection, no migration, no writer, safe beside a running service.
///
/// - Throws (init): `StoreError.invalid` when the folder has no database, or its newest migration is not this
///   binary's newest (older: run `failscope migrate`; newer: use that Failscope), `SQLiteError` when it
///   cannot be opened.
public final class FlakyReader {
    private let db: Database

    public init(directory: URL) throws {
        let path = directory.appendingPathComponent(FailscopeStore.databaseFileName).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.invalid("no Failscope database at \(path)")
        }
        db = try Database(path: path, mode: .readOnly)
        // The summaries' layout is the newest migration's: an older database needs `failscope migrate` (which
        // a read-only reader must not run), a newer one a newer binary.
        let hasMigrations = try db.queryFirst(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'"
        ) { _ in true } ?? false
        let newest = hasMigrations ? try db.queryFirst("SELECT max(name) FROM schema_migrations") { $0.optionalString(0) } ?? nil : nil
        let current = Migration.embedded.last?.name ?? ""
        if let newest, newest > current {
            throw StoreError.invalid("the database at \(path) was migrated by a newer Failscope (\(newest)): use that version")
        }
        guard newest == current else {
            throw StoreError.invalid("the database at \(path) predates the current flaky summaries: run 'failscope migrate'")
        }
    }

    /// `FailscopeStore.flakyTests` on this folder.
    public func flakyTests(_ query: FailscopeStore.FlakyQuery) throws -> FlakyReport {
        let window = try FlakyWindow(query)
        return try db.transaction(.deferred) { try FailscopeStore.flakyTests(db, window) }
    }

    /// `FailscopeStore.flakyPages` on this folder.
    public func flakyPages(_ query: FailscopeStore.FlakyQuery) throws -> FlakyPageList {
        var query = query
        query.page = nil
        query.suite = nil
        let window = try FlakyWindow(query)
        return try db.transaction(.deferred) { try FailscopeStore.flakyPages(db, window) }
    }
}
