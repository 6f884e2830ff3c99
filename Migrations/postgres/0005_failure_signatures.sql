-- Failure signatures for PostgreSQL (docs/errors.md), as sqlite/0005_failure_signatures.sql: each failed or
-- errored result keeps the signature of its first failure, computed at ingest (FailureSignature in
-- FailscopeModel). 0002 and 0003 are other features'.
-- Append-only: never edit this file after it shipped.

-- One row per distinct signature: its id (32 hex digits of SHA-256), normalized message and location.
CREATE TABLE failure_signatures (
    id TEXT COLLATE "C" PRIMARY KEY NOT NULL,
    message TEXT COLLATE "C" NOT NULL,
    location TEXT COLLATE "C"
);

-- NULL for a result that passed, was skipped, or failed without a recorded failure.
ALTER TABLE results ADD COLUMN failure_signature TEXT COLLATE "C";

-- The unique errors of a window: one range of a project's failures by time, every column the ranking reads.
CREATE INDEX results_errors_by_time ON results (project, ran_at, failure_signature, test_id, run_id, branch, page, device)
    WHERE failure_signature IS NOT NULL;
-- One signature's results by time: first and last seen, and whether a run's signature is new on its branch.
CREATE INDEX results_by_signature_time ON results (project, failure_signature, ran_at, run_id, branch, commit_sha)
    WHERE failure_signature IS NOT NULL;
