-- The action trace of a trail step (docs/trace.md): the SHA-256 of the element_tree artifact holding the
-- screen's element tree when the step ran, the frame (points) of the element it targeted, and its duration
-- (seconds to the next step). NULL for steps without a trace (passing tests, importers).
ALTER TABLE trail_steps
    ADD COLUMN element_tree TEXT COLLATE "C",
    ADD COLUMN target_x DOUBLE PRECISION,
    ADD COLUMN target_y DOUBLE PRECISION,
    ADD COLUMN target_width DOUBLE PRECISION,
    ADD COLUMN target_height DOUBLE PRECISION,
    ADD COLUMN duration DOUBLE PRECISION;
