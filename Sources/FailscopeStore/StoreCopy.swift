import FailscopeModel
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
        ("webhooks", "id, url, secret, source, created_at, events, branches"),
        (
            "webhook_deliveries",
            "id, webhook_id, event_id, event, ordering_key, payload, status, attempts, next_attempt_at, lease_owner, "
                + "lease_until, last_status_code, last_error, created_at, last_attempt_at, finished_at"
        ),
        ("webhook_run_checks", "run_id, request_id, due_at, lease_owner, lease_until"),
        ("webhook_test_states", "test_id, branch, state, run_id, changed_at"),
    ]

    /// Rows a statement of `copy` inserts: one JSON array, a few hundred kilobytes.
    static let copyRowsPerStatement = 2_000

    /// The statement timeout of `copy`'s connection. Its statements are bounded (a chunk of rows, a group of
    /// the summaries' rebuild) and take seconds; the limit only ends one that waits on something else (a lock
    /// held by a running service) far longer than that, instead of hanging.
    static let copyStatementTimeoutMilliseconds = 600_000

    /// Carries a whole SQLite store's rows (runs, tests, results and their details, artifact references, the
    /// quarantine and its audit log, the webhooks with their deliveries, pending checks and announced test
    /// states) into a migrated PostgreSQL database, then computes its flaky summaries there and moves its key
    /// sequences past the copied keys. Idempotent and resumable: a row the target already has (by its
    /// primary key) is left alone, so running it again after an interruption finishes the copy. The
    /// artifact files themselves stay where they are.
    ///
    /// Rows travel ``copyRowsPerStatement`` at a time as one JSON array of objects that PostgreSQL turns
    /// into rows of the table's own type (`json_populate_recordset`), each chunk committed by itself; the
    /// summaries are rebuilt once at the end, a bounded group of tests or days a transaction
    /// (`FlakySummaries.rebuildAll`), after `ANALYZE` of the copied tables. No step's work grows with the store.
    /// `progress` gets (table, rows read, rows in the table) after each chunk and at each table's end, and
    /// (``summaryProgressName``, groups done, groups) during the rebuild.
    ///
    /// - Throws: `StoreError.invalid` unless the source is SQLite and the target PostgreSQL,
    ///   `StoreError.unavailable` when either cannot be reached, `StoreError.timedOut` when a statement
    ///   outlives ``copyStatementTimeoutMilliseconds``, `MigrationError` when either is refused.
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
        let database = try PostgresDatabase(
            url: url, maximumConnectionCount: 1, statementTimeoutMilliseconds: copyStatementTimeoutMilliseconds)
        defer { database.close() }
        var report = CopyReport()
        for table in copiedTables {
            let (read, stored) = try copyRows(of: table, from: pool, to: database.pool, progress: progress)
            report.rowsRead[table.name] = read
            report.rowsStored[table.name] = stored
        }
        try database.pool.transaction { connection in
            // New rows get keys after the copied ones.
            for (table, column) in [
                ("results", "id"), ("tests", "key"), ("quarantine_entries", "id"), ("quarantine_changes", "id"),
                ("webhook_deliveries", "id"),
            ] {
                try connection.query(
                    """
                    SELECT setval(pg_get_serial_sequence('\(table)', '\(column)'), coalesce(max(\(column)), 0) + 1, false)
                    FROM \(table)
                    """)
            }
        }
        try database.pool.withConnection { connection in
            // Fresh statistics first: the rebuild's plans (and the service's) depend on them, and autovacuum
            // may not have looked at the new rows yet.
            try connection.execute("ANALYZE " + copiedTableNames.joined(separator: ", "))
            try FlakySummaries.rebuildAll(connection) { done, total in progress(summaryProgressName, done, total) }
            try connection.execute("ANALYZE " + FlakySummaries.tables.joined(separator: ", "))
        }
        return report
    }

    /// The name `copy` gives its summary rebuild in `progress`.
    public static let summaryProgressName = "flaky summaries"

    /// Copies the rows of `table` a chunk a statement; returns the rows read and the rows stored.
    private static func copyRows(
        of table: (name: String, columns: String), from source: DatabasePool, to target: PostgresPool,
        progress: (String, Int, Int) -> Void
    ) throws -> (read: Int, stored: Int) {
        let columns = table.columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        // Each object key once, escaped, with its colon: `"id":`.
        let keys = columns.map { column -> String in
            var writer = WireJSONWriter()
            writer.string(column)
            return String(decoding: writer.bytes, as: UTF8.self) + ":"
        }
        let insert = """
            INSERT INTO \(table.name) (\(table.columns)) OVERRIDING SYSTEM VALUE
            SELECT \(table.columns) FROM json_populate_recordset(NULL::\(table.name), CAST($1 AS json))
            ON CONFLICT DO NOTHING
            """
        let count = try SQLiteError.translating {
            try source.read { try $0.scalar("SELECT count(*) FROM \(table.name)").int ?? 0 }
        }
        var read = 0
        var stored = 0
        var chunk = WireJSONWriter()
        var chunkRows = 0
        func flush() throws {
            if chunkRows > 0 {
                chunk.raw("]")
                let json = String(decoding: chunk.bytes, as: UTF8.self)
                stored += try target.transaction { try $0.query(insert, [json]).changes }
            }
            chunk = WireJSONWriter(capacity: chunk.bytes.count)
            chunkRows = 0
            progress(table.name, read, count)
        }
        try SQLiteError.translating {
            try source.read { db in
                try db.withStatement("SELECT \(table.columns) FROM \(table.name)") { row in
                    while try row.step() {
                        chunk.raw(chunkRows == 0 ? "[{" : ",{")
                        for column in 0..<row.columnCount {
                            if column > 0 { chunk.comma() }
                            chunk.raw(keys[column])
                            appendJSON(row.value(column), to: &chunk)
                        }
                        chunk.raw("}")
                        chunkRows += 1
                        read += 1
                        if chunkRows == copyRowsPerStatement { try flush() }
                    }
                }
            }
        }
        try flush()
        return (read, stored)
    }

    /// `value` as the JSON `json_populate_recordset` reads into a column: numbers, strings, `null`, and
    /// a BLOB as `bytea`'s hex text (`\x0a1b…`).
    private static func appendJSON(_ value: SQLValue, to writer: inout WireJSONWriter) {
        switch value {
        case .null: writer.raw("null")
        case .integer(let integer): writer.raw(String(integer))
        case .real(let real): writer.number(real)
        case .text(let text): writer.string(text)
        case .blob(let bytes):
            let digits = Array("0123456789abcdef".utf8)
            var hex: [UInt8] = Array("\\x".utf8)
            for byte in bytes { hex += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
            writer.string(String(decoding: hex, as: UTF8.self))
        }
    }
}
