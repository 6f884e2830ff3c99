-- Webhooks (README.md, "Webhooks"): the receivers, their durable outbox of deliveries, the runs waiting to be
-- announced and each test's last announced state. Times are INTEGER milliseconds since 1970-01-01 UTC.

-- A receiver. `source` 'configuration' rows mirror `failscope serve --webhook` (replaced at every start), 'api'
-- rows were created through the API. `secret` signs the deliveries (HMAC-SHA256); it never leaves the store.
CREATE TABLE webhooks (
    id TEXT PRIMARY KEY NOT NULL,
    url TEXT NOT NULL,
    secret TEXT NOT NULL,
    source TEXT NOT NULL CHECK (source IN ('configuration', 'api')),
    created_at INTEGER NOT NULL
);

-- One event for one webhook: the exact body sent (and signed), its state and the last attempt's outcome.
-- `ordering_key` (a test on a branch, or a run) orders a webhook's deliveries: one is not sent while an older one
-- with the same key is pending. A worker claims a delivery by setting `lease_owner`/`lease_until`.
CREATE TABLE webhook_deliveries (
    id INTEGER PRIMARY KEY,
    webhook_id TEXT NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    event_id TEXT NOT NULL,
    event TEXT NOT NULL,
    ordering_key TEXT NOT NULL,
    payload TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL,
    lease_owner TEXT,
    lease_until INTEGER,
    last_status_code INTEGER,
    last_error TEXT,
    created_at INTEGER NOT NULL,
    last_attempt_at INTEGER,
    finished_at INTEGER
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (status, next_attempt_at, id);
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, id);
CREATE INDEX webhook_deliveries_by_order ON webhook_deliveries (webhook_id, ordering_key, status, id);

-- A finished run whose events are still to be computed: one row a run, written by the finish; `request_id`
-- changes with every finish, so a finish that arrives while the run is being evaluated evaluates it again.
CREATE TABLE webhook_run_checks (
    run_id TEXT PRIMARY KEY NOT NULL,
    request_id TEXT NOT NULL,
    due_at INTEGER NOT NULL,
    lease_owner TEXT,
    lease_until INTEGER
);
CREATE INDEX webhook_run_checks_due ON webhook_run_checks (due_at);

-- The flaky/broken state last announced per test and branch ('stable', 'flaky', 'broken'): an event is sent when a
-- finished run's evaluation differs.
CREATE TABLE webhook_test_states (
    test_id TEXT NOT NULL,
    branch TEXT NOT NULL,
    state TEXT NOT NULL CHECK (state IN ('stable', 'flaky', 'broken')),
    run_id TEXT NOT NULL,
    changed_at INTEGER NOT NULL,
    PRIMARY KEY (test_id, branch)
);
