-- A figure the gate could not measure ("measured": "NaN") or that is not finite is kept as NULL, not measured:
-- PostgreSQL kept NaN and infinities, which no JSON answer can hold (the branch's budgets and series answered 500).
-- A limit that is not finite goes the same way. (PostgreSQL's NaN equals itself, so IN finds it.)
ALTER TABLE results ALTER COLUMN measured DROP NOT NULL;
UPDATE results SET measured = NULL WHERE measured IN ('NaN'::DOUBLE PRECISION, 'Infinity'::DOUBLE PRECISION, '-Infinity'::DOUBLE PRECISION);
UPDATE results SET limit_value = NULL WHERE limit_value IN ('NaN'::DOUBLE PRECISION, 'Infinity'::DOUBLE PRECISION, '-Infinity'::DOUBLE PRECISION);
