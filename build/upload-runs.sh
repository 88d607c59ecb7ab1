#!/usr/bin/env bash
# Uploads recorded gate runs to a results server (`perfbudgets-server`) that is already running, with each run's real
# commit, its parents and its runtime, so the dashboard, the change points and the baselines can be checked on real
# data rather than on synthetic series.
#
#   build/upload-runs.sh URL PROJECT TOKEN_FILE RUN_DIR...
#
# Each RUN_DIR holds runs.csv (run,condition,exit_status,seconds,passed,failed,commit,started_utc) and run-K.json, the
# artifacts/budgets/results.json full `dotnet test` run K wrote (build/repeat-runs.sh). Give the folders in commit
# order; within a folder the runs go up by started_utc. A run listed in runs.csv without its run-K.json is skipped and
# said. Commits are resolved in the git repository of the current folder; the runtime is the one results.json
# records, the Valgrind version the one installed here (the runs do not record it). PERFBUDGETS overrides how the tool
# is started (default: the Release build of src/PerfBudgets.Tool next to this script).
set -euo pipefail
[ $# -ge 4 ] || { sed -n '6p' "$0" >&2; exit 2; }
url=$1 project=$2 token=$3; shift 3
root=$(cd "$(dirname "$0")/.." && pwd)
read -r -a tool <<< "${PERFBUDGETS:-dotnet $root/src/PerfBudgets.Tool/bin/Release/net10.0/PerfBudgets.Tool.dll}"
valgrind=$(valgrind --version 2>/dev/null || true)
for dir in "$@"; do
  tail -n +2 "$dir/runs.csv" | sort -t, -k8,8 | while IFS=, read -r run condition status _ _ _ short started; do
    json="$dir/run-$run.json"
    [ -f "$json" ] || { echo "skipped $dir run $run: no $json" >&2; continue; }
    commit=$(git rev-parse --verify "$short^{commit}")
    parents=$(git log -1 --format=%P "$commit" | tr ' ' ',')
    runtime=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["results"][0]["machine"]["runtime"])' "$json")
    echo "$dir run $run ($condition, exit $status, started $started): $commit"
    "${tool[@]}" upload --server "$url" --project "$project" --token-file "$token" --results "$json" \
      --commit "$commit" --branch main --parents "$parents" --ancestry 100 --runtime "$runtime" \
      ${valgrind:+--valgrind-version "$valgrind"}
  done
done
