-- The commit graph of each project, apart from its runs: an upload can name the parents of commits that were never run
-- (a short ancestry from git), so the nearest-ancestor search can walk past commits without runs. Seeded from the
-- parents stored with each run.
CREATE TABLE commit_parents (
    project_id INTEGER NOT NULL REFERENCES projects(id),
    commit_sha TEXT NOT NULL,
    ordinal INTEGER NOT NULL,
    parent_sha TEXT NOT NULL,
    PRIMARY KEY (project_id, commit_sha, ordinal)
);

INSERT OR IGNORE INTO commit_parents (project_id, commit_sha, ordinal, parent_sha)
SELECT r.project_id, r.commit_sha, rp.ordinal, rp.parent_sha FROM run_parents rp JOIN runs r ON r.id = rp.run_id;
