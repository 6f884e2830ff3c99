-- Failscope schema, version 6: the window scan of flaky_test_pages reads only its index.
-- The page list and the flaky list without a page scan the rows of one device key failing in the
-- window; each row's cumulative failures, per-device counts and newest failing result now sit in the
-- index too, so a row costs no lookup in the table (on a 10M-result history that lookup was most of the
-- scan). Append-only: never edit after it shipped.
DROP INDEX flaky_test_pages_by_time;
CREATE INDEX flaky_test_pages_by_time ON flaky_test_pages (device, last_fail_at, project, fails, last_result_id, devices);
