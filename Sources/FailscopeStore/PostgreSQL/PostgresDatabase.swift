import PostgresMigrations

/// A PostgreSQL database of Failscope: a ``PostgresPool`` on a libpq URI, migrated with the embedded
/// `Migrations/postgres/` at open, under the same `Migrator` rules as SQLite (a changed migration or a
/// database from a newer binary is refused).
final class PostgresDatabase: Sendable {
    let pool: PostgresPool
    /// Migrations applied by this open (empty when the database was up to date).
    let appliedMigrations: [String]

    /// The PostgreSQL migrations in `Migrations/postgres/`, in order, embedded at build time.
    static let migrations = PostgresMigrations.migrations.map { Migration(name: $0.name, sql: $0.sql) }

    /// Connects to `url`, checks and applies migrations.
    ///
    /// - Throws: `StoreError.unavailable` when the server cannot be reached, `MigrationError` when the
    ///   database cannot be trusted or is newer than this binary.
    init(
        url: String, migrator: Migrator = Migrator(migrations: migrations), maximumConnectionCount: Int = 8,
        statementTimeoutMilliseconds: Int = 30_000
    ) throws {
        let pool = try PostgresPool(
            url: url, maximumConnectionCount: maximumConnectionCount,
            statementTimeoutMilliseconds: statementTimeoutMilliseconds)
        do {
            appliedMigrations = try pool.withConnection { try migrator.migrate($0) }
        } catch {
            pool.close()
            throw error
        }
        self.pool = pool
    }

    func close() { pool.close() }

}

extension PostgresConnection: MigrationConnection {
    /// The advisory lock (https://www.postgresql.org/docs/15/explicit-locking.html#ADVISORY-LOCKS) every
    /// Failscope migrator takes for its transaction, so replicas starting at once migrate one at a time.
    static let migrationLock: Int64 = 0x6661_696C_7363_6F70  // "failscop"

    func recordedMigrations() throws -> [Migrator.AppliedMigration] {
        guard try query("SELECT to_regclass('schema_migrations') IS NOT NULL").string(0, 0) == "t" else { return [] }
        let rows = try query("SELECT name, checksum, applied_at FROM schema_migrations ORDER BY name")
        return (0..<rows.count).map { row in
            Migrator.AppliedMigration(
                name: rows.string(row, 0) ?? "", checksum: rows.string(row, 1) ?? "",
                appliedAt: rows.string(row, 2) ?? "")
        }
    }

    func createMigrationTable() throws {
        try inMigrationTransaction { try execute(Migrator.createTable) }
    }

    func inMigrationTransaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN")
        do {
            try query("SELECT pg_advisory_xact_lock($1)", [Self.migrationLock])
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            if !isBroken { try? execute("ROLLBACK") }
            throw error
        }
    }

    func executeScript(_ sql: String) throws { try execute(sql) }

    func record(_ migration: Migration, appliedAt: String) throws {
        try query(
            "INSERT INTO schema_migrations (name, checksum, applied_at) VALUES ($1, $2, $3)",
            [migration.name, migration.checksum, appliedAt])
    }
}
