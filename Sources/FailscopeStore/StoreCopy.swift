import Foundation

extension FailscopeStore {
    /// What `copy(from:to:progress:)` carried.
    public struct CopyReport: Sendable, Equatable {
        /// Rows read from the source, by table.
        public var rowsRead: [String: Int] = [:]
        /// Rows stored now (rows the target already had are left as they are).
        public var rowsStored: [String: Int] = [:]
    }

    /// The names of the tables `copy` carries, in the order it carries them.
    public static var copiedTableNames: [String] { copiedTables.map(\.name) }

    /// The tables `copy` carries, parents first, with their columns (the same in both engines' migrations).
    /// The flaky summaries are not carried: the target computes them from its results.
    static let copiedTables: [(name: String, columns: String)] = [
        (
            "runs",
            "id, project, branch, commit_sha, device, os_version, ci_provider, ci_build_url, ci_job, source, "
                + "started_at, finished_at, created_at, updated_at, status, result_count, passed_count, failed_count, "
                + "error_count, skipped_count, expected_failure_count, failing_test_count"
        ),
        ("tests", "id, project, suite, name, arguments, first_seen_at, key"),
        ("failure_signatures", "id, message, location"),
        (
            "results",
            "id, run_id, result_key, test_id, project, branch, commit_sha, device, reported_device, page, "
                + "call_site_file, call_site_line, attempt, status, skip_reason, started_at, ran_at, duration, "
                + "system_out, system_err, failure_signature"
        ),
        (
            "failures",
            "result_id, position, message, location_file, location_line, page, action, call_site_file, "
                + "call_site_line, element_x, element_y, element_width, element_height, is_error"
        ),
        (
            "trail_steps",
            "result_id, position, page, action, call_site_file, call_site_line, element_tree, target_x, target_y, "
                + "target_width, target_height, duration"
        ),
        ("result_pages", "result_id, position, page"),
        ("artifacts", "sha256, kind, byte_count, width, height, stored_at"),
        ("result_artifacts", "result_id, position, sha256, kind, byte_count, width, height"),
        (
            "quarantine_entries",
            "id, project, suite, name, arguments, page, device, owner, reason, expires_at, created_at, lifted_at, ends_at"
        ),
        ("quarantine_changes", "id, entry_id, action, role, actor, why, changed_at"),
    ]

    /// Carries a whole SQLite store's rows (runs, tests, results and their details, artifact references, the
    /// quarantine and its audit log)
    /// into a migrated PostgreSQL database, then computes its flaky summaries there and moves its key
    /// sequences past the copied keys. Idempotent and resumable: a row the target already has (by its
    /// primary key) is left alone, so running it again after an interruption finishes the copy. The
    /// artifact files themselves stay where they are. `progress` gets (table, rows read, rows in the table)
    /// every 1,000 rows and at each table's end.
    ///
    /// - Throws: `StoreError.invalid` unless the source is SQLite and the target PostgreSQL,
    ///   `StoreError.unavailable` when either cannot be reached, `MigrationError` when either is refused.
    public static func copy(
        from source: DatabaseLocation, to target: DatabaseLocation,
        progress: (_ table: String, _ done: Int, _ total: Int) -> Void = { _, _, _ in }
    ) throws -> CopyReport {
        guard case .sqlite(let path) = source, case .postgres(let url) = target else {
            throw StoreError.invalid(
                "copy carries an SQLite database (--from sqlite:PATH) into PostgreSQL (--to postgres://…)")
        }
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.invalid("no database at \(path)") }
        let pool = try SQLiteError.translating { try DatabasePool(path: path) }
        defer { pool.close() }
        // The source must be this binary's schema (a newer one is refused, an older one migrated first).
        _ = try SQLiteError.translating { try pool.write { try Migrator(migrations: Migration.embedded).migrate($0) } }
        let database = try PostgresDatabase(url: url, maximumConnectionCount: 1)
        defer { database.close() }
        var report = CopyReport()
        for table in copiedTables {
            let count = try SQLiteError.translating {
                try pool.read { try $0.scalar("SELECT count(*) FROM \(table.name)").int ?? 0 }
            }
            let placeholders = (1...table.columns.split(separator: ",").count).map { "$\($0)" }.joined(separator: ", ")
            let insert = """
                INSERT INTO \(table.name) (\(table.columns)) OVERRIDING SYSTEM VALUE VALUES (\(placeholders))
                ON CONFLICT DO NOTHING
                """
            var read = 0
            var stored = 0
            var batch: [[SQLValue]] = []
            func flush() throws {
                let rows = batch
                batch.removeAll(keepingCapacity: true)
                stored += try database.pool.transaction { connection in
                    try rows.reduce(0) { total, row in total + (try connection.query(insert, row).changes) }
                }
                progress(table.name, read, count)
            }
            try SQLiteError.translating {
                try pool.read { db in
                    try db.withStatement("SELECT \(table.columns) FROM \(table.name)") { row in
                        while try row.step() {
                            batch.append((0..<row.columnCount).map { row.value($0) })
                            read += 1
                            if batch.count == 1_000 { try flush() }
                        }
                    }
                }
            }
            try flush()
            report.rowsRead[table.name] = read
            report.rowsStored[table.name] = stored
        }
        try database.pool.transaction { connection in
            // New rows get keys after the copied ones.
            for (table, column) in [
                ("results", "id"), ("tests", "key"), ("quarantine_entries", "id"), ("quarantine_changes", "id"),
            ] {
                try connection.query(
                    """
                    SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'), coalesce(max(\(column)), 0) + 1, false)
                    FROM \(table)
                    """)
            }
            try FlakySummaries.rebuildAll(connection)
        }
        return report
    }
}
