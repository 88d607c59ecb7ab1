-- What each figure's results.json entry says besides the figure: the budget's noise threshold as the gate read it from
-- budgets.json (noise, relative in budgets.json's convention; noise_absolute, in the budget's unit; null where the run
-- did not record it), so change points take each budget's smallest step from the project's own runs, and when the
-- figure was measured (its timestampUtc), so the dashboard shows a run's own time rather than its upload's.
ALTER TABLE results ADD COLUMN noise REAL NULL;
ALTER TABLE results ADD COLUMN noise_absolute REAL NULL;
ALTER TABLE results ADD COLUMN measured_utc TEXT NULL;

-- The runs stored before: read from the results.json kept with each run (valid JSON: the upload checked it).
UPDATE results SET
    measured_utc = (SELECT CASE WHEN json_type(e.value, '$.timestampUtc') = 'text' THEN json_extract(e.value, '$.timestampUtc') END
                    FROM runs r, json_each(r.results_json, '$.results') e
                    WHERE r.id = results.run_id AND json_extract(e.value, '$.budget') = results.budget),
    noise = (SELECT CASE WHEN json_type(e.value, '$.noise') IN ('integer', 'real') THEN json_extract(e.value, '$.noise') END
             FROM runs r, json_each(r.results_json, '$.results') e
             WHERE r.id = results.run_id AND json_extract(e.value, '$.budget') = results.budget),
    noise_absolute = (SELECT CASE WHEN json_type(e.value, '$.noiseAbsolute') IN ('integer', 'real') THEN json_extract(e.value, '$.noiseAbsolute') END
                      FROM runs r, json_each(r.results_json, '$.results') e
                      WHERE r.id = results.run_id AND json_extract(e.value, '$.budget') = results.budget);
