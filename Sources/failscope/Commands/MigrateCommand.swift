import FailscopeStore
import Foundation

/// `failscope migrate`: applies pending database migrations, or explains why the database is refused.
enum MigrateCommand: Command {
    static let name = "migrate"
    static let summary = "Apply pending database migrations."
    static let usage = """
        USAGE: failscope migrate [--data <dir>]

        OPTIONS:
          --data <dir>   Folder of the database and artifacts. (default: .failscope; env FAILSCOPE_DATA)

          Each migration runs in its own transaction and is recorded with its SHA-256; a changed or missing
          applied migration, or a database from a newer failscope, is refused (exit 1). A folder without a
          database gets a new one (said on the first line).
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let data = try arguments.dataDirectory()
        try arguments.checkAllConsumed()
        // Say so when there was no database (a mistyped --data path would otherwise pass silently).
        let path = data.appendingPathComponent(FailscopeStore.databaseFileName).path
        let existed = FileManager.default.fileExists(atPath: path)
        let store: FailscopeStore
        do {
            store = try FailscopeStore(directory: data)
        } catch {
            throw CommandError(store: error)
        }
        defer { store.close() }
        if !existed { print("Created a new database at \(path)") }
        if store.appliedMigrations.isEmpty {
            print("Database is up to date (\(store.schemaVersion)).")
        } else {
            for name in store.appliedMigrations { print("Applied \(name)") }
        }
        return 0
    }
}
