-- Failscope schema, version 2: summaries for flaky-test and page analytics (docs/flaky.md).
-- Maintained by the ingest transaction (FlakySummaries.record) and rebuilt from `results` by the
-- statements after "-- populate" (below, and FlakySummaries.rebuild for the tests of a changed run),
-- so flaky and page queries read a bounded number of rows per test instead of the window's results.
-- Keys: branch '' = no branch; device '' = no device, '*' = all devices together; page '' = no page
-- (reported as "(no page)" under the test's suite); commit_sha '' is never stored (no same input).
-- Outcome: passed and expected_failure pass, failed and error fail, skipped is neither.
-- `day` is the UTC day number ran_at / 86400000. Append-only: never edit after it shipped.

-- The newest 64 pass/fail results per (test, branch, device): flip rate, recovery and broken.
CREATE TABLE flaky_recent (
    test_id TEXT NOT NULL,
    branch TEXT NOT NULL,
    device TEXT NOT NULL,
    ran_at INTEGER NOT NULL,
    result_id INTEGER NOT NULL,
    failed INTEGER NOT NULL,
    commit_sha TEXT NOT NULL,
    PRIMARY KEY (test_id, branch, device, ran_at, result_id)
) WITHOUT ROWID;

-- Pass/fail counts per (test, branch, device, commit): same-input contradictions.
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
CREATE INDEX flaky_commits_contradicting ON flaky_commits (test_id, branch, device, min(last_pass_at, last_fail_at))
    WHERE passes > 0 AND fails > 0;

-- Cumulative pass/fail counts of a (test, branch, device) through each day it ran: counts in a window
-- are two lookups (newest row minus the newest row before the window).
CREATE TABLE flaky_test_days (
    test_id TEXT NOT NULL,
    branch TEXT NOT NULL,
    device TEXT NOT NULL,
    day INTEGER NOT NULL,
    passes INTEGER NOT NULL,
    fails INTEGER NOT NULL,
    PRIMARY KEY (test_id, branch, device, day)
) WITHOUT ROWID;

-- Cumulative failures of a (test, branch, device, page) through each day with a failure, with that
-- day's first and last failure and the newest failing result.
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
    PRIMARY KEY (test_id, branch, device, page, day)
) WITHOUT ROWID;

-- Every (test, branch, device, page) that ever failed, with its newest failure: the candidates of
-- a window are the rows with last_fail_at inside it.
CREATE TABLE flaky_test_pages (
    test_id TEXT NOT NULL,
    branch TEXT NOT NULL,
    device TEXT NOT NULL,
    page TEXT NOT NULL,
    project TEXT NOT NULL,
    last_fail_at INTEGER NOT NULL,
    last_result_id INTEGER NOT NULL,
    PRIMARY KEY (test_id, branch, device, page)
) WITHOUT ROWID;
CREATE INDEX flaky_test_pages_by_time ON flaky_test_pages (last_fail_at);
CREATE INDEX flaky_test_pages_by_page_time ON flaky_test_pages (page, last_fail_at);

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

-- Results and failures per (project, branch, page, day) for the page list; suite is '' for a real
-- page and the test's suite for page ''.
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

-- populate
INSERT INTO flaky_recent (test_id, branch, device, ran_at, result_id, failed, commit_sha)
SELECT test_id, branch, device, ran_at, id, failed, commit_sha FROM (
    SELECT r.test_id, coalesce(r.branch, '') AS branch, CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END AS device, r.ran_at, r.id,
        r.status IN ('failed', 'error') AS failed, coalesce(r.commit_sha, '') AS commit_sha,
        row_number() OVER (
            PARTITION BY r.test_id, coalesce(r.branch, ''), CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END ORDER BY r.ran_at DESC, r.id DESC) AS newest
    FROM results r
    CROSS JOIN (SELECT 0 AS everything UNION ALL SELECT 1) e
    WHERE r.status <> 'skipped'
) WHERE newest <= 64;

INSERT INTO flaky_commits (test_id, branch, device, commit_sha, passes, fails, last_pass_at, last_fail_at)
SELECT r.test_id, coalesce(r.branch, ''), CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END AS device, r.commit_sha,
    sum(r.status NOT IN ('failed', 'error')), sum(r.status IN ('failed', 'error')),
    max(CASE WHEN r.status NOT IN ('failed', 'error') THEN r.ran_at END),
    max(CASE WHEN r.status IN ('failed', 'error') THEN r.ran_at END)
FROM results r
CROSS JOIN (SELECT 0 AS everything UNION ALL SELECT 1) e
WHERE r.status <> 'skipped' AND r.commit_sha IS NOT NULL AND r.commit_sha <> ''
GROUP BY r.test_id, coalesce(r.branch, ''), CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END, r.commit_sha;

INSERT INTO flaky_test_days (test_id, branch, device, day, passes, fails)
SELECT test_id, branch, device, day,
    sum(passes) OVER (PARTITION BY test_id, branch, device ORDER BY day),
    sum(fails) OVER (PARTITION BY test_id, branch, device ORDER BY day)
FROM (
    SELECT r.test_id, coalesce(r.branch, '') AS branch, CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END AS device, r.ran_at / 86400000 AS day,
        sum(r.status NOT IN ('failed', 'error')) AS passes, sum(r.status IN ('failed', 'error')) AS fails
    FROM results r
    CROSS JOIN (SELECT 0 AS everything UNION ALL SELECT 1) e
    WHERE r.status <> 'skipped'
    GROUP BY r.test_id, coalesce(r.branch, ''), CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END, r.ran_at / 86400000
);

INSERT INTO flaky_page_days (test_id, branch, device, page, day, fails, first_fail_at, last_fail_at, last_result_id)
SELECT test_id, branch, device, page, day,
    sum(fails) OVER (PARTITION BY test_id, branch, device, page ORDER BY day), first_fail_at, last_fail_at,
    (SELECT n.id FROM results n
     WHERE n.test_id = g.test_id AND coalesce(n.branch, '') = g.branch AND coalesce(n.device, '') = g.device
        AND coalesce(n.page, '') = g.page AND n.status IN ('failed', 'error') AND n.ran_at = g.last_fail_at
     ORDER BY n.id DESC LIMIT 1)
FROM (
    SELECT test_id, coalesce(branch, '') AS branch, coalesce(device, '') AS device, coalesce(page, '') AS page,
        ran_at / 86400000 AS day, count(*) AS fails, min(ran_at) AS first_fail_at, max(ran_at) AS last_fail_at
    FROM results WHERE status IN ('failed', 'error')
    GROUP BY test_id, coalesce(branch, ''), coalesce(device, ''), coalesce(page, ''), ran_at / 86400000
) g;

INSERT INTO flaky_test_pages (test_id, branch, device, page, project, last_fail_at, last_result_id)
SELECT p.test_id, p.branch, p.device, p.page, t.project, p.last_fail_at, p.last_result_id
FROM flaky_page_days p JOIN tests t ON t.id = p.test_id
WHERE p.day = (SELECT max(q.day) FROM flaky_page_days q
    WHERE q.test_id = p.test_id AND q.branch = p.branch AND q.device = p.device AND q.page = p.page);

INSERT INTO flaky_call_sites (test_id, branch, device, page, file, line, fails, last_fail_at)
SELECT test_id, coalesce(branch, ''), coalesce(device, ''), coalesce(page, ''), call_site_file,
    coalesce(call_site_line, 0), count(*), max(ran_at)
FROM results WHERE status IN ('failed', 'error') AND call_site_file IS NOT NULL
GROUP BY test_id, coalesce(branch, ''), coalesce(device, ''), coalesce(page, ''), call_site_file,
    coalesce(call_site_line, 0);

INSERT INTO page_days (project, branch, page, suite, day, results, fails, last_fail_at)
SELECT r.project, coalesce(r.branch, ''), coalesce(r.page, ''), CASE WHEN r.page IS NULL THEN t.suite ELSE '' END,
    r.ran_at / 86400000, count(*), sum(r.status IN ('failed', 'error')),
    max(CASE WHEN r.status IN ('failed', 'error') THEN r.ran_at END)
FROM results r JOIN tests t ON t.id = r.test_id
GROUP BY r.project, coalesce(r.branch, ''), coalesce(r.page, ''), CASE WHEN r.page IS NULL THEN t.suite ELSE '' END,
    r.ran_at / 86400000;
