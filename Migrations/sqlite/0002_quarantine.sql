-- Quarantine (README.md, "Quarantine"): tests whose failures CI may forgive for a while, and every change to them.
-- Times are INTEGER milliseconds since 1970-01-01 UTC, as in 0001_baseline.sql.

-- One quarantined test: project, suite, name, and arguments, page, device when given (NULL matches any). It applies
-- to the results that ran in [created_at, ends_at): ends_at is expires_at (the start of the day after the expiry
-- date, UTC), or lifted_at when that is earlier. A result is quarantined when an entry applies to it, decided when
-- read, so an expired entry stops applying by itself and what applied to a result never changes afterwards.
CREATE TABLE quarantine_entries (
    id INTEGER PRIMARY KEY,
    project TEXT NOT NULL,
    suite TEXT NOT NULL,
    name TEXT NOT NULL,
    arguments TEXT,
    page TEXT,
    device TEXT,
    owner TEXT NOT NULL,
    reason TEXT NOT NULL,
    expires_at INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    lifted_at INTEGER,
    ends_at INTEGER NOT NULL,
    CHECK (ends_at > created_at OR lifted_at IS NOT NULL)
);
-- Does an entry apply to this result: one index range per result, by the test's names and the result's time.
CREATE INDEX quarantine_entries_by_test ON quarantine_entries (project, suite, name, created_at, ends_at);
-- The entries of a project that apply now (the list, `failscope quarantine list`, the exports).
CREATE INDEX quarantine_entries_by_project_end ON quarantine_entries (project, ends_at);
-- Every entry that applies now, whatever the project.
CREATE INDEX quarantine_entries_by_end ON quarantine_entries (ends_at);

-- The audit log: every change to an entry, with who made it (the token's role and the actor the request named),
-- when and why.
CREATE TABLE quarantine_changes (
    id INTEGER PRIMARY KEY,
    entry_id INTEGER NOT NULL REFERENCES quarantine_entries (id),
    action TEXT NOT NULL CHECK (action IN ('added', 'edited', 'lifted')),
    role TEXT NOT NULL CHECK (role IN ('upload', 'admin')),
    actor TEXT NOT NULL,
    why TEXT NOT NULL,
    changed_at INTEGER NOT NULL
);
CREATE INDEX quarantine_changes_by_entry ON quarantine_changes (entry_id, id);

-- The tests of a (project, suite, name), whatever their arguments: the tests an entry without arguments matches.
CREATE INDEX tests_by_name ON tests (project, suite, name);
