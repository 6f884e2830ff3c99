import FailscopeStore
import Foundation

/// `failscope migrate`: applies pending database migrations, or explains why the database is refused.
enum MigrateCommand: Command {
    static let name = "migrate"
    static let summary = "Apply pending database migrations."
    static let discussion = """
        Each migration runs in its own transaction and is recorded with its SHA-256; a changed or missing
        applied migration, or a database from a newer failscope, is refused (exit 1). A folder without a
        database gets a new one (said on the first line).
        """
    static let options: [any OptionDeclaration] = [SharedOptions.data, SharedOptions.database]

    static func run(_ arguments: Arguments) async throws -> Int32 {
        let data = try arguments.dataDirectory()
        let database = try arguments.value(SharedOptions.database) ?? .sqlite(in: data)
        // Say so when there was no database (a mistyped --data path would otherwise pass silently).
        var created: String?
        if case .sqlite(let path) = database, !FileManager.default.fileExists(atPath: path) {
            created = path
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
        }
        let outcome: (applied: [String], version: String)
        do {
            outcome = try FailscopeStore.migrate(database)
        } catch {
            throw CommandError(store: error)
        }
        if let created { print("Created a new database at \(created)") }
        if outcome.applied.isEmpty {
            print("Database is up to date (\(outcome.version)).")
        } else {
            for name in outcome.applied { print("Applied \(name)") }
        }
        return 0
    }
}
