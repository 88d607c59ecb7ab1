-- Projects, the runs uploaded to them and each run's results.
-- A project's write token is kept only as its SHA-256: a copy of the database does not let anyone upload.
CREATE TABLE projects (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    token_sha256 BLOB NOT NULL,
    created_utc TEXT NOT NULL
);

-- One uploaded run of the gate. results_json is the run's results.json as uploaded, so a baseline is served back
-- byte for byte in the shape PERF_BASELINE reads.
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id),
    commit_sha TEXT NOT NULL,
    branch TEXT NOT NULL,
    runtime TEXT NOT NULL,
    valgrind_version TEXT NULL,
    machine TEXT NOT NULL,
    uploaded_utc TEXT NOT NULL,
    results_json TEXT NOT NULL
);

-- The parents of a run's commit (two for a merge), the edges the nearest-ancestor search walks.
CREATE TABLE run_parents (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    ordinal INTEGER NOT NULL,
    parent_sha TEXT NOT NULL,
    PRIMARY KEY (run_id, ordinal)
);

-- One row per figure of a run, for series over commits.
CREATE TABLE results (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    budget TEXT NOT NULL,
    kind TEXT NOT NULL,
    measured REAL NOT NULL,
    limit_value REAL NULL,
    unit TEXT NOT NULL,
    verdict TEXT NOT NULL,
    PRIMARY KEY (run_id, budget)
);
