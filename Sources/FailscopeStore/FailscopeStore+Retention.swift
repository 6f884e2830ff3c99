import FailscopeModel
import Foundation

extension FailscopeStore {
    /// What `collectGarbage` removed.
    public struct GarbageReport: Sendable, Equatable, Codable {
        public var runsDeleted: Int
        public var resultsDeleted: Int
        public var testsDeleted: Int
        public var artifactsDeleted: Int
        /// Bytes of artifact files removed (rows and orphan files).
        public var artifactBytesFreed: Int
        /// Database file size before and after `VACUUM`.
        public var databaseBytesBefore: Int
        public var databaseBytesAfter: Int
    }

    /// Retention: deletes runs that started more than `keepDays` days before `now` (with their
    /// results; the flaky summary tables are rebuilt from the remaining results), tests left without
    /// results, artifacts no result references (stored more than an hour ago, so an upload whose result
    /// is on its way survives), orphan artifact files and stale temporary files; then, with `vacuum`,
    /// `VACUUM` and a WAL checkpoint so the disk space is really returned (`VACUUM` holds the writer
    /// for its duration: the service's periodic sweep passes `false`; freed pages are reused).
    ///
    /// Rows go first, in one transaction; files after it commits, so a crash leaves at most orphan
    /// files, which the next collection removes.
    /// - Throws: `StoreError.invalid` for `keepDays < 1`, `.busy` / `.unavailable` / `.storageFull`.
    public func collectGarbage(keepDays: Int, now: Date = Date(), vacuum: Bool = true) throws -> GarbageReport {
        guard keepDays >= 1 else { throw StoreError.invalid("--keep-days must be at least 1") }
        let cutoff = Timestamp.milliseconds(now.addingTimeInterval(-Double(keepDays) * 86_400))
        let graceCutoff = Timestamp.milliseconds(now.addingTimeInterval(-3_600))
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
        for (sha256, bytes) in doomed {
            artifacts.remove(sha256: sha256)
            report.artifactsDeleted += 1
            report.artifactBytesFreed += bytes
        }
        // Files without a row: left by a crash between writing the file and its row, or by the loop above.
        let (digests, temporaries) = artifacts.storedDigests()
        let known = Set(
            try read { db in try db.query("SELECT sha256 FROM artifacts") { $0.string(0) } })
        let graceDate = now.addingTimeInterval(-3_600)
        for sha256 in digests where !known.contains(sha256) {
            let url = artifacts.fileURL(sha256: sha256)
            guard Self.modificationDate(url) ?? .distantPast < graceDate else { continue }
            report.artifactBytesFreed += Self.fileSize(url)
            artifacts.remove(sha256: sha256)
            report.artifactsDeleted += 1
        }
        for temporary in temporaries where Self.modificationDate(temporary) ?? .distantPast < graceDate {
            try? FileManager.default.removeItem(at: temporary)
        }
        try write { db in
            if vacuum { try db.execute("VACUUM") }
            try db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        }
        report.databaseBytesAfter = databaseByteCount()
        return report
    }

    private static func modificationDate(_ url: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
    }

    private static func fileSize(_ url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int) ?? 0
    }
}
