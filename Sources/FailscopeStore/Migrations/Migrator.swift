import Foundation

/// Applies `Migration`s in order, each in its own transaction that excludes other migrators (SQLite:
/// `BEGIN IMMEDIATE`; PostgreSQL: an advisory lock) and also records its name and checksum in
/// `schema_migrations`, and refuses a database it cannot trust. The same rules for every engine.
///
/// Modeled on GRDB's `DatabaseMigrator` (append-only, recorded in the same transaction). Refusals
/// (`MigrationError`): an applied migration whose SQL changed, an applied migration this binary does
/// not have, a database migrated by a newer binary, migrations applied out of order.
public struct Migrator: Sendable {
    /// The migrations this binary knows, in order.
    public let migrations: [Migration]

    /// - Precondition: names are unique and strictly increasing.
    public init(migrations: [Migration]) {
        for (previous, next) in zip(migrations, migrations.dropFirst()) {
            precondition(
                previous.name < next.name, "migrations must be in increasing order: \(previous.name), \(next.name)")
        }
        self.migrations = migrations
    }

    /// The newest migration's name (`0001_baseline`).
    var newest: String { migrations.last?.name ?? "" }

    /// One applied migration as recorded in the database.
    public struct AppliedMigration: Sendable, Hashable {
        public var name: String
        public var checksum: String
        public var appliedAt: String
    }

    /// The migrations recorded as applied in `database`, in name order (empty for a new database). Only
    /// reads, so a read-only connection can check a database too.
    func appliedMigrations(in database: some MigrationConnection) throws -> [AppliedMigration] {
        try database.recordedMigrations()
    }

    /// Checks the applied migrations against this binary's and returns those still to apply.
    ///
    /// - Throws: `MigrationError` when the database cannot be trusted, the engine's errors on I/O.
    func pendingMigrations(in database: some MigrationConnection) throws -> [Migration] {
        let applied = try appliedMigrations(in: database)
        try verify(applied)
        return Array(migrations.dropFirst(applied.count))
    }

    /// Applies every pending migration; returns the names applied (empty when up to date).
    ///
    /// Each migration runs in its own exclusive transaction; the check is repeated inside it, so two
    /// processes migrating at once apply each migration once.
    /// - Throws: `MigrationError` (nothing is applied; `.failed` when a migration's SQL failed: that
    ///   migration is rolled back, earlier ones stay applied), the engine's errors on I/O.
    @discardableResult
    func migrate(_ database: some MigrationConnection) throws -> [String] {
        try database.createMigrationTable()
        var appliedNow: [String] = []
        for migration in try pendingMigrations(in: database) {
            let didApply = try database.inMigrationTransaction { () throws -> Bool in
                let applied = try appliedMigrations(in: database)
                try verify(applied)
                guard !applied.contains(where: { $0.name == migration.name }) else { return false }
                do {
                    try database.executeScript(migration.sql)
                } catch let error as MigrationError {
                    throw error
                } catch {
                    throw MigrationError.failed(name: migration.name, message: "\(error)")
                }
                try database.record(migration, appliedAt: ISO8601DateFormatter().string(from: Date()))
                return true
            }
            if didApply { appliedNow.append(migration.name) }
        }
        return appliedNow
    }

    private func verify(_ applied: [AppliedMigration]) throws {
        let known = Dictionary(uniqueKeysWithValues: migrations.map { ($0.name, $0) })
        let unknown = applied.filter { known[$0.name] == nil }.map(\.name)
        if !unknown.isEmpty {
            if let last = migrations.last?.name, unknown.allSatisfy({ $0 > last }) {
                throw MigrationError.databaseIsNewer(unknownMigrations: unknown)
            }
            throw MigrationError.missing(names: unknown)
        }
        for (index, record) in applied.enumerated() {
            guard migrations[index].name == record.name else {
                throw MigrationError.outOfOrder(expected: migrations[index].name, found: record.name)
            }
            guard migrations[index].checksum == record.checksum else {
                throw MigrationError.changed(
                    name: record.name, recordedChecksum: record.checksum, currentChecksum: migrations[index].checksum)
            }
        }
    }

    /// The record of applied migrations, the same table in every engine.
    static let createTable = """
        CREATE TABLE IF NOT EXISTS schema_migrations (
            name TEXT PRIMARY KEY NOT NULL,
            checksum TEXT NOT NULL,
            applied_at TEXT NOT NULL
        )
        """
}

/// What the `Migrator` needs of a connection, in each engine's words.
protocol MigrationConnection {
    /// The rows of `schema_migrations` by name, empty when the table does not exist (only reads).
    func recordedMigrations() throws -> [Migrator.AppliedMigration]
    /// Creates `schema_migrations` when missing.
    func createMigrationTable() throws
    /// Runs `body` in one transaction that no other migrator runs beside; commits when it returns.
    func inMigrationTransaction<T>(_ body: () throws -> T) throws -> T
    /// Runs a migration's SQL, several statements.
    func executeScript(_ sql: String) throws
    /// Records `migration` as applied, inside the migration's transaction.
    func record(_ migration: Migration, appliedAt: String) throws
}
