import FailscopeModel
import Synchronization
import XCTest

@testable import FailscopeStore

final class DatabaseTests: XCTestCase {
    func testWriterIsWALWithNormalSyncForeignKeysAndBusyTimeout() throws {
        let folder = try makeTemporaryDirectory()
        let pool = try DatabasePool(path: folder.appendingPathComponent("t.sqlite").path)
        defer { pool.close() }
        try pool.write { db in
            XCTAssertEqual(try db.scalar("PRAGMA journal_mode").string, "wal")
            XCTAssertEqual(try db.scalar("PRAGMA synchronous").int, 1, "NORMAL is 1")
            XCTAssertEqual(try db.scalar("PRAGMA foreign_keys").int, 1)
            XCTAssertEqual(try db.scalar("PRAGMA busy_timeout").int, 5_000)
        }
    }

    func testAWriteThatFillsTheWALIsCheckpointedOnceTheWriterIsReleased() throws {
        let folder = try makeTemporaryDirectory()
        let path = folder.appendingPathComponent("t.sqlite").path
        let pool = try DatabasePool(path: path, checkpointFrames: 20)
        defer { pool.close() }
        try pool.write { try $0.execute("CREATE TABLE t (x BLOB)") }
        let before = try fileSize(path)
        try pool.write { db in
            // About 50 pages, so the WAL passes 20 frames in this one commit.
            for _ in 0..<50 { try db.run("INSERT INTO t VALUES (zeroblob(4000))") }
            // SQLite's own auto-checkpoint is off: nothing reaches the database file inside the write.
            XCTAssertEqual(try self.fileSize(path), before)
        }
        XCTAssertGreaterThan(try fileSize(path), before + 40 * 4096, "the pages were copied into the database file")
    }

    func testConcurrentWritesAndOverlappingReadsKeepTheWALBounded() throws {
        let folder = try makeTemporaryDirectory()
        let path = folder.appendingPathComponent("t.sqlite").path
        let pool = try DatabasePool(path: path, checkpointFrames: 20)
        defer { pool.close() }
        try pool.write { try $0.execute("CREATE TABLE t (x BLOB)") }
        let failures = Mutex(0)
        let writers = DispatchGroup()
        // 4 writers x 100 commits x 3 pages: 1,200 frames if nothing were checkpointed.
        DispatchQueue.global().async(group: writers) {
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<100 {
                    do {
                        try pool.write { db in
                            try db.transaction(.immediate) {
                                for _ in 0..<3 { try db.run("INSERT INTO t VALUES (zeroblob(4000))") }
                            }
                        }
                    } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
            }
        }
        // Reads overlapping the writes (the dashboard open while CI uploads) must not keep the WAL from
        // starting over.
        var reads = 0
        while writers.wait(timeout: .now()) == .timedOut {
            _ = try pool.read { try $0.scalar("SELECT count(*) FROM t") }
            reads += 1
        }
        XCTAssertGreaterThan(reads, 0)
        XCTAssertEqual(failures.withLock { $0 }, 0)
        XCTAssertEqual(try pool.read { try $0.scalar("SELECT count(*) FROM t").int }, 1_200)
        // At most 16 x 20 frames before the writer waits for the reads, plus one commit's frames, of 4 KiB pages.
        XCTAssertLessThan(try fileSize(path + "-wal"), (16 * 20 + 10) * (4096 + 24) + 32)
    }

    private func fileSize(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? -1
    }

    func testWALRefusedOnAnInMemoryDatabaseIsAnError() throws {
        // An in-memory database answers `memory` to `journal_mode = WAL`: the pool must refuse it.
        XCTAssertThrowsError(try DatabasePool(path: ":memory:")) { error in
            XCTAssertTrue("\(error)".contains("refused WAL"), "\(error)")
        }
    }

    func testErrorCarriesCodeMessageAndSQLButNotBoundValues() throws {
        let folder = try makeTemporaryDirectory()
        let pool = try DatabasePool(path: folder.appendingPathComponent("t.sqlite").path)
        defer { pool.close() }
        try pool.write { db in
            try db.execute("CREATE TABLE t (name TEXT UNIQUE NOT NULL)")
            try db.run("INSERT INTO t (name) VALUES (?)", ["secret-token-123"])
            XCTAssertThrowsError(try db.run("INSERT INTO t (name) VALUES (?)", ["secret-token-123"])) { error in
                let sqlError = error as? SQLiteError
                XCTAssertEqual(sqlError?.code, 2067, "SQLITE_CONSTRAINT_UNIQUE")
                XCTAssertEqual(sqlError?.isConstraintViolation, true)
                XCTAssertEqual(sqlError?.sql, "INSERT INTO t (name) VALUES (?)")
                XCTAssertTrue(sqlError?.message.contains("UNIQUE constraint failed") == true)
                XCTAssertFalse("\(error)".contains("secret-token-123"))
            }
            XCTAssertThrowsError(try db.run("SELEC 1")) { error in
                XCTAssertEqual((error as? SQLiteError)?.sql, "SELEC 1")
            }
            XCTAssertThrowsError(try db.run("INSERT INTO t (name) VALUES (?)", [])) { error in
                XCTAssertTrue("\(error)".contains("expected 1 bound values"))
            }
        }
    }

    func testValuesRoundTripIncludingEmptyTextNULAndUnicode() throws {
        let folder = try makeTemporaryDirectory()
        let pool = try DatabasePool(path: folder.appendingPathComponent("t.sqlite").path)
        defer { pool.close() }
        let texts = ["", "a\u{0}b", "Grüße 👋", "'); DROP TABLE t; --"]
        try pool.write { db in
            try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, v)")
            for text in texts { try db.run("INSERT INTO t (v) VALUES (?)", [text]) }
            try db.run("INSERT INTO t (v) VALUES (?)", [Optional<String>.none])
            try db.run("INSERT INTO t (v) VALUES (?)", [2.5])
            try db.run("INSERT INTO t (v) VALUES (?)", [Int64.max])
        }
        let values = try pool.read { db in try db.query("SELECT v FROM t ORDER BY id") { $0.value(0) } }
        XCTAssertEqual(values, texts.map(SQLValue.text) + [.null, .real(2.5), .integer(.max)])
    }

    func testReadersAreReadOnlyAndSeeCommittedWrites() throws {
        let folder = try makeTemporaryDirectory()
        let pool = try DatabasePool(path: folder.appendingPathComponent("t.sqlite").path, maximumReaderCount: 2)
        defer { pool.close() }
        try pool.write { try $0.execute("CREATE TABLE t (v INTEGER)") }
        try pool.write { try $0.run("INSERT INTO t (v) VALUES (?)", [7]) }
        XCTAssertEqual(try pool.read { try $0.scalar("SELECT sum(v) FROM t").int }, 7)
        XCTAssertThrowsError(try pool.read { try $0.run("INSERT INTO t (v) VALUES (1)") }) { error in
            XCTAssertEqual((error as? SQLiteError)?.primaryCode, 8, "SQLITE_READONLY")
        }
    }

    func testConcurrentReadersAndOneWriter() throws {
        let folder = try makeTemporaryDirectory()
        let pool = try DatabasePool(path: folder.appendingPathComponent("t.sqlite").path, maximumReaderCount: 3)
        defer { pool.close() }
        try pool.write { try $0.execute("CREATE TABLE t (v INTEGER)") }
        DispatchQueue.concurrentPerform(iterations: 16) { index in
            if index % 2 == 0 {
                _ = try? pool.write { db in try db.transaction { try db.run("INSERT INTO t (v) VALUES (?)", [index]) } }
            } else {
                _ = try? pool.read { try $0.scalar("SELECT count(*) FROM t") }
            }
        }
        XCTAssertEqual(try pool.read { try $0.scalar("SELECT count(*) FROM t").int }, 8)
    }

    func testClosedPoolThrows() throws {
        let folder = try makeTemporaryDirectory()
        let pool = try DatabasePool(path: folder.appendingPathComponent("t.sqlite").path)
        pool.close()
        XCTAssertThrowsError(try pool.write { try $0.execute("SELECT 1") })
        XCTAssertThrowsError(try pool.read { try $0.scalar("SELECT 1") })
    }
}
