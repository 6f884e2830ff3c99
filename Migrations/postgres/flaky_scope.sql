-- PostgreSQL's scope of flaky_summaries.sql, as sqlite/flaky_scope.sql: temporary tables created once per
-- connection (FlakySummaries) and filled in the writing transaction.
-- Not a migration: it changes with the summaries' definition.

-- The results to add to the test summaries (flaky_outcomes, flaky_commits, flaky_test_days, flaky_page_days,
-- flaky_test_pages, flaky_call_sites) and to the page list (page_days): an ingest batch's in both; a
-- recompute's, those of its tests and of its days.
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_results (id BIGINT PRIMARY KEY) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_page_results (id BIGINT PRIMARY KEY) ON COMMIT DELETE ROWS;
-- A recompute's tests and days, whose rows are deleted first.
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_tests (test_id TEXT COLLATE "C" PRIMARY KEY NOT NULL) ON COMMIT DELETE ROWS;
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_days (
    project TEXT COLLATE "C" NOT NULL, day BIGINT NOT NULL, PRIMARY KEY (project, day)) ON COMMIT DELETE ROWS;

-- Each pass/fail result of flaky_scope_results once per device key (flaky_summaries.sql fills it first, from
-- the results): its device and '*' (every device). `counted` marks the keys of flaky_outcomes, flaky_commits,
-- flaky_test_days and flaky_call_sites: a result without a device counts under '*' only there; page rows keep
-- device '' too. `failed` is 1 for a failure or an error, else 0.
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_outcomes (
    id BIGINT NOT NULL, test_id TEXT COLLATE "C" NOT NULL, test_key BIGINT NOT NULL, branch TEXT COLLATE "C" NOT NULL,
    device TEXT COLLATE "C" NOT NULL, counted INTEGER NOT NULL, page TEXT COLLATE "C" NOT NULL,
    commit_sha TEXT COLLATE "C" NOT NULL, ran_at BIGINT NOT NULL, day BIGINT NOT NULL, failed INTEGER NOT NULL,
    call_site_file TEXT COLLATE "C", call_site_line INTEGER NOT NULL) ON COMMIT DELETE ROWS;

-- What flaky_scope_outcomes adds up to (flaky_summaries.sql fills both next, for its statements to read):
-- passes and fails per flaky_test_days key and day ...
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_outcome_days (
    test_key BIGINT NOT NULL, branch TEXT COLLATE "C" NOT NULL, device TEXT COLLATE "C" NOT NULL, day BIGINT NOT NULL,
    passes BIGINT NOT NULL, fails BIGINT NOT NULL, PRIMARY KEY (test_key, branch, device, day)) ON COMMIT DELETE ROWS;
-- ... and failures per flaky_page_days key and day, with the newest one (latest ran_at, then largest id).
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_failure_days (
    test_id TEXT COLLATE "C" NOT NULL, branch TEXT COLLATE "C" NOT NULL, device TEXT COLLATE "C" NOT NULL,
    page TEXT COLLATE "C" NOT NULL, day BIGINT NOT NULL, fails BIGINT NOT NULL, first_fail_at BIGINT NOT NULL,
    last_fail_at BIGINT NOT NULL, last_result_id BIGINT NOT NULL, PRIMARY KEY (test_id, branch, device, page, day))
    ON COMMIT DELETE ROWS;
