import FailscopeModel
import Foundation
import Synchronization

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
    /// Whether the last write failed for lack of disk space (``StoreError/storageFull(_:)``); a write that
    /// succeeds clears it.
    private let lastWriteFoundDiskFull = Atomic<Bool>(false)

    /// The database file's name inside the data folder.
    public static let databaseFileName = "failscope.sqlite"

    /// Opens (creating when missing) the store in `directory` and applies pending migrations.
    ///
    /// - Throws: `MigrationError` when the database cannot be trusted or is newer than this binary,
    ///   `SQLiteError` when it cannot be opened or WAL is refused, file system errors for the folder.
    ///   ``StoreError/storageFull(_:)`` when the disk is too full to open or migrate it.
    public convenience init(
        directory: URL, migrator: Migrator = Migrator(migrations: Migration.embedded), readerCount: Int = 4
    ) throws {
        do {
            try self.init(opening: directory, migrator: migrator, readerCount: readerCount)
        } catch {
            guard StoreError.storageFull(from: error, directory: directory) != nil else { throw error }
            throw StoreError.storageFull(
                "The disk holding the data folder is full: the database cannot be opened. Free some space, then "
                    + "start again.")
        }
    }

    private init(opening directory: URL, migrator: Migrator, readerCount: Int) throws {
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

    /// Whether the disk is full for the store: its last write failed for lack of space (and none has succeeded
    /// since), or the file system holding the data folder has no space left.
    public var isStorageFull: Bool {
        lastWriteFoundDiskFull.load(ordering: .relaxed) || StoreError.noSpaceLeft(directory)
    }

    /// Bytes still free for the store on the file system holding the data folder, or `nil` when unknown.
    public var freeStorageBytes: Int? { StoreError.freeBytes(directory) }

    /// Runs a write (`body`), turning a lack of disk space into ``StoreError/storageFull(_:)`` and keeping
    /// ``isStorageFull`` up to date. Every ingest method writes through it.
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

    /// `pool.write(body)` through ``storing(_:)``.
    func storingWrite<T>(_ body: (Database) throws -> T) throws -> T {
        try storing { try pool.write(body) }
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
