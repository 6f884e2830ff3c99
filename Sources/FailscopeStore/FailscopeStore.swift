import FailscopeModel
import Foundation

/// Failscope's storage: the SQLite database `DIR/failscope.sqlite` (WAL, one writer, read-only
/// readers) and the artifact files under `DIR/artifacts/`.
///
/// Opening migrates the database with the embedded migrations (or refuses it: `MigrationError`).
/// Ingest methods validate, then write one transaction each; read methods return the shared API
/// types of `FailscopeModel/API`. Every method is safe to call from any thread.
public final class FailscopeStore: Sendable {
    /// The data folder.
    public let directory: URL
    /// The database connections.
    public let pool: DatabasePool
    /// The artifact files.
    public let artifacts: ArtifactStore
    /// Migrations applied by this open (empty when the database was up to date).
    public let appliedMigrations: [String]

    /// The database file's name inside the data folder.
    public static let databaseFileName = "failscope.sqlite"

    /// Opens (creating when missing) the store in `directory` and applies pending migrations.
    ///
    /// - Throws: `MigrationError` when the database cannot be trusted or is newer than this binary,
    ///   `SQLiteError` when it cannot be opened or WAL is refused, file system errors for the folder.
    public init(directory: URL, migrator: Migrator = Migrator(migrations: Migration.embedded), readerCount: Int = 4)
        throws
    {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let artifactsRoot = directory.appendingPathComponent("artifacts")
        try FileManager.default.createDirectory(at: artifactsRoot, withIntermediateDirectories: true)
        self.directory = directory
        self.artifacts = ArtifactStore(root: artifactsRoot)
        let pool = try DatabasePool(
            path: directory.appendingPathComponent(Self.databaseFileName).path, maximumReaderCount: readerCount)
        do {
            self.appliedMigrations = try pool.write { try migrator.migrate($0) }
        } catch {
            pool.close()
            throw error
        }
        self.pool = pool
    }

    /// Checkpoints the WAL and closes every connection; later calls throw.
    public func close() {
        pool.close()
    }

    /// Bytes used by the database file and its WAL.
    public func databaseByteCount() -> Int {
        [Self.databaseFileName, Self.databaseFileName + "-wal"].reduce(0) { total, name in
            let path = directory.appendingPathComponent(name).path
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
            return total + (size ?? 0)
        }
    }

    /// Runs `PRAGMA integrity_check`; returns `["ok"]` for a sound database, else SQLite's findings.
    public func integrityCheck() throws -> [String] {
        try pool.read { try $0.query("PRAGMA integrity_check") { $0.string(0) } }
    }
}
