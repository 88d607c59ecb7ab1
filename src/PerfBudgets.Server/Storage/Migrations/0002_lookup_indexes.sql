-- Lookups the API makes on every request: a project's runs of one commit (baseline), the runs naming a commit as
-- parent (ancestry walk) and one budget's series across runs.
CREATE INDEX runs_by_project_commit ON runs(project_id, commit_sha);
CREATE INDEX run_parents_by_parent ON run_parents(parent_sha);
CREATE INDEX results_by_budget ON results(budget, run_id);
