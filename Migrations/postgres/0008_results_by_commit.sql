-- The results of a test on a commit: a commit's first failure counts the test's earlier results on it into its
-- flaky_commits row (flaky_summaries.sql) by this index instead of reading the test's whole history.
-- Append-only: never edit this file after it shipped.
CREATE INDEX results_by_test_commit ON results (test_id, commit_sha);
