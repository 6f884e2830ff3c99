-- Quarantine for PostgreSQL (README.md, "Quarantine"): the same tables, columns and indexes as
-- sqlite/0002_quarantine.sql, in PostgreSQL's types (see that file for what they mean). Text compares by bytes
-- (COLLATE "C"), as in 0001_baseline.sql.

CREATE TABLE quarantine_entries (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    project TEXT COLLATE "C" NOT NULL,
    suite TEXT COLLATE "C" NOT NULL,
    name TEXT COLLATE "C" NOT NULL,
    arguments TEXT COLLATE "C",
    page TEXT COLLATE "C",
    device TEXT COLLATE "C",
    owner TEXT COLLATE "C" NOT NULL,
    reason TEXT COLLATE "C" NOT NULL,
    expires_at BIGINT NOT NULL,
    created_at BIGINT NOT NULL,
    lifted_at BIGINT,
    ends_at BIGINT NOT NULL,
    CHECK (ends_at > created_at OR lifted_at IS NOT NULL)
);
CREATE INDEX quarantine_entries_by_test ON quarantine_entries (project, suite, name, created_at, ends_at);
CREATE INDEX quarantine_entries_by_project_end ON quarantine_entries (project, ends_at);
CREATE INDEX quarantine_entries_by_end ON quarantine_entries (ends_at);

CREATE TABLE quarantine_changes (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    entry_id BIGINT NOT NULL REFERENCES quarantine_entries (id),
    action TEXT COLLATE "C" NOT NULL CHECK (action IN ('added', 'edited', 'lifted')),
    role TEXT COLLATE "C" NOT NULL CHECK (role IN ('upload', 'admin')),
    actor TEXT COLLATE "C" NOT NULL,
    why TEXT COLLATE "C" NOT NULL,
    changed_at BIGINT NOT NULL
);
CREATE INDEX quarantine_changes_by_entry ON quarantine_changes (entry_id, id);

CREATE INDEX tests_by_name ON tests (project, suite, name);
