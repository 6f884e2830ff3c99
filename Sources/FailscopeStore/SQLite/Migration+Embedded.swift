import SQLiteMigrations

extension Migration {
    /// The SQLite migrations in `Migrations/sqlite/`, in order, embedded at build time.
    public static let embedded: [Migration] = SQLiteMigrations.migrations.map { Migration(name: $0.name, sql: $0.sql) }
}
