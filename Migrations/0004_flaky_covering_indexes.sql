-- Failscope schema, version 4: the window scans of flaky_test_pages read only their index.
-- An index of a WITHOUT ROWID table carries the primary key (test_id, branch, device, page); adding
-- project makes the page list's and a page's candidate scans covering (no lookup per row).
-- Append-only: never edit after it shipped.
DROP INDEX flaky_test_pages_by_time;
DROP INDEX flaky_test_pages_by_page_time;
CREATE INDEX flaky_test_pages_by_time ON flaky_test_pages (last_fail_at, project);
CREATE INDEX flaky_test_pages_by_page_time ON flaky_test_pages (page, last_fail_at, project);
