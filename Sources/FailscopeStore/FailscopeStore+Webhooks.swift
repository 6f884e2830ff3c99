import FailscopeModel
import Foundation

/// Webhooks' storage (`Migrations/*/0004_webhooks.sql`): the webhooks, a durable outbox of deliveries, the finished
/// runs waiting to be announced and each test's last announced state.
///
/// The finish of a run costs ingest one statement (``scheduleWebhookCheck(runID:dueAt:)``); everything else runs in
/// the service's delivery worker. Claims (``claimWebhookChecks(owner:now:leaseUntil:limit:)``,
/// ``claimWebhookDeliveries(owner:now:leaseUntil:limit:)``) are conditional UPDATEs that take rows only when no
/// unexpired lease holds them, so several service processes on one database never work on the same row at once.
/// Statements are plain SQL with `?` placeholders that both engines accept.
extension FailscopeStore {
    /// What a finished run's evaluation produced before it is rendered for the wire: the event's id, type and
    /// time, the run and, for a test event, the test's change.
    public struct WebhookEventDraft: Sendable, Hashable {
        public var id: String
        public var type: WebhookEventType
        public var createdAt: Date
        public var run: RunSummary
        public var test: WebhookTestChange?

        /// The branch a ``WebhookFilter`` matches: the test's for a test event, else the run's (`""` for none).
        public var branch: String { test?.branch ?? run.run.branch ?? "" }
    }

    /// A test whose announced state changed on a branch.
    public struct WebhookTestChange: Sendable, Hashable {
        public var test: TestIdentity
        public var branch: String
        public var state: WebhookTestState
        public var previousState: WebhookTestState
        /// Why it is flaky (state `flaky` only).
        public var reasons: [FlakyReason]
    }

    /// A claimed delivery, with what sending it needs: the receiver's URL and secret (never shown elsewhere).
    public struct WebhookDeliveryJob: Sendable, Hashable {
        public var id: Int
        public var webhookID: String
        public var url: String
        public var secret: String
        public var eventID: String
        public var event: WebhookEventType
        /// The exact body to send and sign.
        public var payload: String
        /// Attempts including this one.
        public var attempts: Int
        /// When the event was made (the payload's `createdAt`).
        public var createdAt: Date
    }

    /// The outcome of one delivery attempt.
    public enum WebhookAttemptOutcome: Sendable, Hashable {
        /// The receiver answered 2xx.
        case delivered(statusCode: Int)
        /// It answered otherwise or not at all; `retryAt` is the next attempt's time, `nil` to give up.
        case failed(statusCode: Int?, error: String, retryAt: Date?)
        /// The worker stopped before an answer: the delivery is due again at once, the attempt stays counted.
        case interrupted
    }

    // MARK: Webhooks

    /// Makes the configured webhooks (`failscope serve --webhook`) exactly `urls`, each signed with `secret`: a URL
    /// keeps its id (and its deliveries) across restarts; configured webhooks no longer listed are deleted with their
    /// deliveries. Webhooks created through the API are left alone. An unchanged configuration writes nothing (a
    /// service still starts on a full disk).
    ///
    /// - Throws: `StoreError.invalid` for a URL that is not `http`/`https`, `.busy` / `.unavailable` / `.storageFull`.
    public func configureWebhooks(urls: [String], secret: String, now: Date = Date()) throws {
        for url in urls { try Self.checkWebhookURL(url) }
        let ids = urls.map(Self.configuredWebhookID)
        try write { db in
            try db.transaction {
                let existing = try db.query("SELECT id FROM webhooks WHERE source = 'configuration'") { $0.string(0) }
                for id in existing where !ids.contains(id) {
                    try db.run("DELETE FROM webhooks WHERE id = ?", [id])
                }
                for (id, url) in zip(ids, urls) {
                    try db.run(
                        """
                        INSERT INTO webhooks (id, url, secret, source, created_at) VALUES (?, ?, ?, 'configuration', ?)
                        ON CONFLICT (id) DO UPDATE SET secret = excluded.secret WHERE webhooks.secret <> excluded.secret
                        """, [id, url, secret, Timestamp.milliseconds(now)])
                }
            }
        }
    }

    /// Creates a webhook through the API, or, when one created through the API has the same URL, gives it the new
    /// secret and filter (so a CI step may register its receiver on every run); returns it and whether it is new.
    ///
    /// - Throws: `StoreError.invalid` for a URL that is not `http`/`https`, a secret shorter than
    ///   ``WebhookCreate/minimumSecretLength`` bytes or an invalid filter (``WebhookFilter/problem``), `.busy` /
    ///   `.unavailable` / `.storageFull`.
    public func createWebhook(_ create: WebhookCreate, now: Date = Date()) throws -> (webhook: Webhook, created: Bool) {
        try Self.checkWebhookURL(create.url)
        guard create.secret.utf8.count >= WebhookCreate.minimumSecretLength else {
            throw StoreError.invalid("secret must be at least \(WebhookCreate.minimumSecretLength) bytes")
        }
        guard create.secret.utf8.count <= Limits.textFieldBytes else {
            throw StoreError.invalid("secret must be at most \(Limits.textFieldBytes) bytes")
        }
        let filter = create.filter
        if let problem = filter.problem { throw StoreError.invalid(problem) }
        var seen = Set<String>()
        let events = try Self.filterColumn(filter.events?.map(\.rawValue).filter { seen.insert("e" + $0).inserted })
        let branches = try Self.filterColumn(filter.branches?.filter { seen.insert("b" + $0).inserted })
        let newID = "wh-" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        let nowMs = Timestamp.milliseconds(now)
        let (id, created) = try write { db in
            try db.transaction { () throws -> (String, Bool) in
                if let existing = try db.queryFirst(
                    "SELECT id FROM webhooks WHERE url = ? AND source = 'api' ORDER BY created_at, id", [create.url],
                    row: { $0.string(0) })
                {
                    try db.run(
                        "UPDATE webhooks SET secret = ?, events = ?, branches = ? WHERE id = ?",
                        [create.secret, events, branches, existing])
                    return (existing, false)
                }
                try db.run(
                    """
                    INSERT INTO webhooks (id, url, secret, source, events, branches, created_at)
                    VALUES (?, ?, ?, 'api', ?, ?, ?)
                    """, [newID, create.url, create.secret, events, branches, nowMs])
                return (newID, true)
            }
        }
        guard let webhook = try webhooks().webhooks.first(where: { $0.id == id }) else {
            throw StoreError.notFound(kind: "webhook", id: id)
        }
        return (webhook, created)
    }

    /// Deletes a webhook created through the API, with its deliveries.
    ///
    /// - Throws: `StoreError.notFound` (kind `webhook`), `.conflict` for a configured webhook (it comes back at the
    ///   next start: remove its `--webhook` instead), `.busy` / `.unavailable` / `.storageFull`.
    public func deleteWebhook(_ id: String) throws {
        try write { db in
            try db.transaction {
                guard
                    let source = try db.queryFirst(
                        "SELECT source FROM webhooks WHERE id = ?", [id], row: { $0.string(0) })
                else { throw StoreError.notFound(kind: "webhook", id: id) }
                guard source == WebhookSource.api.rawValue else {
                    throw StoreError.conflict(
                        "webhook '\(id)' comes from failscope serve --webhook; remove the option to delete it")
                }
                try db.run("DELETE FROM webhooks WHERE id = ?", [id])
            }
        }
    }

    /// Every webhook, oldest first, with its deliveries counted by status.
    public func webhooks() throws -> WebhookList {
        try read { db in
            WebhookList(
                webhooks: try db.query(
                    """
                    SELECT w.id, w.url, w.source, w.created_at,
                        (SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'pending'),
                        (SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'delivered'),
                        (SELECT count(*) FROM webhook_deliveries d WHERE d.webhook_id = w.id AND d.status = 'failed'),
                        w.events, w.branches
                    FROM webhooks w ORDER BY w.created_at, w.id
                    """
                ) { row in
                    Webhook(
                        id: row.string(0), url: row.string(1), source: WebhookSource(rawValue: row.string(2)) ?? .api,
                        filter: Self.webhookFilter(events: row.optionalString(7), branches: row.optionalString(8)),
                        createdAt: Timestamp.date(row.int64(3)), pending: row.int(4), delivered: row.int(5),
                        failed: row.int(6))
                })
        }
    }

    /// The newest `limit` deliveries of webhook `id`, newest first, or `nil` when there is no such webhook.
    public func webhookDeliveries(_ id: String, limit: Int = 100) throws -> WebhookDeliveryList? {
        try read { db in
            guard try db.queryFirst("SELECT 1 FROM webhooks WHERE id = ?", [id], row: { _ in true }) != nil else {
                return nil
            }
            let deliveries = try db.query(
                """
                SELECT id, event_id, event, status, attempts, next_attempt_at, last_status_code, last_error, created_at,
                    last_attempt_at, finished_at
                FROM webhook_deliveries WHERE webhook_id = ? ORDER BY id DESC LIMIT ?
                """, [id, limit]
            ) { row in
                let status = WebhookDeliveryStatus(rawValue: row.string(3)) ?? .pending
                return WebhookDelivery(
                    id: row.int(0), eventId: row.string(1),
                    event: WebhookEventType(rawValue: row.string(2)) ?? .runFinished,
                    status: status, attempts: row.int(4),
                    nextAttemptAt: status == .pending ? Timestamp.date(row.int64(5)) : nil,
                    lastStatusCode: row.optionalInt(6), lastError: row.optionalString(7),
                    createdAt: Timestamp.date(row.int64(8)),
                    lastAttemptAt: row.isNull(9) ? nil : Timestamp.date(row.int64(9)),
                    finishedAt: row.isNull(10) ? nil : Timestamp.date(row.int64(10)))
            }
            return WebhookDeliveryList(webhookId: id, deliveries: deliveries)
        }
    }

    // MARK: Finished runs

    /// Records that run `runID` finished and is to be evaluated for webhooks at `dueAt` (one statement; a finish
    /// already waiting is postponed to `dueAt`, so the finishes of a run's processes are announced together).
    public func scheduleWebhookCheck(runID: String, dueAt: Date) throws {
        _ = try write { db in
            try db.run(
                """
                INSERT INTO webhook_run_checks (run_id, request_id, due_at) VALUES (?, ?, ?)
                ON CONFLICT (run_id) DO UPDATE SET request_id = excluded.request_id, due_at = excluded.due_at
                """, [runID, UUID().uuidString, Timestamp.milliseconds(dueAt)])
        }
    }

    /// Claims up to `limit` runs due by `now` for `owner` until `leaseUntil`; returns their ids and the finish each
    /// claim saw, oldest due first.
    public func claimWebhookChecks(owner: String, now: Date, leaseUntil: Date, limit: Int) throws
        -> [(runID: String, requestID: String)]
    {
        let nowMs = Timestamp.milliseconds(now)
        return try write { db in
            try db.transaction {
                try db.run(
                    """
                    UPDATE webhook_run_checks SET lease_owner = ?, lease_until = ?
                    WHERE run_id IN (SELECT run_id FROM webhook_run_checks
                            WHERE due_at <= ? AND (lease_until IS NULL OR lease_until <= ?) ORDER BY due_at LIMIT ?)
                        AND due_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
                    """, [owner, Timestamp.milliseconds(leaseUntil), nowMs, nowMs, limit, nowMs, nowMs])
                return try db.query(
                    "SELECT run_id, request_id FROM webhook_run_checks WHERE lease_owner = ? ORDER BY due_at, run_id",
                    [owner]
                ) { (runID: $0.string(0), requestID: $0.string(1)) }
            }
        }
    }

    /// Evaluates a claimed finished run in one transaction: `run.finished` and, for each of its tests whose state on
    /// the run's branch (docs/flaky.md's rules over the default window at `now`) differs from the one announced last,
    /// `test.flaky` / `test.broken` / `test.fixed` (a test first seen stable is recorded without an event). Each event
    /// is rendered once by `render` (the body, exact bytes) and queued for every webhook whose ``WebhookFilter``
    /// accepts it; the new states are recorded and the check is removed unless the run was finished again meanwhile
    /// (then it is released and runs again). Nothing is queued but the states when no webhook accepts an event.
    /// Returns the events queued.
    public func evaluateWebhookCheck(
        runID: String, requestID: String, owner: String, now: Date = Date(), policy: FlakyPolicy = .standard,
        render: (WebhookEventDraft) throws -> String
    ) throws -> [WebhookEventDraft] {
        let nowMs = Timestamp.milliseconds(now)
        return try write { db in
            try db.transaction { () throws -> [WebhookEventDraft] in
                var drafts: [WebhookEventDraft] = []
                guard
                    try db.queryFirst(
                        "SELECT 1 FROM webhook_run_checks WHERE run_id = ? AND lease_owner = ?", [runID, owner],
                        row: { _ in true }) != nil
                else { return [] }  // the lease ran out and another worker took it
                if let run = try db.queryFirst(
                    "SELECT \(Self.runColumns) FROM runs WHERE id = ?", [runID], row: Self.runSummary(from:)),
                    run.run.finishedAt != nil
                {
                    drafts.append(
                        WebhookEventDraft(
                            id: UUID().uuidString.lowercased(), type: .runFinished, createdAt: now, run: run))
                    for change in try Self.testStateChanges(db, run: run, now: now, nowMs: nowMs, policy: policy) {
                        let type: WebhookEventType =
                            switch change.state {
                            case .flaky: .testFlaky
                            case .broken: .testBroken
                            case .stable: .testFixed
                            }
                        drafts.append(
                            WebhookEventDraft(
                                id: UUID().uuidString.lowercased(), type: type, createdAt: now, run: run, test: change))
                    }
                }
                let webhooks = try db.query("SELECT id, events, branches FROM webhooks ORDER BY id") {
                    (
                        id: $0.string(0),
                        filter: Self.webhookFilter(events: $0.optionalString(1), branches: $0.optionalString(2))
                    )
                }
                // Every draft of a run is on the run's branch: each webhook's branch patterns are matched once.
                let branch = drafts.first?.branch ?? ""
                let receivers = webhooks.filter { $0.filter.accepts(branch: branch) }
                drafts.removeAll { draft in !receivers.contains { $0.filter.accepts(draft.type) } }
                for draft in drafts {
                    let payload = try render(draft)
                    let orderingKey =
                        draft.test.map { "test:\($0.test.id):\($0.branch)" } ?? "run:\(draft.run.run.id)"
                    for (webhookID, filter) in receivers where filter.accepts(draft.type) {
                        try db.run(
                            """
                            INSERT INTO webhook_deliveries (webhook_id, event_id, event, ordering_key, payload,
                                next_attempt_at, created_at)
                            VALUES (?, ?, ?, ?, ?, ?, ?)
                            """, [webhookID, draft.id, draft.type.rawValue, orderingKey, payload, nowMs, nowMs])
                    }
                }
                try db.run(
                    "DELETE FROM webhook_run_checks WHERE run_id = ? AND request_id = ? AND lease_owner = ?",
                    [runID, requestID, owner])
                try db.run(
                    "UPDATE webhook_run_checks SET lease_owner = NULL, lease_until = NULL WHERE run_id = ? AND lease_owner = ?",
                    [runID, owner])
                return drafts
            }
        }
    }

    /// The run's tests whose state on its branch changed since announced, with the new states recorded.
    private static func testStateChanges(
        _ db: any SQLConnection, run: RunSummary, now: Date, nowMs: Int64, policy: FlakyPolicy
    ) throws -> [WebhookTestChange] {
        let branch = run.run.branch ?? ""
        let window = try FlakyWindow(FlakyQuery(project: run.run.project, branch: branch, policy: policy, now: now))
        // The run's tests, each with whether its last attempt failed on one of the run's devices.
        let tests = try db.query(
            """
            SELECT test_id, max(failed) FROM (
                SELECT test_id, max(attempt * 2 + CASE WHEN status IN ('failed', 'error') THEN 1 ELSE 0 END) % 2
                    AS failed
                FROM results WHERE run_id = ? GROUP BY test_id, device) AS last
            GROUP BY test_id ORDER BY test_id
            """, [run.run.id]
        ) { (id: $0.string(0), failed: $0.int(1) == 1) }
        let verdicts = try FlakyAnalysis(db: db, window: window).evaluate(tests.map { ($0.id, branch) })
        var changes: [WebhookTestChange] = []
        for ((testID, failed), evaluated) in zip(tests, verdicts) {
            let state: WebhookTestState
            var reasons: [FlakyReason] = []
            switch evaluated.classification.verdict {
            case .flaky(let why):
                state = .flaky
                reasons = why
            case .broken: state = .broken
            case .recovered, .stable: state = .stable
            }
            let previous = try db.queryFirst(
                "SELECT state FROM webhook_test_states WHERE test_id = ? AND branch = ?", [testID, branch]
            ) { WebhookTestState(rawValue: $0.string(0)) ?? .stable }
            guard previous != state else { continue }
            // A run in which the test failed never fixes it (a broken test's first failure on a new commit is
            // not yet broken there): it stays as announced until a run in which it passes.
            if state == .stable, previous != nil, failed { continue }
            try db.run(
                """
                INSERT INTO webhook_test_states (test_id, branch, state, run_id, changed_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (test_id, branch) DO UPDATE SET state = excluded.state, run_id = excluded.run_id,
                    changed_at = excluded.changed_at
                """, [testID, branch, state.rawValue, run.run.id, nowMs])
            // A test seen for the first time is announced only when it is not stable.
            if previous == nil && state == .stable { continue }
            guard let test = try testIdentity(db, testID) else { continue }
            changes.append(
                WebhookTestChange(
                    test: test, branch: branch, state: state, previousState: previous ?? .stable, reasons: reasons))
        }
        return changes
    }

    // MARK: Deliveries

    /// Claims up to `limit` pending deliveries due by `now` for `owner` until `leaseUntil` (each attempt is counted
    /// here), skipping any with an older pending delivery of the same test or run to the same webhook, so each
    /// webhook gets a test's events in order. Returns them oldest due first.
    public func claimWebhookDeliveries(owner: String, now: Date, leaseUntil: Date, limit: Int) throws
        -> [WebhookDeliveryJob]
    {
        let nowMs = Timestamp.milliseconds(now)
        return try write { db in
            try db.transaction {
                try db.run(
                    """
                    UPDATE webhook_deliveries SET lease_owner = ?, lease_until = ?, attempts = attempts + 1,
                        last_attempt_at = ?
                    WHERE id IN (SELECT d.id FROM webhook_deliveries d
                            WHERE d.status = 'pending' AND d.next_attempt_at <= ?
                                AND (d.lease_until IS NULL OR d.lease_until <= ?)
                                AND NOT EXISTS (SELECT 1 FROM webhook_deliveries e WHERE e.webhook_id = d.webhook_id
                                    AND e.ordering_key = d.ordering_key AND e.status = 'pending' AND e.id < d.id)
                            ORDER BY d.next_attempt_at, d.id LIMIT ?)
                        AND status = 'pending' AND (lease_until IS NULL OR lease_until <= ?)
                    """, [owner, Timestamp.milliseconds(leaseUntil), nowMs, nowMs, nowMs, limit, nowMs])
                return try db.query(
                    """
                    SELECT d.id, d.webhook_id, w.url, w.secret, d.event_id, d.event, d.payload, d.attempts, d.created_at
                    FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
                    WHERE d.lease_owner = ? AND d.status = 'pending' ORDER BY d.next_attempt_at, d.id
                    """, [owner]
                ) { row in
                    WebhookDeliveryJob(
                        id: row.int(0), webhookID: row.string(1), url: row.string(2), secret: row.string(3),
                        eventID: row.string(4), event: WebhookEventType(rawValue: row.string(5)) ?? .runFinished,
                        payload: row.string(6), attempts: row.int(7), createdAt: Timestamp.date(row.int64(8)))
                }
            }
        }
    }

    /// Records the outcome of the attempt `owner` claimed of delivery `id` (nothing when its lease was lost).
    public func recordWebhookAttempt(id: Int, owner: String, outcome: WebhookAttemptOutcome, now: Date = Date()) throws
    {
        let nowMs = Timestamp.milliseconds(now)
        _ = try write { db in
            switch outcome {
            case .delivered(let statusCode):
                try db.run(
                    """
                    UPDATE webhook_deliveries SET status = 'delivered', lease_owner = NULL, lease_until = NULL,
                        last_status_code = ?, last_error = NULL, finished_at = ?
                    WHERE id = ? AND lease_owner = ?
                    """, [statusCode, nowMs, id, owner])
            case .failed(let statusCode, let error, let retryAt):
                try db.run(
                    """
                    UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, finished_at = ?, lease_owner = NULL,
                        lease_until = NULL, last_status_code = ?, last_error = ?
                    WHERE id = ? AND lease_owner = ?
                    """,
                    [
                        retryAt == nil ? "failed" : "pending", retryAt.map(Timestamp.milliseconds) ?? nowMs,
                        retryAt == nil ? nowMs : nil, statusCode, String(error.prefix(500)), id, owner,
                    ])
            case .interrupted:
                try db.run(
                    """
                    UPDATE webhook_deliveries SET next_attempt_at = ?, lease_owner = NULL, lease_until = NULL,
                        last_error = 'interrupted: the service stopped during the attempt'
                    WHERE id = ? AND lease_owner = ?
                    """, [nowMs, id, owner])
            }
        }
    }

    /// Deletes the deliveries delivered or given up before `before` (the log keeps the newer ones and every pending
    /// one); returns how many.
    @discardableResult
    public func pruneWebhookDeliveries(finishedBefore before: Date) throws -> Int {
        try write { db in
            try db.run(
                "DELETE FROM webhook_deliveries WHERE status <> 'pending' AND finished_at < ?",
                [Timestamp.milliseconds(before)])
        }
    }

    // MARK: Rules

    /// A filter list as stored: a JSON array of strings, `nil` (every one) for `nil`.
    private static func filterColumn(_ values: [String]?) throws -> String? {
        try values.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
    }

    /// The filter of a webhook row (`events`, `branches`); a list that does not decode filters nothing out.
    private static func webhookFilter(events: String?, branches: String?) -> WebhookFilter {
        func list(_ column: String?) -> [String]? {
            column.flatMap { try? JSONDecoder().decode([String].self, from: Data($0.utf8)) }
        }
        return WebhookFilter(
            events: list(events)?.compactMap(WebhookEventType.init(rawValue:)), branches: list(branches))
    }

    /// The id of the configured webhook for `url`: the same at every start.
    static func configuredWebhookID(_ url: String) -> String {
        "cfg-" + SHA256.hex(of: Array(url.utf8)).prefix(20)
    }

    /// - Throws: `StoreError.invalid` unless `url` is an absolute `http` or `https` URL with a host.
    static func checkWebhookURL(_ url: String) throws(StoreError) {
        guard url.utf8.count <= Limits.textFieldBytes, let parsed = URL(string: url),
            ["http", "https"].contains(parsed.scheme?.lowercased() ?? ""), !(parsed.host ?? "").isEmpty
        else { throw .invalid("a webhook url must be an absolute http or https URL") }
    }
}
