-- A read-only token per project (its SHA-256; null until one is made): with serve --read-token-required, reading
-- takes it or the write token, so a dashboard or a pull request's baseline fetch need not hold the token that uploads.
ALTER TABLE projects ADD COLUMN read_token_sha256 BYTEA NULL;
