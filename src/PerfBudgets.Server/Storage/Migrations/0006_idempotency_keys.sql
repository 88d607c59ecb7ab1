-- The Idempotency-Key header an upload came with (null for one without): a client that lost the answer to an upload
-- sends it again with the same key, and the server answers with the run it stored the first time instead of storing a
-- second. Unique per project; both databases let any number of rows hold NULL under a unique index.
ALTER TABLE runs ADD COLUMN idempotency_key TEXT NULL;
CREATE UNIQUE INDEX runs_by_idempotency_key ON runs(project_id, idempotency_key);
