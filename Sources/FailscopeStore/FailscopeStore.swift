import FailscopeModel
import Foundation

/// Failscope's storage, the one interface the service, the CLI and the importers use: runs, results
/// and their history (ingest and queries), pages and flaky tests, retention and health, plus the
/// artifact files under `DIR/artifacts/`.
///
/// The engine is SQLite, the database `DIR/failscope.sqlite` (WAL, one writer, read-only readers);
/// nothing in this type's public surface names it. Opening migrates the database with the embedded
/// migrations (or refuses it: `MigrationError`). Ingest methods validate, then write one transaction
/// each; read methods return the shared API types of `FailscopeModel/API`. Every error that leaves a
/// method is a `StoreError` (`busy`, `unavailable`, `storageFull` for the database's conditions),
/// a `MigrationError` when opening, or, for a bug or a damaged database, an engine error (a 500).
/// Every method is safe to call from any thread.
public final class FailscopeStore: Sendable {
    /// The data folder.
    public let directory: URL
    /// The SQLite connections: for the store's own benchmarks, which load and measure the engine directly.
    @_spi(Engine) public let pool: DatabasePool
    /// The artifact files.
    public let artifacts: ArtifactStore
    /// Migrations applied by this open (empty when the database was up to date).
    public let appliedMigrations: [String]

    /// The database file's name inside the data folder.
    public static let databaseFileName = "failscope.sqlite"

    /// Opens (creating when missing) the store in `directory` and applies pending migrations.
    ///
    /// - Throws: `MigrationError` when the database cannot be trusted or is newer than this binary,
    ///   `StoreError.unavailable` when it cannot be opened, `SQLiteError` when WAL is refused, file
    ///   system errors for the folder.
    public init(directory: URL, migrator: Migrator = Migrator(migrations: Migration.embedded), readerCount: Int = 4)
        throws
    {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let artifactsRoot = directory.appendingPathComponent("artifacts")
        try FileManager.default.createDirectory(at: artifactsRoot, withIntermediateDirectories: true)
        self.directory = directory
        self.artifacts = ArtifactStore(root: artifactsRoot)
        let pool = try SQLiteError.translating {
            try DatabasePool(
                path: directory.appendingPathComponent(Self.databaseFileName).path, maximumReaderCount: readerCount)
        }
        do {
            self.appliedMigrations = try SQLiteError.translating { try pool.write { try migrator.migrate($0) } }
        } catch {
            pool.close()
            throw error
        }
        self.pool = pool
    }

    /// The newest migration this binary has, which an open store's database is at (`0001_baseline`).
    public var schemaVersion: String { Migration.embedded.last?.name ?? "" }

    /// Runs `body` with the one writer connection; SQLite's busy, full and I/O conditions leave as `StoreError`.
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try SQLiteError.translating { try pool.write(body) }
    }

    /// Runs `body` with a reader in one snapshot; SQLite's busy and I/O conditions leave as `StoreError`.
    func read<T>(_ body: (Database) throws -> T) throws -> T {
        try SQLiteError.translating { try pool.read(body) }
    }

    /// Checks that the database answers now (`/healthz`).
    ///
    /// - Throws: `StoreError.unavailable` or `.busy` when it does not.
    public func checkHealth() throws {
        guard try read({ try $0.scalar("SELECT 1").int }) == 1 else {
            throw StoreError.unavailable("the health query returned no row")
        }
    }

    /// Checkpoints the WAL and closes every connection; later calls throw.
    public func close() {
        pool.close()
    }

    /// Bytes the database uses on disk (SQLite: the database file and its WAL).
    public func databaseByteCount() -> Int {
        [Self.databaseFileName, Self.databaseFileName + "-wal"].reduce(0) { total, name in
            let path = directory.appendingPathComponent(name).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
            return total + (size ?? 0)
        }
    }

    /// The engine's consistency check (SQLite: `PRAGMA integrity_check`); returns `["ok"]` for a sound
    /// database, else the engine's findings.
    public func integrityCheck() throws -> [String] {
        try read { try $0.query("PRAGMA integrity_check") { $0.string(0) } }
    }
}
