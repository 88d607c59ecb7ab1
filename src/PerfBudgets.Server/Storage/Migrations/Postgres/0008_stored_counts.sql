-- (PostgreSQL's types for the table of Sqlite/0008.)
-- The counted runs a project's CI stored for reuse (perfbudgets counts push), each found by its key (the SHA-256 of
-- the run's inputs, as hex) and kept as the zip of the store's entry folder, byte for byte: the server never opens it.
-- used_utc is the last time one was stored or fetched; the least recently used beyond a project's bound are deleted.
CREATE TABLE stored_counts (
    project_id BIGINT NOT NULL REFERENCES projects(id),
    count_key TEXT NOT NULL,
    archive BYTEA NOT NULL,
    stored_utc TEXT NOT NULL,
    used_utc TEXT NOT NULL,
    PRIMARY KEY (project_id, count_key)
);
CREATE INDEX stored_counts_by_use ON stored_counts(project_id, used_utc);
