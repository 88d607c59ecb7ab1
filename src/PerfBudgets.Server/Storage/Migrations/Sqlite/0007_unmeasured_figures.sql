-- A figure the gate could not measure ("measured": "NaN") or that is not finite is kept as NULL, not measured:
-- SQLite turned NaN into NULL and refused it in the NOT NULL column (the upload answered 500), and kept infinities
-- that no JSON answer could then hold (the branch's budgets and series answered 500 for good). SQLite cannot drop a
-- NOT NULL, so the table is rebuilt; nothing refers to it. A limit that is not finite goes the same way.
CREATE TABLE results_new (
    run_id INTEGER NOT NULL REFERENCES runs(id),
    budget TEXT NOT NULL,
    kind TEXT NOT NULL,
    measured REAL NULL,
    limit_value REAL NULL,
    unit TEXT NOT NULL,
    verdict TEXT NOT NULL,
    noise REAL NULL,
    noise_absolute REAL NULL,
    measured_utc TEXT NULL,
    PRIMARY KEY (run_id, budget)
);

INSERT INTO results_new (run_id, budget, kind, measured, limit_value, unit, verdict, noise, noise_absolute, measured_utc)
SELECT run_id, budget, kind,
       CASE WHEN measured BETWEEN -1.7976931348623157e308 AND 1.7976931348623157e308 THEN measured END,
       CASE WHEN limit_value BETWEEN -1.7976931348623157e308 AND 1.7976931348623157e308 THEN limit_value END,
       unit, verdict, noise, noise_absolute, measured_utc
FROM results;

DROP TABLE results;
ALTER TABLE results_new RENAME TO results;
CREATE INDEX results_by_budget ON results(budget, run_id);
