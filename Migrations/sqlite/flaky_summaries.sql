-- The flaky summary tables of 0001_baseline.sql: the one definition of their rows, as what the results of a
-- scope add to them (flaky_scope.sql; FlakySummaries). An ingest batch adds its results to the rows; a
-- recompute (a full rebuild, gc, a run's changed metadata, a copy) deletes the rows of its tests and days, then
-- adds all of their results. Adding results in any grouping gives the same rows as adding them at once.
-- Not a migration: it changes with the summaries' definition, alongside the migration that changes them.
-- failscope_outcome_pack(ran_at, id, failed, commit_sha, base) is an aggregate the store registers on its
-- writer: the OutcomePack of the group's rows merged into the stored pack `base` (FlakySummaries).

-- The scope's pass/fail results once per device key (flaky_scope.sql), read from their ids by primary key (CROSS
-- JOIN keeps that join order: never a scan of `results`).
INSERT INTO flaky_scope_outcomes (id, test_id, test_key, branch, device, counted, page, commit_sha, ran_at, day, failed,
    call_site_file, call_site_line)
SELECT r.id, r.test_id, t.key, coalesce(r.branch, ''), CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END,
    CASE WHEN e.everything = 1 OR coalesce(r.device, '') <> '' THEN 1 ELSE 0 END, coalesce(r.page, ''),
    coalesce(r.commit_sha, ''), r.ran_at, r.ran_at / 86400000, CASE WHEN r.status IN ('failed', 'error') THEN 1 ELSE 0 END,
    r.call_site_file, coalesce(r.call_site_line, 0)
FROM flaky_scope_results s CROSS JOIN results r ON r.id = s.id CROSS JOIN tests t ON t.id = r.test_id
CROSS JOIN (SELECT 0 AS everything UNION ALL SELECT 1) e
WHERE r.status <> 'skipped';

-- What they add up to per day (flaky_scope.sql): passes and fails per flaky_test_days key ...
INSERT INTO flaky_scope_outcome_days (test_key, branch, device, day, passes, fails)
SELECT test_key, branch, device, day, sum(1 - failed), sum(failed)
FROM flaky_scope_outcomes WHERE counted = 1 GROUP BY test_key, branch, device, day;

-- ... and failures per flaky_page_days key, with the newest one.
INSERT INTO flaky_scope_failure_days (test_id, branch, device, page, day, fails, first_fail_at, last_fail_at,
    last_result_id)
SELECT test_id, branch, device, page, day, count(*), min(ran_at), max(ran_at), max(newest)
FROM (SELECT test_id, branch, device, page, day, ran_at, first_value(id) OVER (
        PARTITION BY test_id, branch, device, page, day ORDER BY ran_at DESC, id DESC) AS newest
    FROM flaky_scope_outcomes WHERE failed = 1) AS f
GROUP BY test_id, branch, device, page, day;

-- flaky_test_days, the counts before each day with a result. Rows after a day of the scope gain the scope's
-- counts of the days before them.
UPDATE flaky_test_days SET passes_before = passes_before + a.passes, fails_before = fails_before + a.fails
FROM (SELECT x.test_key, x.branch, x.device, x.day, sum(b.passes) AS passes, sum(b.fails) AS fails
    FROM flaky_scope_outcome_days b CROSS JOIN flaky_test_days x ON x.test_key = b.test_key AND x.branch = b.branch AND x.device = b.device
        AND x.day > b.day
    GROUP BY x.test_key, x.branch, x.device, x.day) AS a
WHERE flaky_test_days.test_key = a.test_key AND flaky_test_days.branch = a.branch
    AND flaky_test_days.device = a.device AND flaky_test_days.day = a.day;

-- A day of the scope without a row gets one: the counts of the results before it that were there already (those
-- before the next row, as they were; else the lifetime counts, flaky_outcomes not yet updated) plus the scope's
-- counts of earlier days. (CASE: the scope's counts are summed only when there is a next row, never in a rebuild,
-- whose scope is every result of its tests.)
WITH e AS (SELECT b.*, coalesce(sum(passes) OVER w, 0) AS passes_earlier, coalesce(sum(fails) OVER w, 0) AS fails_earlier
    FROM flaky_scope_outcome_days b WINDOW w AS (PARTITION BY test_key, branch, device ORDER BY day ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING))
INSERT INTO flaky_test_days (test_key, branch, device, day, passes_before, fails_before)
SELECT e.test_key, e.branch, e.device, e.day,
    CASE WHEN n.day IS NULL THEN coalesce(o.passes, 0) ELSE n.passes_before - (SELECT coalesce(sum(c.passes), 0)
        FROM flaky_scope_outcome_days c WHERE c.test_key = e.test_key AND c.branch = e.branch AND c.device = e.device AND c.day < n.day)
    END + e.passes_earlier,
    CASE WHEN n.day IS NULL THEN coalesce(o.fails, 0) ELSE n.fails_before - (SELECT coalesce(sum(c.fails), 0)
        FROM flaky_scope_outcome_days c WHERE c.test_key = e.test_key AND c.branch = e.branch AND c.device = e.device AND c.day < n.day)
    END + e.fails_earlier
FROM e
LEFT JOIN flaky_outcomes o ON o.test_key = e.test_key AND o.branch = e.branch AND o.device = e.device
LEFT JOIN flaky_test_days n ON n.test_key = e.test_key AND n.branch = e.branch AND n.device = e.device
    AND n.day = (SELECT min(m.day) FROM flaky_test_days m
        WHERE m.test_key = e.test_key AND m.branch = e.branch AND m.device = e.device AND m.day > e.day)
WHERE NOT EXISTS (SELECT 1 FROM flaky_test_days x
    WHERE x.test_key = e.test_key AND x.branch = e.branch AND x.device = e.device AND x.day = e.day);

-- flaky_outcomes: the key's newest 64 results, the scope's merged into the stored pack, the newest result and
-- the lifetime counts.
INSERT INTO flaky_outcomes (test_key, branch, device, newest_result_id, outcomes, passes, fails)
SELECT n.test_key, n.branch, n.device,
    CASE WHEN max(p.ran_at) > max(n.ran_at) THEN max(o.newest_result_id) ELSE max(n.newest) END,
    failscope_outcome_pack(n.ran_at, n.id, n.failed, n.commit_sha, o.outcomes),
    coalesce(max(o.passes), 0) + sum(1 - n.failed), coalesce(max(o.fails), 0) + sum(n.failed)
FROM (SELECT test_key, branch, device, ran_at, id, failed, commit_sha, first_value(id) OVER (
        PARTITION BY test_key, branch, device ORDER BY ran_at DESC, id DESC) AS newest
    FROM flaky_scope_outcomes WHERE counted = 1) AS n
LEFT JOIN flaky_outcomes o ON o.test_key = n.test_key AND o.branch = n.branch AND o.device = n.device
LEFT JOIN results p ON p.id = o.newest_result_id
GROUP BY n.test_key, n.branch, n.device
ON CONFLICT (test_key, branch, device) DO UPDATE SET newest_result_id = excluded.newest_result_id,
    outcomes = excluded.outcomes, passes = excluded.passes, fails = excluded.fails;

-- flaky_commits, the commits with a failure: a row there gains the scope's outcomes on its commit ...
UPDATE flaky_commits SET passes = flaky_commits.passes + a.passes, fails = flaky_commits.fails + a.fails,
    last_pass_at = CASE WHEN a.last_pass_at IS NULL THEN flaky_commits.last_pass_at
        ELSE max(coalesce(flaky_commits.last_pass_at, a.last_pass_at), a.last_pass_at) END,
    last_fail_at = CASE WHEN a.last_fail_at IS NULL THEN flaky_commits.last_fail_at
        ELSE max(coalesce(flaky_commits.last_fail_at, a.last_fail_at), a.last_fail_at) END
FROM (SELECT test_id, branch, device, commit_sha, sum(1 - failed) AS passes, sum(failed) AS fails,
        max(CASE WHEN failed = 0 THEN ran_at END) AS last_pass_at, max(CASE WHEN failed = 1 THEN ran_at END) AS last_fail_at
    FROM flaky_scope_outcomes WHERE counted = 1 AND commit_sha <> ''
    GROUP BY test_id, branch, device, commit_sha) AS a
WHERE flaky_commits.test_id = a.test_id AND flaky_commits.branch = a.branch AND flaky_commits.device = a.device
    AND flaky_commits.commit_sha = a.commit_sha;

-- ... and a commit failing for the first time gets a row counted over all of its results (read by index).
INSERT INTO flaky_commits (test_id, branch, device, commit_sha, passes, fails, last_pass_at, last_fail_at)
SELECT c.test_id, c.branch, c.device, c.commit_sha, sum(r.status NOT IN ('failed', 'error')),
    sum(r.status IN ('failed', 'error')), max(CASE WHEN r.status NOT IN ('failed', 'error') THEN r.ran_at END),
    max(CASE WHEN r.status IN ('failed', 'error') THEN r.ran_at END)
FROM (SELECT DISTINCT test_id, branch, device, commit_sha FROM flaky_scope_outcomes
    WHERE counted = 1 AND failed = 1 AND commit_sha <> '') AS c
JOIN results r ON r.test_id = c.test_id AND r.commit_sha = c.commit_sha AND coalesce(r.branch, '') = c.branch
    AND (c.device = '*' OR coalesce(r.device, '') = c.device) AND r.status <> 'skipped'
WHERE NOT EXISTS (SELECT 1 FROM flaky_commits x WHERE x.test_id = c.test_id AND x.branch = c.branch
    AND x.device = c.device AND x.commit_sha = c.commit_sha)
GROUP BY c.test_id, c.branch, c.device, c.commit_sha;

-- flaky_page_days, failures per page and day, cumulative: rows on or after a day of the scope gain its failures
-- of the days up to theirs; a row of a scope day takes the scope's first, last and newest failure if earlier or later.
UPDATE flaky_page_days SET fails = flaky_page_days.fails + a.fails,
    first_fail_at = CASE WHEN a.first_fail_at IS NULL THEN flaky_page_days.first_fail_at ELSE min(flaky_page_days.first_fail_at, a.first_fail_at) END,
    last_result_id = CASE WHEN a.last_fail_at >= flaky_page_days.last_fail_at THEN a.last_result_id ELSE flaky_page_days.last_result_id END,
    last_fail_at = CASE WHEN a.last_fail_at IS NULL THEN flaky_page_days.last_fail_at ELSE max(flaky_page_days.last_fail_at, a.last_fail_at) END
FROM (SELECT x.test_id, x.branch, x.device, x.page, x.day, sum(g.fails) AS fails,
        max(CASE WHEN g.day = x.day THEN g.first_fail_at END) AS first_fail_at,
        max(CASE WHEN g.day = x.day THEN g.last_fail_at END) AS last_fail_at,
        max(CASE WHEN g.day = x.day THEN g.last_result_id END) AS last_result_id
    FROM flaky_scope_failure_days g CROSS JOIN flaky_page_days x ON x.test_id = g.test_id AND x.branch = g.branch AND x.device = g.device
        AND x.page = g.page AND x.day >= g.day
    GROUP BY x.test_id, x.branch, x.device, x.page, x.day) AS a
WHERE flaky_page_days.test_id = a.test_id AND flaky_page_days.branch = a.branch AND flaky_page_days.device = a.device
    AND flaky_page_days.page = a.page AND flaky_page_days.day = a.day;

-- A scope day without a row gets one: the failures through the row before it, as they were, plus the scope's
-- through the day.
WITH g AS MATERIALIZED (SELECT f.*, sum(fails) OVER (PARTITION BY test_id, branch, device, page ORDER BY day)
    AS fails_through FROM flaky_scope_failure_days f)
INSERT INTO flaky_page_days (test_id, branch, device, page, day, fails, first_fail_at, last_fail_at, last_result_id)
SELECT g.test_id, g.branch, g.device, g.page, g.day,
    CASE WHEN p.day IS NULL THEN 0 ELSE p.fails - (SELECT coalesce(sum(c.fails), 0) FROM flaky_scope_failure_days c WHERE c.test_id = g.test_id
        AND c.branch = g.branch AND c.device = g.device AND c.page = g.page AND c.day <= p.day) END + g.fails_through,
    g.first_fail_at, g.last_fail_at, g.last_result_id
FROM g
LEFT JOIN flaky_page_days p ON p.test_id = g.test_id AND p.branch = g.branch AND p.device = g.device
    AND p.page = g.page AND p.day = (SELECT max(q.day) FROM flaky_page_days q WHERE q.test_id = g.test_id
        AND q.branch = g.branch AND q.device = g.device AND q.page = g.page AND q.day < g.day)
WHERE NOT EXISTS (SELECT 1 FROM flaky_page_days x WHERE x.test_id = g.test_id AND x.branch = g.branch
    AND x.device = g.device AND x.page = g.page AND x.day = g.day);

-- The all-devices rows from a scope day on: each device's failures through the day, as a JSON object.
WITH g AS MATERIALIZED (SELECT test_id, branch, page, min(day) AS day FROM flaky_scope_failure_days
    WHERE device = '*' GROUP BY test_id, branch, page)
UPDATE flaky_page_days SET devices = (
    SELECT json_group_object(device, fails) FROM (
        SELECT x.device, x.fails FROM flaky_page_days x
        WHERE x.test_id = flaky_page_days.test_id AND x.branch = flaky_page_days.branch AND x.device <> '*'
            AND x.page = flaky_page_days.page
            AND x.day = (SELECT max(y.day) FROM flaky_page_days y WHERE y.test_id = x.test_id AND y.branch = x.branch
                AND y.device = x.device AND y.page = x.page AND y.day <= flaky_page_days.day)
        ORDER BY x.device))
FROM g
WHERE flaky_page_days.test_id = g.test_id AND flaky_page_days.branch = g.branch AND flaky_page_days.device = '*'
    AND flaky_page_days.page = g.page AND flaky_page_days.day >= g.day;

-- flaky_test_pages: each touched (test, branch, device, page) as of its newest page day ...
INSERT INTO flaky_test_pages (test_id, branch, device, page, project, last_fail_at, last_result_id, fails)
SELECT p.test_id, p.branch, p.device, p.page, t.project, p.last_fail_at, p.last_result_id, p.fails
FROM (SELECT DISTINCT test_id, branch, device, page FROM flaky_scope_failure_days) AS k
JOIN flaky_page_days p ON p.test_id = k.test_id AND p.branch = k.branch AND p.device = k.device AND p.page = k.page
    AND p.day = (SELECT max(q.day) FROM flaky_page_days q
        WHERE q.test_id = k.test_id AND q.branch = k.branch AND q.device = k.device AND q.page = k.page)
JOIN tests t ON t.id = p.test_id
WHERE true
ON CONFLICT (test_id, branch, device, page) DO UPDATE SET last_fail_at = excluded.last_fail_at,
    last_result_id = excluded.last_result_id, fails = excluded.fails;

-- ... its all-devices row with each device's failures.
UPDATE flaky_test_pages SET devices = (
    SELECT json_group_object(device, fails) FROM (
        SELECT x.device, x.fails FROM flaky_test_pages x
        WHERE x.test_id = flaky_test_pages.test_id AND x.branch = flaky_test_pages.branch AND x.device <> '*'
            AND x.page = flaky_test_pages.page
        ORDER BY x.device))
FROM (SELECT DISTINCT test_id, branch, page FROM flaky_scope_failure_days WHERE device = '*') AS g
WHERE flaky_test_pages.test_id = g.test_id AND flaky_test_pages.branch = g.branch AND flaky_test_pages.device = '*'
    AND flaky_test_pages.page = g.page;

-- flaky_call_sites: failures per call site.
INSERT INTO flaky_call_sites (test_id, branch, device, page, file, line, fails, last_fail_at)
SELECT test_id, branch, device, page, call_site_file, call_site_line, count(*), max(ran_at)
FROM flaky_scope_outcomes WHERE counted = 1 AND failed = 1 AND call_site_file IS NOT NULL
GROUP BY test_id, branch, device, page, call_site_file, call_site_line
ON CONFLICT (test_id, branch, device, page, file, line) DO UPDATE SET fails = fails + excluded.fails,
    last_fail_at = max(last_fail_at, excluded.last_fail_at);

-- page_days, the page list: results and failures per (project, branch, page, suite, day) of flaky_scope_page_results.
INSERT INTO page_days (project, branch, page, suite, day, results, fails, last_fail_at)
SELECT r.project, coalesce(r.branch, ''), coalesce(r.page, ''), CASE WHEN r.page IS NULL THEN t.suite ELSE '' END,
    r.ran_at / 86400000, count(*), sum(r.status IN ('failed', 'error')),
    max(CASE WHEN r.status IN ('failed', 'error') THEN r.ran_at END)
FROM flaky_scope_page_results s CROSS JOIN results r ON r.id = s.id JOIN tests t ON t.id = r.test_id
GROUP BY r.project, coalesce(r.branch, ''), coalesce(r.page, ''), CASE WHEN r.page IS NULL THEN t.suite ELSE '' END,
    r.ran_at / 86400000
ON CONFLICT (project, day, branch, page, suite) DO UPDATE SET results = results + excluded.results,
    fails = fails + excluded.fails,
    last_fail_at = CASE WHEN excluded.last_fail_at IS NULL THEN last_fail_at
        ELSE max(coalesce(last_fail_at, excluded.last_fail_at), excluded.last_fail_at) END;
