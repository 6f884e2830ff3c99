import FailscopeModel
import Foundation

extension FailscopeStore {
    /// How long unreferenced artifacts are kept after they were stored, seconds (one hour): an upload whose
    /// result is still on its way is never collected.
    public static let defaultArtifactGrace: TimeInterval = 3_600

    /// What `collectGarbage` removed.
    public struct GarbageReport: Sendable, Equatable, Codable {
        public var runsDeleted: Int
        public var resultsDeleted: Int
        public var testsDeleted: Int
        /// Artifacts removed from the artifact storage (files or objects), referenced by a deleted row or by none.
        public var artifactsDeleted: Int
        /// Bytes of artifacts removed.
        public var artifactBytesFreed: Int
        /// Database size before and after (SQLite: the file and its WAL, after `VACUUM`; PostgreSQL:
        /// `pg_database_size`, whose freed pages its autovacuum reuses).
        public var databaseBytesBefore: Int
        public var databaseBytesAfter: Int
    }

    /// Retention: deletes runs that started more than `keepDays` days before `now` (with their
    /// results, ``runsPerCollection`` runs a transaction; the flaky summary rows of their tests and days are
    /// computed again from the remaining results), tests left without results, artifacts no result references
    /// (stored more than `grace` seconds ago, default an hour, so an upload whose result is on its way
    /// survives), stored bytes without a row (files or objects last modified more than `grace` ago) and stale
    /// temporary files, in whichever ``ArtifactStorage`` the store uses; then, on SQLite with `vacuum`,
    /// `VACUUM` and a WAL checkpoint so the disk space is really returned (`VACUUM` holds the writer
    /// for its duration: the service's periodic sweep passes `false`; freed pages are reused).
    ///
    /// Rows go first, in transactions; bytes after they commit, so a crash leaves at most orphan
    /// bytes, which the next collection removes.
    /// - Throws: `StoreError.invalid` for `keepDays < 1` or a negative `grace`, `.busy` / `.unavailable` /
    ///   `.storageFull`; ``ArtifactStorageError`` when the artifact storage fails (rows already deleted stay
    ///   deleted; their bytes are collected as orphans next time).
    public func collectGarbage(
        keepDays: Int, now: Date = Date(), grace: TimeInterval = defaultArtifactGrace, vacuum: Bool = true
    ) throws -> GarbageReport {
        guard keepDays >= 1 else { throw StoreError.invalid("--keep-days must be at least 1") }
        guard grace >= 0 else { throw StoreError.invalid("the grace period cannot be negative") }
        let cutoff = Timestamp.milliseconds(now.addingTimeInterval(-Double(keepDays) * 86_400))
        let graceCutoff = Timestamp.milliseconds(now.addingTimeInterval(-grace))
        let before = databaseByteCount()
        var report = GarbageReport(
            runsDeleted: 0, resultsDeleted: 0, testsDeleted: 0, artifactsDeleted: 0, artifactBytesFreed: 0,
            databaseBytesBefore: before, databaseBytesAfter: before)
        // Old runs in batches, each in its own transaction with the summaries of its tests and days computed
        // again, so a large collection never holds the writer (or a PostgreSQL transaction) for long.
        while true {
            let batch = try write { db in
                try db.transaction { () throws -> (runs: Int, results: Int) in
                    var ids = BatchRows()
                    for id in try db.query(
                        "SELECT id FROM runs WHERE started_at < ? ORDER BY started_at, id LIMIT ?",
                        [cutoff, Self.runsPerCollection], row: { $0.string(0) })
                    {
                        ids.append([.text(id)])
                    }
                    guard !ids.isEmpty else { return (0, 0) }
                    let inBatch = "run_id IN (SELECT (j.value ->> 0) FROM \(db.dialect.jsonArrayRows("?1", as: "j")))"
                    let tests = try db.query("SELECT DISTINCT test_id FROM results WHERE \(inBatch)", [ids.json]) {
                        $0.string(0)
                    }
                    let days = try db.query(
                        "SELECT DISTINCT project, ran_at / 86400000 FROM results WHERE \(inBatch)", [ids.json]
                    ) { FlakySummaries.PageDay(project: $0.string(0), day: $0.int64(1)) }
                    let results = try db.scalar("SELECT count(*) FROM results WHERE \(inBatch)", [ids.json]).int ?? 0
                    let runs = try db.run(
                        "DELETE FROM runs WHERE id IN (SELECT (j.value ->> 0) FROM \(db.dialect.jsonArrayRows("?1", as: "j")))",
                        [ids.json])
                    // The flaky summaries are derived from results: those of the deleted results' tests and days
                    // are computed again from what is left.
                    try FlakySummaries.recompute(db, tests: tests, days: days)
                    return (runs, results)
                }
            }
            guard batch.runs > 0 else { break }
            report.runsDeleted += batch.runs
            report.resultsDeleted += batch.results
        }
        let doomed = try write { db in
            try db.transaction { () throws -> [(String, Int)] in
                report.testsDeleted = try db.run(
                    "DELETE FROM tests WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.test_id = tests.id)")
                let doomed = try db.query(
                    """
                    SELECT sha256, byte_count FROM artifacts
                    WHERE stored_at < ? AND NOT EXISTS (SELECT 1 FROM result_artifacts ra WHERE ra.sha256 = artifacts.sha256)
                    """, [graceCutoff]
                ) { ($0.string(0), $0.int(1)) }
                for (sha256, _) in doomed {
                    try db.run("DELETE FROM artifacts WHERE sha256 = ?", [sha256])
                }
                return doomed
            }
        }
        try artifacts.remove(sha256s: doomed.map(\.0))
        report.artifactsDeleted += doomed.count
        report.artifactBytesFreed += doomed.reduce(0) { $0 + $1.1 }
        // Bytes without a row: left by a crash (or a failed request) between storing the bytes and their row, or
        // by the loop above. The listing comes before the rows are read, so bytes whose row is on its way are
        // either newer than the grace period or already named by a row.
        let graceDate = now.addingTimeInterval(-grace)
        let stored = try artifacts.list()
        let known = Set(
            try read { db in try db.query("SELECT sha256 FROM artifacts") { $0.string(0) } })
        let orphans = stored.filter { !known.contains($0.sha256) && $0.lastModified < graceDate }
        try artifacts.remove(sha256s: orphans.map(\.sha256))
        report.artifactsDeleted += orphans.count
        report.artifactBytesFreed += orphans.reduce(0) { $0 + $1.byteCount }
        artifacts.removeLeftovers(before: graceDate)
        if case .sqlite = engine {
            try write { db in
                if vacuum { try db.execute("VACUUM") }
                try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        report.databaseBytesAfter = databaseByteCount()
        return report
    }

    /// Runs deleted in one transaction of ``collectGarbage(keepDays:now:grace:vacuum:)``.
    static let runsPerCollection = 200
}
