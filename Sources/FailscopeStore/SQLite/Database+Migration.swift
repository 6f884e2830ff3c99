import SQLiteMigrations

extension Migration {
    /// The SQLite migrations in `Migrations/sqlite/`, in order, embedded at build time.
    public static let embedded: [Migration] = SQLiteMigrations.migrations.map { Migration(name: $0.name, sql: $0.sql) }
}

extension Database: MigrationConnection {
    func recordedMigrations() throws -> [Migrator.AppliedMigration] {
        let recorded =
            try queryFirst(
                "SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'schema_migrations'"
            ) { _ in true } ?? false
        guard recorded else { return [] }
        return try query("SELECT name, checksum, applied_at FROM schema_migrations ORDER BY name") {
            Migrator.AppliedMigration(name: $0.string(0), checksum: $0.string(1), appliedAt: $0.string(2))
        }
    }

    func createMigrationTable() throws { try execute(Migrator.createTable) }

    func inMigrationTransaction<T>(_ body: () throws -> T) throws -> T { try transaction(.immediate, body) }

    func executeScript(_ sql: String) throws { try execute(sql) }

    func record(_ migration: Migration, appliedAt: String) throws {
        try run(
            "INSERT INTO schema_migrations (name, checksum, applied_at) VALUES (?, ?, ?)",
            [migration.name, migration.checksum, appliedAt])
    }
}

/// Why the `Migrator` refused a database; the service stops with this message.
public enum MigrationError: Error, Sendable, Equatable, CustomStringConvertible {
    /// An applied migration's SQL differs from this binary's copy (migrations are append-only).
    case changed(name: String, recordedChecksum: String, currentChecksum: String)
    /// The database records migrations this binary does not have, among its own.
    case missing(names: [String])
    /// The database was migrated by a newer binary (migrations after this binary's last).
    case databaseIsNewer(unknownMigrations: [String])
    /// A migration this binary has was skipped while a later one was applied.
    case outOfOrder(expected: String, found: String)
    /// A migration's SQL failed (`message`: the engine's error); it was rolled back.
    case failed(name: String, message: String)

    public var description: String {
        switch self {
        case .changed(let name, let recorded, let current):
            "migration \(name) was changed after it was applied (recorded SHA-256 \(recorded.prefix(12))…, "
                + "this binary's \(current.prefix(12))…); migrations are append-only: restore the file and add a new one"
        case .missing(let names):
            "the database has applied migrations this binary does not have: \(names.joined(separator: ", "))"
        case .databaseIsNewer(let names):
            "the database was migrated by a newer failscope (unknown migrations \(names.joined(separator: ", "))); "
                + "upgrade failscope or use a backup"
        case .outOfOrder(let expected, let found):
            "migration \(expected) was never applied but the later \(found) was; the database cannot be trusted"
        case .failed(let name, let message):
            "migration \(name) failed and was rolled back: \(message)"
        }
    }
}
