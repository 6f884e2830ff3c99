import FailscopeModel
import Foundation

/// Quarantine (`Migrations/sqlite/0002_quarantine.sql`, README.md "Quarantine"): entries, their audit log, and the
/// SQL that decides, when results are read, whether an entry applied to a result.
extension FailscopeStore {
    /// Filters of `quarantine(_:)`.
    public struct QuarantineQuery: Sendable, Hashable {
        /// Only this project's entries.
        public var project: String?
        /// Also entries that expired or were lifted (default: only those that apply now).
        public var includeEnded: Bool

        public init(project: String? = nil, includeEnded: Bool = false) {
            self.project = project
            self.includeEnded = includeEnded
        }
    }

    /// Quarantines a test; records the change (`role`, the request's `actor` or else its `owner`, its `reason`).
    ///
    /// - Throws: `StoreError.invalid` (a text breaks the rules of ``QuarantineRequest``, the expiry is not a
    ///   `YYYY-MM-DD` date of today or later), `.notFound(kind: "project")` when no run of the project was ever
    ///   stored, `.conflict` when an active entry of the same test, arguments, page and device exists (edit it
    ///   instead), `.busy` / `.unavailable` / `.storageFull`.
    public func addQuarantine(
        _ request: QuarantineRequest, role: QuarantineEntry.Change.Role, now: Date = Date()
    ) throws -> QuarantineEntry {
        try Self.checkIdentity(request)
        try Self.checkHumanText([("owner", request.owner), ("reason", request.reason), ("actor", request.actor)])
        let expiresAt = try Self.expiry(request.expires, now: now)
        let nowMs = Timestamp.milliseconds(now)
        let scope: [any SQLBindable] = [
            request.project, request.suite, request.name, Self.nonEmpty(request.arguments),
            Self.nonEmpty(request.page), Self.nonEmpty(request.device),
        ]
        let id = try write { db in
            try db.transaction { () throws -> Int in
                guard
                    try db.queryFirst(
                        "SELECT 1 FROM runs WHERE project = ? LIMIT 1", [request.project], row: { _ in 1 })
                        != nil
                else { throw StoreError.notFound(kind: "project", id: request.project) }
                let existing = try db.queryFirst(
                    """
                    SELECT id FROM quarantine_entries
                    WHERE project = ? AND suite = ? AND name = ? AND coalesce(arguments, '') = coalesce(?, '')
                        AND coalesce(page, '') = coalesce(?, '') AND coalesce(device, '') = coalesce(?, '')
                        AND ends_at > ?
                    """, scope + [nowMs], row: { $0.int(0) })
                if let existing {
                    throw StoreError.conflict(
                        "quarantine entry \(existing) already applies to this test; edit or lift it instead")
                }
                guard
                    let id = try db.queryFirst(
                        """
                        INSERT INTO quarantine_entries (project, suite, name, arguments, page, device, owner, reason,
                            expires_at, created_at, ends_at)
                        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
                        """, scope + [request.owner, request.reason, expiresAt, nowMs, expiresAt], row: { $0.int(0) })
                else { throw StoreError.unavailable("the new quarantine entry got no id") }
                try Self.recordChange(
                    db, entry: id, action: .added, role: role, actor: request.actor ?? request.owner,
                    why: request.reason, at: nowMs)
                return id
            }
        }
        guard let entry = try quarantineEntry(id, now: now) else {
            throw StoreError.notFound(kind: "quarantine", id: "\(id)")
        }
        return entry
    }

    /// Changes an active entry's owner, reason and expiry; records the change with `edit.why` and `edit.actor`
    /// (empty when not given: the audit log never names someone who did not say they acted).
    ///
    /// - Throws: `StoreError.notFound(kind: "quarantine")`, `.conflict` for an entry that no longer applies (it is
    ///   history: quarantine the test anew), `.invalid` as ``addQuarantine(_:role:now:)``.
    public func editQuarantine(
        _ id: Int, _ edit: QuarantineEdit, role: QuarantineEntry.Change.Role, now: Date = Date()
    ) throws -> QuarantineEntry {
        try Self.checkHumanText([
            ("owner", edit.owner), ("reason", edit.reason), ("why", edit.why), ("actor", edit.actor),
        ])
        let expiresAt = try Self.expiry(edit.expires, now: now)
        let nowMs = Timestamp.milliseconds(now)
        try write { db in
            try db.transaction {
                try Self.requireActive(db, id, at: nowMs)
                try db.run(
                    "UPDATE quarantine_entries SET owner = ?, reason = ?, expires_at = ?, ends_at = ? WHERE id = ?",
                    [edit.owner, edit.reason, expiresAt, expiresAt, id])
                try Self.recordChange(
                    db, entry: id, action: .edited, role: role, actor: edit.actor ?? "", why: edit.why, at: nowMs)
            }
        }
        guard let entry = try quarantineEntry(id, now: now) else {
            throw StoreError.notFound(kind: "quarantine", id: "\(id)")
        }
        return entry
    }

    /// Ends an active entry now (results from now on are not quarantined by it; earlier ones stay so); records
    /// the change with `lift.why` and `lift.actor` (empty when not given).
    ///
    /// - Throws: `StoreError.notFound(kind: "quarantine")`, `.conflict` for an entry that no longer applies,
    ///   `.invalid` for a text that breaks the rules.
    public func liftQuarantine(
        _ id: Int, _ lift: QuarantineLift, role: QuarantineEntry.Change.Role, now: Date = Date()
    ) throws -> QuarantineEntry {
        try Self.checkHumanText([("why", lift.why), ("actor", lift.actor)])
        let nowMs = Timestamp.milliseconds(now)
        try write { db in
            try db.transaction {
                try Self.requireActive(db, id, at: nowMs)
                try db.run("UPDATE quarantine_entries SET lifted_at = ?, ends_at = ? WHERE id = ?", [nowMs, nowMs, id])
                try Self.recordChange(
                    db, entry: id, action: .lifted, role: role, actor: lift.actor ?? "", why: lift.why, at: nowMs)
            }
        }
        guard let entry = try quarantineEntry(id, now: now) else {
            throw StoreError.notFound(kind: "quarantine", id: "\(id)")
        }
        return entry
    }

    /// One entry with its audit log, or `nil`.
    public func quarantineEntry(_ id: Int, now: Date = Date()) throws -> QuarantineEntry? {
        try read { db in
            try Self.entries(db, where: "e.id = ?", [id], now: Timestamp.milliseconds(now)).first
        }
    }

    /// Entries newest first (by creation, then id), each with its audit log.
    ///
    /// - Throws: `StoreError.invalid` for a project longer than the text limit, `.busy` / `.unavailable`.
    public func quarantine(_ query: QuarantineQuery, now: Date = Date()) throws -> QuarantineList {
        let nowMs = Timestamp.milliseconds(now)
        var conditions: [String] = []
        var values: [any SQLBindable] = []
        if let project = query.project {
            try Self.checkText(project, field: "project", required: true)
            conditions.append("e.project = ?")
            values.append(project)
        }
        if !query.includeEnded {
            conditions.append("e.ends_at > ?")
            values.append(nowMs)
        }
        let condition = conditions.isEmpty ? "1 = 1" : conditions.joined(separator: " AND ")
        return QuarantineList(entries: try read { db in try Self.entries(db, where: condition, values, now: nowMs) })
    }

    // MARK: Queries of results and runs

    /// `1` when a quarantine entry applied to the result `r` (of test `t`) when it ran, else `0`: one search of
    /// `quarantine_entries_by_test` a result.
    static let quarantinedResultColumn = """
        CASE WHEN EXISTS (SELECT 1 FROM quarantine_entries q
            WHERE q.project = t.project AND q.suite = t.suite AND q.name = t.name
                AND q.created_at <= r.ran_at AND q.ends_at > r.ran_at
                AND (q.arguments IS NULL OR q.arguments = t.arguments)
                AND (q.page IS NULL OR q.page = r.page) AND (q.device IS NULL OR q.device = r.device))
        THEN 1 ELSE 0 END
        """

    /// The failing tests of the run `runs` (as `failing_test_count` counts them: a test and device whose last
    /// attempt failed or errored) whose last attempt was quarantined. Computed only for a run with failing tests
    /// in a project with an entry that ended after the run started; then in one pass over the run's results (by
    /// run id), as the ingest counts `failing_test_count`.
    static let forgivenFailingTestsColumn = """
        CASE WHEN runs.failing_test_count = 0 OR NOT EXISTS (SELECT 1 FROM quarantine_entries p
            WHERE p.project = runs.project AND p.ends_at > runs.started_at) THEN 0
        ELSE (SELECT count(*) FROM (
            SELECT max(r.attempt * 2 + CASE WHEN r.status IN ('failed', 'error') THEN 1 ELSE 0 END) AS last_attempt,
                max(CASE WHEN r.status IN ('failed', 'error') AND \(quarantinedResultColumn) = 1
                    THEN r.attempt * 2 + 1 ELSE 0 END) AS forgiven_attempt
            FROM results r JOIN tests t ON t.id = r.test_id
            WHERE r.run_id = runs.id GROUP BY r.test_id, r.device
        ) AS run_tests WHERE run_tests.last_attempt % 2 = 1 AND run_tests.forgiven_attempt = run_tests.last_attempt) END
        """

    // MARK: Rows

    private static func entries(_ db: any SQLConnection, where condition: String, _ values: [any SQLBindable], now: Int64)
        throws -> [QuarantineEntry]
    {
        var entries = try db.query(
            """
            SELECT e.id, e.project, e.suite, e.name, e.arguments, e.page, e.device, e.owner, e.reason, e.expires_at,
                e.created_at, e.lifted_at, e.ends_at
            FROM quarantine_entries e WHERE \(condition)
            ORDER BY e.created_at DESC, e.id DESC
            """, values
        ) { row in
            let endsAt = row.int64(12)
            let liftedAt = row.isNull(11) ? nil : row.int64(11)
            let state: QuarantineEntry.State =
                endsAt > now ? .active : liftedAt.map { $0 == endsAt } == true ? .lifted : .expired
            return QuarantineEntry(
                id: row.int(0), project: row.string(1), suite: row.string(2), name: row.string(3),
                arguments: row.optionalString(4), page: row.optionalString(5), device: row.optionalString(6),
                owner: row.string(7), reason: row.string(8),
                expires: QuarantineEntry.dayText(Timestamp.date(row.int64(9) - FlakySummaries.millisecondsPerDay)),
                createdAt: Timestamp.date(row.int64(10)), liftedAt: liftedAt.map(Timestamp.date),
                endsAt: Timestamp.date(endsAt), state: state, changes: [])
        }
        for index in entries.indices {
            entries[index].changes = try db.query(
                """
                SELECT action, role, actor, why, changed_at FROM quarantine_changes WHERE entry_id = ? ORDER BY id
                """, [entries[index].id]
            ) { row in
                QuarantineEntry.Change(
                    action: QuarantineEntry.Change.Action(rawValue: row.string(0)) ?? .edited,
                    role: QuarantineEntry.Change.Role(rawValue: row.string(1)) ?? .upload, actor: row.string(2),
                    why: row.string(3), at: Timestamp.date(row.int64(4)))
            }
        }
        return entries
    }

    private static func recordChange(
        _ db: any SQLConnection, entry: Int, action: QuarantineEntry.Change.Action, role: QuarantineEntry.Change.Role,
        actor: String, why: String, at time: Int64
    ) throws {
        try db.run(
            "INSERT INTO quarantine_changes (entry_id, action, role, actor, why, changed_at) VALUES (?, ?, ?, ?, ?, ?)",
            [entry, action.rawValue, role.rawValue, actor, why, time])
    }

    /// Throws unless entry `id` exists and applies at `time`.
    private static func requireActive(_ db: any SQLConnection, _ id: Int, at time: Int64) throws {
        guard
            let endsAt = try db.queryFirst(
                "SELECT ends_at FROM quarantine_entries WHERE id = ?", [id], row: { $0.int64(0) })
        else { throw StoreError.notFound(kind: "quarantine", id: "\(id)") }
        guard endsAt > time else {
            throw StoreError.conflict("quarantine entry \(id) has expired or was lifted; quarantine the test anew")
        }
    }

    // MARK: Rules

    /// The exclusive end, in milliseconds, of the expiry day `text` (`YYYY-MM-DD`, UTC), which must be today or later.
    private static func expiry(_ text: String, now: Date) throws(StoreError) -> Int64 {
        guard let day = QuarantineEntry.day(text) else {
            throw .invalid("expires must be a date YYYY-MM-DD, got \"\(text.prefix(40))\"")
        }
        let end = Timestamp.milliseconds(day) + FlakySummaries.millisecondsPerDay
        guard end > Timestamp.milliseconds(now) else {
            throw .invalid("expires \(text) is in the past; the last day of a quarantine is today or later")
        }
        guard day <= now.addingTimeInterval(366 * 86_400) else {
            throw .invalid("expires must lie within a year from today, got \(text)")
        }
        return end
    }

    /// The test's names follow the ingest rules, so an entry can match what results store.
    private static func checkIdentity(_ request: QuarantineRequest) throws(StoreError) {
        try checkText(request.project, field: "project", required: true)
        try checkText(request.suite, field: "suite", required: true)
        try checkText(request.name, field: "name", required: true)
        for (field, value) in [("arguments", request.arguments), ("page", request.page), ("device", request.device)] {
            if let value { try checkText(value, field: field, required: false) }
        }
    }

    private static func checkHumanText(_ fields: [(String, String?)]) throws(StoreError) {
        for (field, value) in fields {
            if let value, let problem = QuarantineRequest.problem(ofText: value, field: field) {
                throw .invalid(problem)
            }
        }
    }

    private static func nonEmpty(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }
}
