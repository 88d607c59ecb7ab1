-- What each figure's results.json entry says besides the figure: the budget's noise threshold as the gate read it from
-- budgets.json (noise, relative in budgets.json's convention; noise_absolute, in the budget's unit; null where the run
-- did not record it), so change points take each budget's smallest step from the project's own runs, and when the
-- figure was measured (its timestampUtc), so the dashboard shows a run's own time rather than its upload's.
-- (Sqlite/0005 in PostgreSQL's words: json_array_elements for json_each.)
ALTER TABLE results ADD COLUMN noise DOUBLE PRECISION NULL;
ALTER TABLE results ADD COLUMN noise_absolute DOUBLE PRECISION NULL;
ALTER TABLE results ADD COLUMN measured_utc TEXT NULL;

-- The runs stored before: read from the results.json kept with each run (valid JSON: the upload checked it).
UPDATE results x SET
    measured_utc = CASE WHEN json_typeof(e.entry -> 'timestampUtc') = 'string' THEN e.entry ->> 'timestampUtc' END,
    noise = CASE WHEN json_typeof(e.entry -> 'noise') = 'number' THEN (e.entry ->> 'noise')::DOUBLE PRECISION END,
    noise_absolute = CASE WHEN json_typeof(e.entry -> 'noiseAbsolute') = 'number' THEN (e.entry ->> 'noiseAbsolute')::DOUBLE PRECISION END
FROM runs r, json_array_elements(r.results_json::json -> 'results') AS e(entry)
WHERE r.id = x.run_id AND e.entry ->> 'budget' = x.budget;
