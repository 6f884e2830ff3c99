import FailscopeModel
import Foundation
import Synchronization

/// Failscope's storage, the one interface the service, the CLI and the importers use: runs, results
/// and their history (ingest and queries), pages and flaky tests, retention and health, plus the
/// artifact files under `DIR/artifacts/`.
///
/// The engine is SQLite, the database `DIR/failscope.sqlite` or another file (WAL, one writer,
/// read-only readers); nothing in this type's public surface names it. A PostgreSQL database can be
/// migrated (`migrate(_:)`) but not yet opened as a store. Opening migrates the database with the embedded
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
    /// Where artifact bytes are stored: the folder `DIR/artifacts` unless another storage was given.
    public let artifacts: any ArtifactStorage
    /// Migrations applied by this open (empty when the database was up to date).
    public let appliedMigrations: [String]
    /// Whether the last write failed for lack of disk space (``StoreError/storageFull(_:)``); a write that
    /// succeeds clears it.
    private let lastWriteFoundDiskFull = Atomic<Bool>(false)

    /// The database file's name inside the data folder.
    public static let databaseFileName = "failscope.sqlite"

    /// The database file (the SQLite engine's).
    public let databasePath: String

    /// Opens (creating when missing) the store in `directory`, with its database at `database` (default:
    /// `DIR/failscope.sqlite`) and its artifacts in `artifacts` (default: the folder `DIR/artifacts`), and
    /// applies pending migrations.
    ///
    /// - Throws: `MigrationError` when the database cannot be trusted or is newer than this binary,
    ///   `StoreError.unavailable` when it cannot be opened, `StoreError.invalid` for a PostgreSQL
    ///   database (not served yet), `SQLiteError` when WAL is refused, file system errors for the folder,
    ///   ``StoreError/storageFull(_:)`` when the disk is too full to open or migrate it.
    public convenience init(
        directory: URL, database: DatabaseLocation? = nil, artifacts: (any ArtifactStorage)? = nil,
        migrator: Migrator = Migrator(migrations: Migration.embedded), readerCount: Int = 4
    ) throws {
        do {
            try self.init(
                opening: directory, database: database, artifacts: artifacts, migrator: migrator,
                readerCount: readerCount)
        } catch {
            guard StoreError.storageFull(from: error, directory: directory) != nil else { throw error }
            throw StoreError.storageFull(
                "The disk holding the data folder is full: the database cannot be opened. Free some space, then "
                    + "start again.")
        }
    }

    private init(
        opening directory: URL, database: DatabaseLocation?, artifacts: (any ArtifactStorage)?, migrator: Migrator,
        readerCount: Int
    ) throws {
        let path: String
        switch database ?? .sqlite(in: directory) {
        case .sqlite(let file): path = file
        case .postgres:
            throw StoreError.invalid(
                "this failscope can migrate a PostgreSQL database but not yet serve one; use an SQLite --database")
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let storage = artifacts ?? ArtifactStore(root: directory.appendingPathComponent("artifacts"))
        if let folder = storage as? ArtifactStore {
            try FileManager.default.createDirectory(at: folder.root, withIntermediateDirectories: true)
        }
        self.directory = directory
        self.artifacts = storage
        databasePath = path
        let pool = try SQLiteError.translating { try DatabasePool(path: path, maximumReaderCount: readerCount) }
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

    /// Checks and applies the pending migrations of the database at `location` with that engine's embedded
    /// migrations (`Migrations/sqlite/`, `Migrations/postgres/`), creating an SQLite file when missing;
    /// returns the names applied and the newest migration's name.
    ///
    /// - Throws: `MigrationError` when the database cannot be trusted or is newer than this binary,
    ///   `StoreError.unavailable` when it cannot be reached.
    public static func migrate(_ location: DatabaseLocation) throws -> (applied: [String], version: String) {
        switch location {
        case .sqlite(let path):
            let pool = try SQLiteError.translating { try DatabasePool(path: path) }
            defer { pool.close() }
            let migrator = Migrator(migrations: Migration.embedded)
            return (try SQLiteError.translating { try pool.write { try migrator.migrate($0) } }, migrator.newest)
        case .postgres(let url):
            let database = try PostgresDatabase(url: url, maximumConnectionCount: 1)
            defer { database.close() }
            return (database.appliedMigrations, Migrator(migrations: PostgresDatabase.migrations).newest)
        }
    }

    /// Runs `body` with the one writer connection; SQLite's busy, full and I/O conditions leave as `StoreError`,
    /// a lack of disk space as ``StoreError/storageFull(_:)`` (through ``storing(_:)``).
    func write<T>(_ body: (Database) throws -> T) throws -> T {
        try storing { try SQLiteError.translating { try pool.write(body) } }
    }

    /// Whether the disk is full for the store: its last write failed for lack of space (and none has succeeded
    /// since), or the file system holding the data folder has no space left.
    public var isStorageFull: Bool {
        lastWriteFoundDiskFull.load(ordering: .relaxed) || StoreError.noSpaceLeft(directory)
    }

    /// Bytes still free for the store on the file system holding the data folder, or `nil` when unknown.
    public var freeStorageBytes: Int? { StoreError.freeBytes(directory) }

    /// Runs a write (`body`: the database's, or an artifact file's), turning a lack of disk space into
    /// ``StoreError/storageFull(_:)`` and keeping ``isStorageFull`` up to date.
    @discardableResult
    func storing<T>(_ body: () throws -> T) throws -> T {
        do {
            let value = try body()
            lastWriteFoundDiskFull.store(false, ordering: .relaxed)
            return value
        } catch {
            guard let full = StoreError.storageFull(from: error, directory: directory) else { throw error }
            lastWriteFoundDiskFull.store(true, ordering: .relaxed)
            throw full
        }
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
        [databasePath, databasePath + "-wal"].reduce(0) { total, path in
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
