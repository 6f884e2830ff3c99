-- The results of a commit, by test, in place of 0008's results_by_test_commit: a commit's first failure counts the
-- test's earlier results on it into its flaky_commits row (flaky_summaries.sql). Keyed by the commit first, the
-- results of one run (one commit) go into neighbouring index pages instead of a page per test, so an upload writes
-- a few pages of this index instead of one per result; results without a commit are not indexed.
-- Append-only: never edit this file after it shipped.
DROP INDEX results_by_test_commit;
CREATE INDEX results_by_commit_test ON results (commit_sha, test_id) WHERE commit_sha IS NOT NULL;
