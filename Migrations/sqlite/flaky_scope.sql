-- The scope flaky_summaries.sql reads, created once per connection (FlakySummaries): temporary tables the
-- store fills in the writing transaction.
-- Not a migration: it changes with the summaries' definition.

-- The results to add to the test summaries (flaky_outcomes, flaky_commits, flaky_test_days, flaky_page_days,
-- flaky_test_pages, flaky_call_sites) and to the page list (page_days): an ingest batch's in both; a
-- recompute's, those of its tests and of its days.
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_results (id INTEGER PRIMARY KEY);
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_page_results (id INTEGER PRIMARY KEY);
-- A recompute's tests and days, whose rows are deleted first.
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_tests (test_id TEXT PRIMARY KEY NOT NULL);
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_days (project TEXT NOT NULL, day INTEGER NOT NULL, PRIMARY KEY (project, day));

-- Each pass/fail result of flaky_scope_results once per device key (flaky_summaries.sql fills it first, from
-- the results): its device and '*' (every device). `counted` marks the keys of flaky_outcomes, flaky_commits,
-- flaky_test_days and flaky_call_sites: a result without a device counts under '*' only there; page rows keep
-- device '' too. `failed` is 1 for a failure or an error, else 0.
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_outcomes (
    id INTEGER NOT NULL, test_id TEXT NOT NULL, test_key INTEGER NOT NULL, branch TEXT NOT NULL, device TEXT NOT NULL,
    counted INTEGER NOT NULL, page TEXT NOT NULL, commit_sha TEXT NOT NULL, ran_at INTEGER NOT NULL, day INTEGER NOT NULL,
    failed INTEGER NOT NULL, call_site_file TEXT, call_site_line INTEGER NOT NULL);

-- What flaky_scope_outcomes adds up to (flaky_summaries.sql fills both next, for its statements to read):
-- passes and fails per flaky_test_days key and day ...
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_outcome_days (
    test_key INTEGER NOT NULL, branch TEXT NOT NULL, device TEXT NOT NULL, day INTEGER NOT NULL,
    passes INTEGER NOT NULL, fails INTEGER NOT NULL, PRIMARY KEY (test_key, branch, device, day));
-- ... and failures per flaky_page_days key and day, with the newest one (latest ran_at, then largest id).
CREATE TEMP TABLE IF NOT EXISTS flaky_scope_failure_days (
    test_id TEXT NOT NULL, branch TEXT NOT NULL, device TEXT NOT NULL, page TEXT NOT NULL, day INTEGER NOT NULL,
    fails INTEGER NOT NULL, first_fail_at INTEGER NOT NULL, last_fail_at INTEGER NOT NULL,
    last_result_id INTEGER NOT NULL, PRIMARY KEY (test_id, branch, device, page, day));
