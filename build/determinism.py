#!/usr/bin/env python3
"""Summarises the runs kept by build/repeat-runs.sh into docs/data CSV tables.

    build/determinism.py RUNS_DIR PROVENANCE [--artifacts DIR] [--name NAME]

RUNS_DIR holds run-K.json (each run's results.json) and runs.csv. Writes:
  docs/data/full-run-determinism.csv: per gated budget, over every run: the median, min / max, the largest deviation
      from the median (percent of the median), the limit, in how many runs it needed a second attempt or a recount,
      and in how many it failed or was not measured.
  docs/data/full-run-determinism-counted.csv: the same, the counted budgets only (the README's table).
  docs/data/full-runs.csv: per run: its condition, exit status, time and tests.
The first line of each is '# ' + PROVENANCE, as the Docs target expects. With --name NAME the three files are
full-run-determinism-NAME.csv, full-run-determinism-counted-NAME.csv and full-runs-NAME.csv (a series of another
commit, kept beside the one the README shows).
With --artifacts DIR, it also writes DIR/results.json (the last run's) and DIR/history.jsonl (every run's gated and
reported figures, one run id per run), so that `dotnet cake --target=Docs` fills the budget tables of docs/ with the
figures of all the runs (runs, failed, min, median, max, spread) instead of one.
"""
import csv
import json
import statistics
import sys
from pathlib import Path

GROUPS = [
    ("counted", ("instructions-max", "syscalls-max", "cycles-max", "growth-exponent-max")),
    ("allocated", ("allocated-bytes-per-op", "bytes-max", "collections-max")),
    ("memory", ("retained-bytes-per-op-max", "instances-max", "working-set-bytes-max", "gc-committed-bytes-max")),
    ("tail", ("p99-cpu-ms-per-request-max", "p99-to-p50-cpu-per-request-max")),
]


def group_of(kind):
    for name, kinds in GROUPS:
        if kind in kinds:
            return name
    return "timed"


def number(x):
    if x is None:
        return ""
    if abs(x) >= 1000:
        return f"{x:,.0f}"
    if abs(x) >= 10:
        return f"{x:,.1f}"
    return f"{x:.4g}"


def retried(detail):
    detail = detail or ""
    return ("attempt " in detail and "earlier attempts broke" in detail) or "counted twice" in detail or "lowest of" in detail


def main():
    runs_dir = Path(sys.argv[1])
    provenance = sys.argv[2]
    root = Path(__file__).resolve().parent.parent
    runs = sorted(runs_dir.glob("run-*.json"), key=lambda p: int(p.stem.split("-")[1]))
    by_budget = {}
    for path in runs:
        for r in json.loads(path.read_text())["results"]:
            if r["kind"] == "info":
                continue
            by_budget.setdefault(r["budget"], []).append(r)

    rows = []
    for name, results in by_budget.items():
        kind = results[0]["kind"]
        measured = [r["measured"] for r in results if r["verdict"] in ("pass", "fail") and r["measured"] is not None]
        failed = sum(r["verdict"] == "fail" for r in results)
        not_measured = sum(r["verdict"] not in ("pass", "fail") for r in results)
        again = sum(retried(r.get("detail")) for r in results)
        limit = results[-1]["limit"]
        if measured:
            median = statistics.median(measured)
            deviation = max(abs(m - median) for m in measured)
            # An exponent's margin is in exponent units, and a figure whose unchanged value is about zero (a flat
            # growth, the bytes a leak budget sees) has no useful percent: those deviations are absolute.
            absolute = kind in ("growth-exponent-max", "retained-bytes-per-op-max", "instances-max") or not median
            relative = f"±{number(deviation)}" if absolute else f"{100 * deviation / abs(median):.3f}%"
            spread = f"{number(min(measured))} / {number(max(measured))}"
        else:
            median, relative, spread = None, "", ""
        rows.append((GROUPS_ORDER.get(group_of(kind), 9), name, group_of(kind), kind, results[-1]["unit"], len(results),
                     number(median), spread, relative, number(limit), again, failed, not_measured))

    rows.sort()
    header = ["budget", "group", "kind", "unit", "runs", "median", "min_/_max", "largest_deviation_from_median",
              "limit", "runs_with_a_second_attempt_or_recount", "failed", "not_measured"]
    suffix = f"-{sys.argv[sys.argv.index('--name') + 1]}" if "--name" in sys.argv else ""
    out = root / "docs" / "data" / f"full-run-determinism{suffix}.csv"
    counted = root / "docs" / "data" / f"full-run-determinism-counted{suffix}.csv"
    for path, keep in ((out, lambda row: True), (counted, lambda row: row[2] == "counted")):
        with path.open("w", newline="") as f:
            f.write(f"# {provenance}\n")
            w = csv.writer(f)
            w.writerow(header)
            for row in rows:
                if keep(row):
                    w.writerow([f"`{row[1]}`", *row[2:]])

    summary = root / "docs" / "data" / f"full-runs{suffix}.csv"
    with summary.open("w", newline="") as f:
        f.write(f"# {provenance}\n")
        w = csv.writer(f)
        lines = list(csv.DictReader((runs_dir / "runs.csv").open()))
        # A series kept by a newer repeat-runs.sh has the machine's load average as each run started.
        with_load = bool(lines) and "load_1min" in lines[0]
        w.writerow(["run", "condition", "exit_status", "time", "tests_passed", "tests_failed"] + (["load_average_at_start"] if with_load else []))
        for line in lines:
            seconds = int(line["seconds"])
            w.writerow([line["run"], line["condition"], line["exit_status"], f"{seconds // 60} min {seconds % 60:02d} s",
                        line["passed"], line["failed"]] + ([line["load_1min"]] if with_load else []))
    if "--artifacts" in sys.argv:
        artifacts = Path(sys.argv[sys.argv.index("--artifacts") + 1])
        artifacts.mkdir(parents=True, exist_ok=True)
        (artifacts / "results.json").write_text(runs[-1].read_text())
        with (artifacts / "history.jsonl").open("w") as f:
            for path in runs:
                for r in json.loads(path.read_text())["results"]:
                    line = {"runId": path.stem, "commit": None, "budget": r["budget"], "kind": r["kind"],
                            "measured": r["measured"], "limit": r["limit"], "unit": r["unit"], "verdict": r["verdict"],
                            "profile": r["profile"], "timestampUtc": r["timestampUtc"]}
                    f.write(json.dumps(line) + "\n")
    print(f"{len(runs)} runs, {len(rows)} budgets: {out.relative_to(root)}, {summary.relative_to(root)}")


GROUPS_ORDER = {"counted": 0, "allocated": 1, "memory": 2, "tail": 3, "timed": 4}

if __name__ == "__main__":
    main()
