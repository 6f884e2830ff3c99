import FailscopeModel
import Foundation

/// Flaky queries over a data folder opened read-only (`failscope flaky --data DIR`): one read-only
/// connection, no migration, no writer, safe beside a running service.
///
/// - Throws (init): `StoreError.invalid` when the folder has no database or its schema predates
///   `0007_flaky_outcome_packs` (run `failscope migrate`), `SQLiteError` when it cannot be opened.
public final class FlakyReader {
    private let db: Database

    public init(directory: URL) throws {
        let path = directory.appendingPathComponent(FailscopeStore.databaseFileName).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw StoreError.invalid("no Failscope database at \(path)")
        }
        db = try Database(path: path, mode: .readOnly)
        let migrated = try db.queryFirst(
            "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'flaky_outcomes'"
        ) { _ in true } ?? false
        guard migrated else {
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
