-- Failscope schema, version 8: a flaky test's contradicting commits are read from their index alone.
-- The index of contradicting commits (both a pass and a fail) now carries each commit's counts and
-- times, ordered newest first and then by commit, so the newest few come out in order with no lookup in
-- the table and no sort, and their total is a count over the index range. On a 10M-result history
-- the old query (every contradicting commit of the window looked up, then sorted) was the largest part
-- of listing a page's flaky tests. Append-only: never edit after it shipped.
DROP INDEX flaky_commits_contradicting;
CREATE INDEX flaky_commits_contradicting ON flaky_commits (
    test_id, branch, device, min(last_pass_at, last_fail_at), commit_sha DESC, passes, fails, last_pass_at, last_fail_at)
    WHERE passes > 0 AND fails > 0;
