-- Failscope schema for SQLite, baseline (Migrations/README.md).
-- Times are INTEGER milliseconds since 1970-01-01 UTC. Text from tests is stored verbatim.
-- Append-only: never edit this file after it shipped; add 0002_... instead.

-- One execution of a test bundle. `status` is maintained by the store:
-- 'incomplete' until finished, then 'failed' when a test's last attempt failed or errored, else 'passed'.
CREATE TABLE runs (
    id TEXT PRIMARY KEY NOT NULL,
    project TEXT NOT NULL,
    branch TEXT,
    commit_sha TEXT,
    device TEXT,
    os_version TEXT,
    ci_provider TEXT,
    ci_build_url TEXT,
    ci_job TEXT,
    source TEXT NOT NULL,
    started_at INTEGER NOT NULL,
    finished_at INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'incomplete' CHECK (status IN ('incomplete', 'passed', 'failed')),
    result_count INTEGER NOT NULL DEFAULT 0,
    passed_count INTEGER NOT NULL DEFAULT 0,
    failed_count INTEGER NOT NULL DEFAULT 0,
    error_count INTEGER NOT NULL DEFAULT 0,
    skipped_count INTEGER NOT NULL DEFAULT 0,
    expected_failure_count INTEGER NOT NULL DEFAULT 0,
    failing_test_count INTEGER NOT NULL DEFAULT 0
);
-- Run lists: newest first, optionally by project, branch or status; (started_at, id) is the cursor.
CREATE INDEX runs_by_time ON runs (started_at, id);
CREATE INDEX runs_by_project_time ON runs (project, started_at, id);
CREATE INDEX runs_by_project_branch_time ON runs (project, branch, started_at, id);
CREATE INDEX runs_by_status_time ON runs (status, started_at, id);

-- A test's stable identity: (project, suite, name, arguments).
-- `id` is the first 32 hex digits of SHA-256 over the four fields joined by U+001F ('' for no arguments),
-- so the same test has the same id in every database. `key` numbers tests in the order they were first
-- stored (a suite's tests, which upload together, get neighbouring keys): the summary tables every result
-- writes are keyed by it, so one batch's rows sit together on a few pages.
CREATE TABLE tests (
    id TEXT PRIMARY KEY NOT NULL,
    project TEXT NOT NULL,
    suite TEXT NOT NULL,
    name TEXT NOT NULL,
    arguments TEXT NOT NULL DEFAULT '',
    first_seen_at INTEGER NOT NULL,
    key INTEGER NOT NULL
) WITHOUT ROWID;
CREATE UNIQUE INDEX tests_by_key ON tests (key);

-- One attempt of one test in one run. project, branch, commit_sha and device are copied from the run
-- (device: the result's own when it has one) and `ran_at` is started_at or else the run's start, so
-- history, page and flaky queries over a window read one index range instead of joining runs.
-- `page` is the page of the first failure, else the last page of the trail; `call_site_*` likewise.
CREATE TABLE results (
    id INTEGER PRIMARY KEY,
    run_id TEXT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    result_key TEXT NOT NULL,
    test_id TEXT NOT NULL REFERENCES tests (id),
    project TEXT NOT NULL,
    branch TEXT,
    commit_sha TEXT,
    device TEXT,
    reported_device TEXT,
    page TEXT,
    call_site_file TEXT,
    call_site_line INTEGER,
    attempt INTEGER NOT NULL CHECK (attempt >= 1),
    status TEXT NOT NULL CHECK (status IN ('passed', 'failed', 'error', 'skipped', 'expected_failure')),
    skip_reason TEXT,
    started_at INTEGER,
    ran_at INTEGER NOT NULL,
    duration REAL,
    system_out TEXT,
    system_err TEXT,
    UNIQUE (run_id, result_key)
);
CREATE INDEX results_by_test_time ON results (test_id, ran_at);
CREATE INDEX results_by_project_branch_time ON results (project, branch, ran_at);
CREATE INDEX results_by_project_page_time ON results (project, page, ran_at);
CREATE INDEX results_by_time ON results (ran_at);

-- Failures of a result, in reported order. element_* is the target element's frame in points.
CREATE TABLE failures (
    result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    message TEXT NOT NULL,
    location_file TEXT,
    location_line INTEGER,
    page TEXT,
    action TEXT,
    call_site_file TEXT,
    call_site_line INTEGER,
    element_x REAL,
    element_y REAL,
    element_width REAL,
    element_height REAL,
    is_error INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (result_id, position)
) WITHOUT ROWID;

-- The page trail of a result, in order.
CREATE TABLE trail_steps (
    result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    page TEXT NOT NULL,
    action TEXT,
    call_site_file TEXT,
    call_site_line INTEGER,
    PRIMARY KEY (result_id, position)
) WITHOUT ROWID;

-- Pages a result visited, in first-visit order without repeats; by page for "results on this page".
CREATE TABLE result_pages (
    result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    page TEXT NOT NULL,
    PRIMARY KEY (result_id, position)
) WITHOUT ROWID;
CREATE INDEX result_pages_by_page ON result_pages (page, result_id);

-- Stored artifact files (DIR/artifacts/ab/cd/<sha256>), one row per distinct content.
CREATE TABLE artifacts (
    sha256 TEXT PRIMARY KEY NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('screenshot', 'element_tree')),
    byte_count INTEGER NOT NULL,
    width INTEGER,
    height INTEGER,
    stored_at INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX artifacts_by_stored_at ON artifacts (stored_at);

-- Artifacts a result references, as the result declared them (the file may arrive before or after).
CREATE TABLE result_artifacts (
    result_id INTEGER NOT NULL REFERENCES results (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    sha256 TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('screenshot', 'element_tree')),
    byte_count INTEGER NOT NULL,
    width INTEGER,
    height INTEGER,
    PRIMARY KEY (result_id, position)
) WITHOUT ROWID;
CREATE INDEX result_artifacts_by_sha256 ON result_artifacts (sha256);

-- The flaky summaries (docs/flaky.md): derived from `results`, maintained by the ingest transaction and
-- recomputed by flaky_summaries.sql, so flaky and page queries read a bounded number of rows per test
-- instead of the window's results.
-- Keys: branch '' = no branch; device '' = no device, '*' = all devices together (a result without a
-- device has only '*' rows, except the page rows); page '' = no page (reported under the test's suite);
-- commit_sha '' is never stored. Outcome: passed and expected_failure pass, failed and error fail,
-- skipped is neither. `day` is the UTC day number ran_at / 86400000.

-- Per (test key, branch, device): the newest 64 pass/fail outcomes packed newest first into one BLOB
-- (OutcomePack: 10 bytes each, the result's time, whether it failed and a 31-bit key of its commit), the
-- newest result's id and the lifetime pass and fail counts.
CREATE TABLE flaky_outcomes (
    test_key INTEGER NOT NULL,
    branch TEXT NOT NULL,
    device TEXT NOT NULL,
    newest_result_id INTEGER NOT NULL,
    outcomes BLOB NOT NULL,
    passes INTEGER NOT NULL,
    fails INTEGER NOT NULL,
    PRIMARY KEY (test_key, branch, device)
) WITHOUT ROWID;

-- Per (test key, branch, device) and day with a result: the counts of the results before that day. Counts
-- in a window from day D are the lifetime counts minus those of the key's first day on or after D.
CREATE TABLE flaky_test_days (
    test_key INTEGER NOT NULL,
    branch TEXT NOT NULL,
    device TEXT NOT NULL,
    day INTEGER NOT NULL,
    passes_before INTEGER NOT NULL,
    fails_before INTEGER NOT NULL,
    PRIMARY KEY (test_key, branch, device, day)
) WITHOUT ROWID;

-- Pass/fail counts per (test, branch, device, commit) of commits with a failure: same-input contradictions.
CREATE TABLE flaky_commits (
    test_id TEXT NOT NULL,
    branch TEXT NOT NULL,
    device TEXT NOT NULL,
    commit_sha TEXT NOT NULL,
    passes INTEGER NOT NULL,
    fails INTEGER NOT NULL,
    last_pass_at INTEGER,
    last_fail_at INTEGER,
    PRIMARY KEY (test_id, branch, device, commit_sha)
) WITHOUT ROWID;
-- Contradicting commits by when the later of their newest pass and newest fail happened.
CREATE INDEX flaky_commits_contradicting ON flaky_commits (
    test_id, branch, device, min(last_pass_at, last_fail_at), commit_sha DESC, passes, fails, last_pass_at, last_fail_at)
    WHERE passes > 0 AND fails > 0;

-- Cumulative failures of a (test, branch, device, page) through each day with a failure, with that day's
-- first and last failure and the newest failing result. The '*' rows' `devices` packs the per-device
-- cumulative failures as a JSON object sorted by device ({"iPad":3,"iPhone 15":1}).
CREATE TABLE flaky_page_days (
    test_id TEXT NOT NULL,
    branch TEXT NOT NULL,
    device TEXT NOT NULL,
    page TEXT NOT NULL,
    day INTEGER NOT NULL,
    fails INTEGER NOT NULL,
    first_fail_at INTEGER NOT NULL,
    last_fail_at INTEGER NOT NULL,
    last_result_id INTEGER NOT NULL,
    devices TEXT,
    PRIMARY KEY (test_id, branch, device, page, day)
) WITHOUT ROWID;

-- Every (test, branch, device, page) that ever failed, with its newest failure and cumulative failures:
-- the candidates of a window are the rows with last_fail_at inside it.
CREATE TABLE flaky_test_pages (
    test_id TEXT NOT NULL,
    branch TEXT NOT NULL,
    device TEXT NOT NULL,
    page TEXT NOT NULL,
    project TEXT NOT NULL,
    last_fail_at INTEGER NOT NULL,
    last_result_id INTEGER NOT NULL,
    fails INTEGER NOT NULL DEFAULT 0,
    devices TEXT,
    PRIMARY KEY (test_id, branch, device, page)
) WITHOUT ROWID;
CREATE INDEX flaky_test_pages_by_page_time ON flaky_test_pages (page, device, last_fail_at, project);
CREATE INDEX flaky_test_pages_by_time ON flaky_test_pages (device, last_fail_at, project, fails, last_result_id, devices);

-- Call sites where a (test, branch, device, page) failed: lifetime count and newest failure.
CREATE TABLE flaky_call_sites (
    test_id TEXT NOT NULL,
    branch TEXT NOT NULL,
    device TEXT NOT NULL,
    page TEXT NOT NULL,
    file TEXT NOT NULL,
    line INTEGER NOT NULL,
    fails INTEGER NOT NULL,
    last_fail_at INTEGER NOT NULL,
    PRIMARY KEY (test_id, branch, device, page, file, line)
) WITHOUT ROWID;

-- Results and failures per (project, branch, page, day) for the page list; suite is '' for a real page
-- and the test's suite for page ''.
CREATE TABLE page_days (
    project TEXT NOT NULL,
    branch TEXT NOT NULL,
    page TEXT NOT NULL,
    suite TEXT NOT NULL,
    day INTEGER NOT NULL,
    results INTEGER NOT NULL,
    fails INTEGER NOT NULL,
    last_fail_at INTEGER,
    PRIMARY KEY (project, day, branch, page, suite)
) WITHOUT ROWID;
