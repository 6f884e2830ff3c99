-- The flaky summary tables of 0001_baseline.sql computed from `results`, PostgreSQL's statements of the
-- same definition as sqlite/flaky_summaries.sql, for the tests in `flaky_scope_tests` and the page days in
-- `flaky_scope_days` (temporary tables the store fills first, FlakySummaries.recompute): their rows are
-- deleted, then computed again from all of their results. The packs are built with failscope_outcome and
-- failscope_commit_key (0001_baseline.sql), the per-device JSON objects with their keys in byte order, as
-- SQLite's json_group_object writes them.
-- Not a migration: it changes with the summaries' definition, alongside the migration that changes them.

DELETE FROM flaky_outcomes WHERE test_key IN (
    SELECT t.key FROM tests t WHERE t.id IN (SELECT test_id FROM flaky_scope_tests));
DELETE FROM flaky_test_days WHERE test_key IN (
    SELECT t.key FROM tests t WHERE t.id IN (SELECT test_id FROM flaky_scope_tests));
DELETE FROM flaky_commits WHERE test_id IN (SELECT test_id FROM flaky_scope_tests);
DELETE FROM flaky_page_days WHERE test_id IN (SELECT test_id FROM flaky_scope_tests);
DELETE FROM flaky_test_pages WHERE test_id IN (SELECT test_id FROM flaky_scope_tests);
DELETE FROM flaky_call_sites WHERE test_id IN (SELECT test_id FROM flaky_scope_tests);
DELETE FROM page_days WHERE (project, day) IN (SELECT project, day FROM flaky_scope_days);

INSERT INTO flaky_outcomes (test_key, branch, device, newest_result_id, outcomes, passes, fails)
SELECT test_key, branch, device, max(newest),
    coalesce(string_agg(failscope_outcome(ran_at, failed, failscope_commit_key(commit_sha)), ''::bytea
        ORDER BY ran_at DESC, id DESC) FILTER (WHERE position <= 64), ''::bytea),
    count(*) FILTER (WHERE NOT failed), count(*) FILTER (WHERE failed) FROM (
    SELECT t.key AS test_key, coalesce(r.branch, '') AS branch, k.device, r.ran_at, r.id,
        r.status IN ('failed', 'error') AS failed, r.commit_sha,
        first_value(r.id) OVER w AS newest, row_number() OVER w AS position
    FROM results r JOIN tests t ON t.id = r.test_id
    CROSS JOIN LATERAL (SELECT CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END AS device
        FROM (VALUES (0), (1)) AS e (everything) WHERE e.everything = 1 OR coalesce(r.device, '') <> '') k
    WHERE r.status <> 'skipped' AND r.test_id IN (SELECT test_id FROM flaky_scope_tests)
    WINDOW w AS (PARTITION BY r.test_id, coalesce(r.branch, ''), k.device ORDER BY r.ran_at DESC, r.id DESC)
) AS o GROUP BY test_key, branch, device;

INSERT INTO flaky_commits (test_id, branch, device, commit_sha, passes, fails, last_pass_at, last_fail_at)
SELECT r.test_id, coalesce(r.branch, ''), k.device, r.commit_sha,
    count(*) FILTER (WHERE r.status NOT IN ('failed', 'error')), count(*) FILTER (WHERE r.status IN ('failed', 'error')),
    max(r.ran_at) FILTER (WHERE r.status NOT IN ('failed', 'error')),
    max(r.ran_at) FILTER (WHERE r.status IN ('failed', 'error'))
FROM results r
CROSS JOIN LATERAL (SELECT CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END AS device
    FROM (VALUES (0), (1)) AS e (everything) WHERE e.everything = 1 OR coalesce(r.device, '') <> '') k
WHERE r.status <> 'skipped' AND r.test_id IN (SELECT test_id FROM flaky_scope_tests) AND r.commit_sha IS NOT NULL AND r.commit_sha <> ''
GROUP BY r.test_id, coalesce(r.branch, ''), k.device, r.commit_sha
HAVING count(*) FILTER (WHERE r.status IN ('failed', 'error')) > 0;

INSERT INTO flaky_test_days (test_key, branch, device, day, passes_before, fails_before)
SELECT test_key, branch, device, day,
    coalesce(sum(passes) OVER (PARTITION BY test_key, branch, device ORDER BY day
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0),
    coalesce(sum(fails) OVER (PARTITION BY test_key, branch, device ORDER BY day
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
FROM (
    SELECT t.key AS test_key, coalesce(r.branch, '') AS branch, k.device, r.ran_at / 86400000 AS day,
        count(*) FILTER (WHERE r.status NOT IN ('failed', 'error')) AS passes,
        count(*) FILTER (WHERE r.status IN ('failed', 'error')) AS fails
    FROM results r JOIN tests t ON t.id = r.test_id
    CROSS JOIN LATERAL (SELECT CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END AS device
        FROM (VALUES (0), (1)) AS e (everything) WHERE e.everything = 1 OR coalesce(r.device, '') <> '') k
    WHERE r.status <> 'skipped' AND r.test_id IN (SELECT test_id FROM flaky_scope_tests)
    GROUP BY t.key, coalesce(r.branch, ''), k.device, r.ran_at / 86400000
) AS d;

INSERT INTO flaky_page_days (test_id, branch, device, page, day, fails, first_fail_at, last_fail_at, last_result_id)
SELECT test_id, branch, device, page, day,
    sum(fails) OVER (PARTITION BY test_id, branch, device, page ORDER BY day), first_fail_at, last_fail_at,
    (SELECT n.id FROM results n
     WHERE n.test_id = g.test_id AND coalesce(n.branch, '') = g.branch
        AND (g.device = '*' OR coalesce(n.device, '') = g.device)
        AND coalesce(n.page, '') = g.page AND n.status IN ('failed', 'error') AND n.ran_at = g.last_fail_at
     ORDER BY n.id DESC LIMIT 1)
FROM (
    SELECT r.test_id, coalesce(r.branch, '') AS branch, k.device, coalesce(r.page, '') AS page,
        r.ran_at / 86400000 AS day, count(*) AS fails, min(r.ran_at) AS first_fail_at, max(r.ran_at) AS last_fail_at
    FROM results r
    CROSS JOIN LATERAL (SELECT CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END AS device
        FROM (VALUES (0), (1)) AS e (everything)) k
    WHERE r.status IN ('failed', 'error') AND r.test_id IN (SELECT test_id FROM flaky_scope_tests)
    GROUP BY r.test_id, coalesce(r.branch, ''), k.device, coalesce(r.page, ''), r.ran_at / 86400000
) AS g;

UPDATE flaky_page_days SET devices = (
    SELECT '{' || string_agg(to_json(x.device)::text || ':' || x.fails, ',' ORDER BY x.device COLLATE "C") || '}'
    FROM flaky_page_days x
    WHERE x.test_id = flaky_page_days.test_id AND x.branch = flaky_page_days.branch AND x.device <> '*'
        AND x.page = flaky_page_days.page
        AND x.day = (SELECT max(y.day) FROM flaky_page_days y WHERE y.test_id = x.test_id AND y.branch = x.branch
            AND y.device = x.device AND y.page = x.page AND y.day <= flaky_page_days.day))
WHERE device = '*' AND test_id IN (SELECT test_id FROM flaky_scope_tests);

INSERT INTO flaky_test_pages (test_id, branch, device, page, project, last_fail_at, last_result_id, fails)
SELECT p.test_id, p.branch, p.device, p.page, t.project, p.last_fail_at, p.last_result_id, p.fails
FROM flaky_page_days p JOIN tests t ON t.id = p.test_id
WHERE p.test_id IN (SELECT test_id FROM flaky_scope_tests) AND p.day = (SELECT max(q.day) FROM flaky_page_days q
    WHERE q.test_id = p.test_id AND q.branch = p.branch AND q.device = p.device AND q.page = p.page);

UPDATE flaky_test_pages SET devices = (
    SELECT '{' || string_agg(to_json(x.device)::text || ':' || x.fails, ',' ORDER BY x.device COLLATE "C") || '}'
    FROM flaky_test_pages x
    WHERE x.test_id = flaky_test_pages.test_id AND x.branch = flaky_test_pages.branch AND x.device <> '*'
        AND x.page = flaky_test_pages.page)
WHERE device = '*' AND test_id IN (SELECT test_id FROM flaky_scope_tests);

INSERT INTO flaky_call_sites (test_id, branch, device, page, file, line, fails, last_fail_at)
SELECT r.test_id, coalesce(r.branch, ''), k.device, coalesce(r.page, ''), r.call_site_file,
    coalesce(r.call_site_line, 0), count(*), max(r.ran_at)
FROM results r
CROSS JOIN LATERAL (SELECT CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END AS device
    FROM (VALUES (0), (1)) AS e (everything) WHERE e.everything = 1 OR coalesce(r.device, '') <> '') k
WHERE r.status IN ('failed', 'error') AND r.test_id IN (SELECT test_id FROM flaky_scope_tests) AND r.call_site_file IS NOT NULL
GROUP BY r.test_id, coalesce(r.branch, ''), k.device, coalesce(r.page, ''), r.call_site_file,
    coalesce(r.call_site_line, 0);

INSERT INTO page_days (project, branch, page, suite, day, results, fails, last_fail_at)
SELECT r.project, coalesce(r.branch, ''), coalesce(r.page, ''), CASE WHEN r.page IS NULL THEN t.suite ELSE '' END,
    r.ran_at / 86400000, count(*), count(*) FILTER (WHERE r.status IN ('failed', 'error')),
    max(r.ran_at) FILTER (WHERE r.status IN ('failed', 'error'))
FROM flaky_scope_days s JOIN results r ON r.ran_at >= s.day * 86400000 AND r.ran_at < (s.day + 1) * 86400000
    AND r.project = s.project
JOIN tests t ON t.id = r.test_id
GROUP BY r.project, coalesce(r.branch, ''), coalesce(r.page, ''), CASE WHEN r.page IS NULL THEN t.suite ELSE '' END,
    r.ran_at / 86400000;
