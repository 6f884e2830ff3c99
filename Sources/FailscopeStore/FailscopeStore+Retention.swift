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
        /// Database file size before and after `VACUUM`.
        public var databaseBytesBefore: Int
        public var databaseBytesAfter: Int
    }

    /// Retention: deletes runs that started more than `keepDays` days before `now` (with their
    /// results; the flaky summary tables are rebuilt from the remaining results), tests left without
    /// results, artifacts no result references (stored more than `grace` seconds ago, default an hour, so an
    /// upload whose result is on its way survives), stored bytes without a row (files or objects last modified
    /// more than `grace` ago) and stale temporary files, in whichever ``ArtifactStorage`` the store uses; then,
    /// with `vacuum`,
    /// `VACUUM` and a WAL checkpoint so the disk space is really returned (`VACUUM` holds the writer
    /// for its duration: the service's periodic sweep passes `false`; freed pages are reused).
    ///
    /// Rows go first, in one transaction; bytes after it commits, so a crash leaves at most orphan
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
        let doomed = try write { db in
            try db.transaction(.immediate) { () throws -> [(String, Int)] in
                report.resultsDeleted =
                    try db.scalar(
                        "SELECT count(*) FROM results WHERE run_id IN (SELECT id FROM runs WHERE started_at < ?)",
                        [cutoff]
                    ).int ?? 0
                try db.run("DELETE FROM runs WHERE started_at < ?", [cutoff])
                report.runsDeleted = db.changes
                // The flaky summaries are derived from results: recompute them from what is left.
                if report.runsDeleted > 0 { try FlakySummaries.rebuildAll(db) }
                try db.run("DELETE FROM tests WHERE NOT EXISTS (SELECT 1 FROM results r WHERE r.test_id = tests.id)")
                report.testsDeleted = db.changes
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
        try write { db in
            if vacuum { try db.execute("VACUUM") }
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        report.databaseBytesAfter = databaseByteCount()
        return report
    }
}
