-- The flaky summary tables of 0001_baseline.sql computed from `results`: the one definition of their rows,
-- used for the tests in `flaky_scope_tests` (test_id) and the page days in `flaky_scope_days` (project, day),
-- temporary tables the store fills first (FlakySummaries.recompute: the tests and days an ingest batch, a
-- run's changed metadata or gc touched; every test and day for a full rebuild and the flaky benchmark's
-- generator). Their rows are deleted, then computed again from all of their results.
-- Not a migration: it changes with the summaries' definition, alongside the migration that changes them.
-- failscope_outcome_pack(ran_at, id, failed, commit_sha) is an aggregate the store registers on its
-- connections: the OutcomePack of the group's newest 64 results.

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
SELECT test_key, branch, device, max(newest), failscope_outcome_pack(ran_at, id, failed, commit_sha),
    sum(1 - failed), sum(failed) FROM (
    SELECT t.key AS test_key, coalesce(r.branch, '') AS branch, CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END AS device, r.ran_at, r.id,
        r.status IN ('failed', 'error') AS failed, r.commit_sha,
        first_value(r.id) OVER (
            PARTITION BY r.test_id, coalesce(r.branch, ''), CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END ORDER BY r.ran_at DESC, r.id DESC) AS newest
    FROM results r JOIN tests t ON t.id = r.test_id
    CROSS JOIN (SELECT 0 AS everything UNION ALL SELECT 1) e
    WHERE r.status <> 'skipped' AND r.test_id IN (SELECT test_id FROM flaky_scope_tests) AND (e.everything = 1 OR coalesce(r.device, '') <> '')
) GROUP BY test_key, branch, device;

INSERT INTO flaky_commits (test_id, branch, device, commit_sha, passes, fails, last_pass_at, last_fail_at)
SELECT r.test_id, coalesce(r.branch, ''), CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END AS device, r.commit_sha,
    sum(r.status NOT IN ('failed', 'error')), sum(r.status IN ('failed', 'error')),
    max(CASE WHEN r.status NOT IN ('failed', 'error') THEN r.ran_at END),
    max(CASE WHEN r.status IN ('failed', 'error') THEN r.ran_at END)
FROM results r
CROSS JOIN (SELECT 0 AS everything UNION ALL SELECT 1) e
WHERE r.status <> 'skipped' AND r.test_id IN (SELECT test_id FROM flaky_scope_tests) AND r.commit_sha IS NOT NULL AND r.commit_sha <> ''
    AND (e.everything = 1 OR coalesce(r.device, '') <> '')
GROUP BY r.test_id, coalesce(r.branch, ''), CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END, r.commit_sha
HAVING sum(r.status IN ('failed', 'error')) > 0;

INSERT INTO flaky_test_days (test_key, branch, device, day, passes_before, fails_before)
SELECT test_key, branch, device, day,
    coalesce(sum(passes) OVER (PARTITION BY test_key, branch, device ORDER BY day
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0),
    coalesce(sum(fails) OVER (PARTITION BY test_key, branch, device ORDER BY day
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
FROM (
    SELECT t.key AS test_key, coalesce(r.branch, '') AS branch, CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END AS device,
        r.ran_at / 86400000 AS day, sum(r.status NOT IN ('failed', 'error')) AS passes, sum(r.status IN ('failed', 'error')) AS fails
    FROM results r JOIN tests t ON t.id = r.test_id
    CROSS JOIN (SELECT 0 AS everything UNION ALL SELECT 1) e
    WHERE r.status <> 'skipped' AND r.test_id IN (SELECT test_id FROM flaky_scope_tests) AND (e.everything = 1 OR coalesce(r.device, '') <> '')
    GROUP BY t.key, coalesce(r.branch, ''), CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END, r.ran_at / 86400000
);

INSERT INTO flaky_page_days (test_id, branch, device, page, day, fails, first_fail_at, last_fail_at, last_result_id)
SELECT test_id, branch, device, page, day,
    sum(fails) OVER (PARTITION BY test_id, branch, device, page ORDER BY day), first_fail_at, last_fail_at,
    (SELECT n.id FROM results n
     WHERE n.test_id = g.test_id AND coalesce(n.branch, '') = g.branch
        AND (g.device = '*' OR coalesce(n.device, '') = g.device)
        AND coalesce(n.page, '') = g.page AND n.status IN ('failed', 'error') AND n.ran_at = g.last_fail_at
     ORDER BY n.id DESC LIMIT 1)
FROM (
    SELECT r.test_id, coalesce(r.branch, '') AS branch, CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END AS device,
        coalesce(r.page, '') AS page, r.ran_at / 86400000 AS day, count(*) AS fails, min(r.ran_at) AS first_fail_at,
        max(r.ran_at) AS last_fail_at
    FROM results r
    CROSS JOIN (SELECT 0 AS everything UNION ALL SELECT 1) e
    WHERE r.status IN ('failed', 'error') AND r.test_id IN (SELECT test_id FROM flaky_scope_tests)
    GROUP BY r.test_id, coalesce(r.branch, ''), CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END,
        coalesce(r.page, ''), r.ran_at / 86400000
) g;

UPDATE flaky_page_days SET devices = (
    SELECT json_group_object(device, fails) FROM (
        SELECT x.device, x.fails FROM flaky_page_days x
        WHERE x.test_id = flaky_page_days.test_id AND x.branch = flaky_page_days.branch AND x.device <> '*'
            AND x.page = flaky_page_days.page
            AND x.day = (SELECT max(y.day) FROM flaky_page_days y WHERE y.test_id = x.test_id AND y.branch = x.branch
                AND y.device = x.device AND y.page = x.page AND y.day <= flaky_page_days.day)
        ORDER BY x.device))
WHERE device = '*' AND test_id IN (SELECT test_id FROM flaky_scope_tests);

INSERT INTO flaky_test_pages (test_id, branch, device, page, project, last_fail_at, last_result_id, fails)
SELECT p.test_id, p.branch, p.device, p.page, t.project, p.last_fail_at, p.last_result_id, p.fails
FROM flaky_page_days p JOIN tests t ON t.id = p.test_id
WHERE p.test_id IN (SELECT test_id FROM flaky_scope_tests) AND p.day = (SELECT max(q.day) FROM flaky_page_days q
    WHERE q.test_id = p.test_id AND q.branch = p.branch AND q.device = p.device AND q.page = p.page);

UPDATE flaky_test_pages SET devices = (
    SELECT json_group_object(device, fails) FROM (
        SELECT x.device, x.fails FROM flaky_test_pages x
        WHERE x.test_id = flaky_test_pages.test_id AND x.branch = flaky_test_pages.branch AND x.device <> '*'
            AND x.page = flaky_test_pages.page
        ORDER BY x.device))
WHERE device = '*' AND test_id IN (SELECT test_id FROM flaky_scope_tests);

INSERT INTO flaky_call_sites (test_id, branch, device, page, file, line, fails, last_fail_at)
SELECT r.test_id, coalesce(r.branch, ''), CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END,
    coalesce(r.page, ''), r.call_site_file, coalesce(r.call_site_line, 0), count(*), max(r.ran_at)
FROM results r
CROSS JOIN (SELECT 0 AS everything UNION ALL SELECT 1) e
WHERE r.status IN ('failed', 'error') AND r.test_id IN (SELECT test_id FROM flaky_scope_tests) AND r.call_site_file IS NOT NULL
    AND (e.everything = 1 OR coalesce(r.device, '') <> '')
GROUP BY r.test_id, coalesce(r.branch, ''), CASE WHEN e.everything = 1 THEN '*' ELSE coalesce(r.device, '') END,
    coalesce(r.page, ''), r.call_site_file, coalesce(r.call_site_line, 0);

INSERT INTO page_days (project, branch, page, suite, day, results, fails, last_fail_at)
SELECT r.project, coalesce(r.branch, ''), coalesce(r.page, ''), CASE WHEN r.page IS NULL THEN t.suite ELSE '' END,
    r.ran_at / 86400000, count(*), sum(r.status IN ('failed', 'error')),
    max(CASE WHEN r.status IN ('failed', 'error') THEN r.ran_at END)
FROM flaky_scope_days s JOIN results r ON r.ran_at >= s.day * 86400000 AND r.ran_at < (s.day + 1) * 86400000
    AND r.project = s.project
JOIN tests t ON t.id = r.test_id
GROUP BY r.project, coalesce(r.branch, ''), coalesce(r.page, ''), CASE WHEN r.page IS NULL THEN t.suite ELSE '' END,
    r.ran_at / 86400000;
