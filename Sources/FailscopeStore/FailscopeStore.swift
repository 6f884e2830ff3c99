import FailscopeModel
import Foundation
import Synchronization

/// Failscope's storage, the one interface the service, the CLI and the importers use: runs, results
/// and their history (ingest and queries), pages and flaky tests, retention and health, plus the
/// artifact files under `DIR/artifacts/`.
///
/// Two engines behind it, chosen by ``DatabaseLocation``: SQLite (the default, `DIR/failscope.sqlite` or
/// another file: WAL, one writer, read-only readers) and PostgreSQL (a libpq URI: a pool of connections,
/// writers on several machines at once, transactions run again after a serialization failure or a
/// deadlock). Nothing in this type's public surface names the engine; its SQL is written once for both
/// (``SQLConnection``, ``SQLDialect``). Opening migrates the database with that engine's embedded
/// migrations (or refuses it: `MigrationError`). Ingest methods validate, then write one transaction
/// each; read methods return the shared API types of `FailscopeModel/API`. Every error that leaves a
/// method is a `StoreError` (`busy`, `unavailable`, `storageFull` for the database's conditions),
/// a `MigrationError` when opening, or, for a bug or a damaged database, an engine error (a 500).
/// Every method is safe to call from any thread.
public final class FailscopeStore: Sendable {
    /// The data folder.
    public let directory: URL
    /// The database and its connections.
    let engine: Engine
    /// Where artifact bytes are stored: the folder `DIR/artifacts` unless another storage was given.
    public let artifacts: any ArtifactStorage
    /// Migrations applied by this open (empty when the database was up to date).
    public let appliedMigrations: [String]
    /// Whether the last write failed for lack of disk space (``StoreError/storageFull(_:)``); a write that
    /// succeeds clears it.
    private let lastWriteFoundDiskFull = Atomic<Bool>(false)

    /// The database file's name inside the data folder.
    public static let databaseFileName = "failscope.sqlite"

    /// The connections of one engine.
    enum Engine: Sendable {
        case sqlite(DatabasePool)
        case postgres(PostgresDatabase)
    }

    /// The SQLite connections: for the store's own benchmarks, which load and measure the engine directly.
    ///
    /// - Precondition: the store is on SQLite.
    @_spi(Engine) public var pool: DatabasePool {
        guard case .sqlite(let pool) = engine else { preconditionFailure("the store is on PostgreSQL, not SQLite") }
        return pool
    }

    /// The engine's spellings (which engine the store is on).
    @_spi(Engine) public var dialect: SQLDialect {
        switch engine {
        case .sqlite: .sqlite
        case .postgres: .postgres
        }
    }

    /// Opens (creating when missing) the store in `directory`, with its database at `database` (default:
    /// `DIR/failscope.sqlite`) and its artifacts in `artifacts` (default: the folder `DIR/artifacts`), and
    /// applies pending migrations.
    ///
    /// - Throws: `MigrationError` when the database cannot be trusted or is newer than this binary,
    ///   `StoreError.unavailable` when it cannot be opened or reached, `SQLiteError` when WAL is refused,
    ///   file system errors for the folder, ``StoreError/storageFull(_:)`` when the disk is too full to open
    ///   or migrate it.
    public convenience init(
        directory: URL, database: DatabaseLocation? = nil, artifacts: (any ArtifactStorage)? = nil,
        migrator: Migrator? = nil, readerCount: Int = 4
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
        opening directory: URL, database: DatabaseLocation?, artifacts: (any ArtifactStorage)?, migrator: Migrator?,
        readerCount: Int
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let storage = artifacts ?? ArtifactStore(root: directory.appendingPathComponent("artifacts"))
        if let folder = storage as? ArtifactStore {
            try FileManager.default.createDirectory(at: folder.root, withIntermediateDirectories: true)
        }
        self.directory = directory
        self.artifacts = storage
        switch database ?? .sqlite(in: directory) {
        case .sqlite(let path):
            let pool = try SQLiteError.translating { try DatabasePool(path: path, maximumReaderCount: readerCount) }
            do {
                let migrator = migrator ?? Migrator(migrations: Migration.embedded)
                self.appliedMigrations = try SQLiteError.translating {
                    try pool.write { writer in
                        // flaky_summaries.sql's aggregate, on the one connection that computes summaries.
                        try FlakySummaries.registerFunctions(writer)
                        return try migrator.migrate(writer)
                    }
                }
            } catch {
                pool.close()
                throw error
            }
            engine = .sqlite(pool)
        case .postgres(let url):
            let database = try PostgresDatabase(
                url: url, migrator: migrator ?? Migrator(migrations: PostgresDatabase.migrations),
                maximumConnectionCount: max(readerCount * 2, 4))
            appliedMigrations = database.appliedMigrations
            engine = .postgres(database)
        }
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

    /// Runs `body` with a writing connection (SQLite: the one writer; PostgreSQL: a pooled connection
    /// inside a transaction, run again from the start after a serialization failure or a deadlock, so
    /// `body` must have no effect outside the database). The engine's busy, full and unreachable conditions
    /// leave as `StoreError`, a lack of disk space as ``StoreError/storageFull(_:)`` (through ``storing(_:)``).
    @_spi(Engine) public func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        try storing {
            switch engine {
            case .sqlite(let pool): try SQLiteError.translating { try pool.write(body) }
            case .postgres(let database): try database.pool.transaction { try body($0) }
            }
        }
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

    /// Runs `body` with a reading connection in one snapshot (SQLite: a read-only reader's deferred
    /// transaction; PostgreSQL: a `REPEATABLE READ, READ ONLY` transaction); the engine's busy and
    /// unreachable conditions leave as `StoreError`.
    @_spi(Engine) public func read<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        switch engine {
        case .sqlite(let pool): try SQLiteError.translating { try pool.read(body) }
        case .postgres(let database): try database.pool.transaction(.snapshot) { try body($0) }
        }
    }

    /// Checks that the database answers now (`/healthz`).
    ///
    /// - Throws: `StoreError.unavailable` or `.busy` when it does not.
    public func checkHealth() throws {
        guard try read({ try $0.scalar("SELECT 1").int }) == 1 else {
            throw StoreError.unavailable("the health query returned no row")
        }
    }

    /// Checkpoints the WAL (SQLite) and closes every connection; later calls throw.
    public func close() {
        switch engine {
        case .sqlite(let pool): pool.close()
        case .postgres(let database): database.close()
        }
    }

    /// Bytes the database uses on disk (SQLite: the database file and its WAL; PostgreSQL:
    /// `pg_database_size`, 0 when the server cannot be asked).
    public func databaseByteCount() -> Int {
        switch engine {
        case .sqlite(let pool):
            return [pool.path, pool.path + "-wal"].reduce(0) { total, path in
                let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int
                return total + (size ?? 0)
            }
        case .postgres:
            return ((try? read { try $0.scalar("SELECT pg_database_size(current_database())").int }) ?? nil) ?? 0
        }
    }

    /// The engine's consistency check (SQLite: `PRAGMA integrity_check`; PostgreSQL checks its pages itself
    /// and answers `["ok"]` when it can be read); returns `["ok"]` for a sound database, else the findings.
    public func integrityCheck() throws -> [String] {
        switch engine {
        case .sqlite: try read { try $0.query("PRAGMA integrity_check") { $0.string(0) } }
        case .postgres: try read { try $0.query("SELECT 'ok'") { $0.string(0) } }
        }
    }
}
