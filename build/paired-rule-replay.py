#!/usr/bin/env python3
"""Replays recorded series of paired budgets under both rules (docs/paired-budgets.md#the-rule-catch-or-beyond).

    build/paired-rule-replay.py > docs/data/paired-rule-replay.csv

Reads the series in docs/data (each run's last attempt: its interval and limit) and counts, per series and budget, the
intervals that lie wholly on the limit's side of 1 (a change shown), the runs `beyond` fails (the whole interval past
the limit) and the runs `catch` would fail (a change shown and the far end past the limit). The replay judges each
interval where its comparison stopped under the rule it ran with; under the other rule an adaptive comparison would
have stopped elsewhere, so it shows which budgets' intervals can bear `catch`, not what a run under it reads.
"""
import csv
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "docs" / "data"
SERIES = [
    ("unchanged", "paired-runs.csv"),
    ("unchanged", "paired-runs-echo-json.csv"),
    ("unchanged", "paired-runs-startup.csv"),
    ("unchanged", "paired-runs-samples-eight-pairs.csv"),
    ("unchanged", "paired-runs-adaptive-json-unchanged.csv"),
    ("paired-cpu.patch", "paired-runs-cpu-break.csv"),
    ("paired-throughput.patch", "paired-runs-throughput-break.csv"),
    ("paired-json.patch at 2,500", "paired-runs-adaptive-json-break5.csv"),
    ("unchanged, run until decided under catch", "paired-runs-startup-adaptive-unchanged.csv"),
    ("startup-cpu-tenth.patch, run until decided under catch", "paired-runs-startup-adaptive-break10.csv"),
]


def main():
    out = csv.writer(sys.stdout, lineterminator="\n")
    print("# Each recorded series of the paired budgets (docs/data, each run's last attempt) judged again under both rules by "
          "build/paired-rule-replay.py: a change shown is an interval wholly on the limit's side of 1; beyond fails a whole "
          "interval past the limit; catch fails a change shown whose far end is past the limit. Each interval is where its "
          "comparison stopped under the rule it ran with (beyond, but for the two series that say catch)")
    out.writerow(["series", "file", "budget", "runs", "limit", "a change shown", "beyond fails", "catch would fail"])
    for series, name in SERIES:
        rows = list(csv.DictReader(line for line in open(DATA / name) if not line.startswith("#")))
        budgets = {}
        for row in rows:
            try:
                lower, upper = (float(x) for x in row["interval"].split("-"))
                limit = float(row["limit"])
            except ValueError:
                continue
            ceiling = limit > 1
            shown = lower > 1 if ceiling else upper < 1
            beyond = lower > limit if ceiling else upper < limit
            catch = beyond or (shown and (upper > limit if ceiling else lower < limit))
            counts = budgets.setdefault((row["budget"], row["limit"] if len({r["limit"] for r in rows if r["budget"] == row["budget"]}) == 1 else "varied"), [0, 0, 0, 0])
            counts[0] += 1
            counts[1] += shown
            counts[2] += beyond
            counts[3] += catch
        for (budget, limit), (runs, shown, beyond, catch) in budgets.items():
            out.writerow([series, f"[{name}](data/{name})", budget, runs, limit, shown, beyond, catch])


if __name__ == "__main__":
    main()
