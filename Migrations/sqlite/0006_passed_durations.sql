-- Durations (docs/durations.md): the slowest tests of a project read the passing results of a window with
-- their test and duration; this partial index holds exactly those columns, so the read is one index range
-- instead of a row lookup per result (seconds at 1M results without it).
-- Append-only: never edit this file after it shipped.
CREATE INDEX results_passed_durations ON results (project, ran_at, test_id, duration, branch, status, id)
    WHERE status = 'passed' AND duration IS NOT NULL;
