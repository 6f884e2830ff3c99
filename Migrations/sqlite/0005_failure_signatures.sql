-- Failure signatures (docs/errors.md): each failed or errored result keeps the signature of its first
-- failure, computed at ingest (FailureSignature in FailscopeModel). 0002 and 0003 are other features'.
-- Append-only: never edit this file after it shipped.

-- One row per distinct signature: its id (32 hex digits of SHA-256), normalized message and location.
CREATE TABLE failure_signatures (
    id TEXT PRIMARY KEY NOT NULL,
    message TEXT NOT NULL,
    location TEXT
) WITHOUT ROWID;

-- NULL for a result that passed, was skipped, or failed without a recorded failure.
ALTER TABLE results ADD COLUMN failure_signature TEXT;

-- The unique errors of a window: one range of a project's failures by time, every column the ranking reads.
CREATE INDEX results_errors_by_time ON results (project, ran_at, failure_signature, test_id, run_id, branch, page, device)
    WHERE failure_signature IS NOT NULL;
-- One signature's results by time: first and last seen, and whether a run's signature is new on its branch.
CREATE INDEX results_by_signature_time ON results (project, failure_signature, ran_at, run_id, branch, commit_sha)
    WHERE failure_signature IS NOT NULL;
