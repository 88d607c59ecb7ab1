#!/usr/bin/env bash
# Runs the README's `dotnet test` N times, one after another, on unchanged code, and keeps what each run measured:
# the evidence behind docs/data/full-run-determinism.csv (summarised by build/determinism.py).
#
#   build/repeat-runs.sh OUT N [BUSY_EVERY] [FIRST]
#
# OUT gets run-K.json (artifacts/budgets/results.json of run K), run-K.log (the console), and one line per run in
# runs.csv: run, condition, exit status, seconds, tests passed and failed (from the TRX files), and at the end skipped. With BUSY_EVERY = 3,
# runs 1, 4, 7, ... run beside two busy loops (`sh -c 'while :; do :; done'`, twice), so a run cut short still holds
# the same mix. FIRST (default 1) numbers the first run, so a series cut short goes on in the same OUT with the same
# mix: `build/repeat-runs.sh OUT 10 3 21` adds runs 21 to 30. SUITE (an environment variable, default: all) runs one
# suite's project instead, as `SUITE=tests/Load` for a series of the timed load budgets alone; FILTER narrows it to
# some tests, as `SUITE=tests/Load FILTER=FullyQualifiedName~VsBase` for the paired budgets (build/paired-runs.py
# summarises those). Run it from the root of a fresh clone, or of a copy of the samples made as an adopter holds them
# (`build/consumer.sh ../samples`, then `git init` and one commit there, and PERF_BASE_COMMIT=HEAD for the paired budget) with
# SUITE=Samples.slnx: the evidence behind docs/data/sample-runs.csv (build/sample-runs.py). Each line of runs.csv
# also keeps the machine's load average over the minute before the run started.
set -uo pipefail
out=${1:?OUT directory}
count=${2:?number of runs}
busy_every=${3:-0}
first=${4:-1}
mkdir -p "$out"
[ -f "$out/runs.csv" ] || echo "run,condition,exit_status,seconds,passed,failed,commit,started_utc,load_1min,skipped" >"$out/runs.csv"
commit=$(git rev-parse --short HEAD)

# The busy loops of a run stop with it, and with the script when it is stopped or interrupted mid-run.
loops=()
stop_loops() { for pid in "${loops[@]}"; do kill "$pid" 2>/dev/null; done; loops=(); }
trap stop_loops EXIT
trap 'exit 130' INT TERM

for ((k = first; k < first + count; k++)); do
    condition=quiet
    loops=()
    if [ "$busy_every" -gt 0 ] && [ $(((k - 1) % busy_every)) -eq 0 ]; then
        condition="beside two busy loops"
        for _ in 1 2; do
            sh -c 'while :; do :; done' &
            loops+=($!)
        done
    fi

    rm -rf artifacts/budgets artifacts/test-results
    started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "")
    start=$(date +%s)
    # In the background and waited for: a signal then stops the script (and its loops) at once, not after the run.
    dotnet test ${SUITE:-} ${FILTER:+--filter "$FILTER"} --logger trx --results-directory artifacts/test-results >"$out/run-$k.log" 2>&1 &
    wait $!
    status=$?
    seconds=$(($(date +%s) - start))
    stop_loops

    passed=0
    failed=0
    skipped=0
    for trx in artifacts/test-results/*.trx; do
        counters=$(grep -o '<Counters [^>]*>' "$trx" | head -n 1)
        p=$(sed -n 's/.* passed="\([0-9]*\)".*/\1/p' <<<"$counters")
        f=$(sed -n 's/.* failed="\([0-9]*\)".*/\1/p' <<<"$counters")
        t=$(sed -n 's/.* total="\([0-9]*\)".*/\1/p' <<<"$counters")
        e=$(sed -n 's/.* executed="\([0-9]*\)".*/\1/p' <<<"$counters")
        passed=$((passed + ${p:-0}))
        failed=$((failed + ${f:-0}))
        skipped=$((skipped + ${t:-0} - ${e:-0})) # the TRX writer counts a skipped test as not executed, as .ci/run does
    done

    cp artifacts/budgets/results.json "$out/run-$k.json" 2>/dev/null || echo "run $k wrote no results.json" >&2
    echo "$k,$condition,$status,$seconds,$passed,$failed,$commit,$started,$load,$skipped" >>"$out/runs.csv"
    echo "run $k ($condition): exit $status, ${seconds} s, $passed passed, $failed failed, $skipped skipped"
done
