#!/usr/bin/env python3
"""Summarises a series of runs of the paired budgets (build/repeat-runs.sh with FILTER) into docs/data CSV tables.

    build/paired-runs.py RUNS_DIR PROVENANCE [--name NAME] [--with-earlier CSV]

RUNS_DIR holds run-K.json (each run's results.json) and runs.csv. Writes:
  docs/data/paired-runs[-NAME].csv: one line per run and paired budget: the run's condition, head / base, the
      interval's ends and width (upper / lower - 1), the limit and the verdict.
  docs/data/paired-determinism[-NAME].csv: per paired budget over the runs: the estimates' median and range, the
      widest interval, the gated end nearest failing (the figure the gate judged: under the `catch` rule the upper end
      of a ceiling's interval that lies above 1, else its lower end; under `beyond` always the lower end; a floor
      mirrors it), the limit, and the failed runs.
The first line of each is '# ' + PROVENANCE, as the Docs target expects. With --with-earlier, the rows of an earlier
series' paired-runs CSV (whose run files are gone) come first, and the determinism table is over both series. With
--adaptive (comparisons that spend pairs of processes until decided), both tables add the pairs of processes each
comparison ran (for rounds that each start their own processes, as the start's, its pairs of rounds) and where it
stopped: the look that decided it, the cap, or (for a figure measured beside others by the same pairs of processes)
the look where the others' decision stopped it undecided.
"""
import csv
import json
import re
import statistics
import sys
from pathlib import Path

PROCESSES = re.compile(r"over (\d+) pairs of processes")
STOP = re.compile(r"decided at look (\d+) of \d+ \((\d+) of at most \d+ pairs of processes\)|not decided at the cap \((\d+) pairs of processes"
                  r"|not decided where the other figures of the same pairs of processes stopped the comparison \(look (\d+) of \d+, (\d+) pairs of processes")
DETAIL = re.compile(r"head/base ([0-9.]+), ([0-9.]+)% interval ([0-9.]+)-([0-9.]+) \((?:Hodges-Lehmann|Student's t over \d+ pairs of processes, the geometric mean of their Hodges-Lehmann estimates|Yuen's trimmed t over \d+ pairs of processes, \d+ trimmed from each end, the trimmed geometric mean of their Hodges-Lehmann estimates) over (\d+) pairs after (\d+) of warm-up\)")


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    runs_dir, provenance = Path(argv[1]), argv[2]
    name = argv[argv.index("--name") + 1] if "--name" in argv else None
    adaptive = "--adaptive" in argv
    suffix = f"-{name}" if name else ""
    conditions = {row["run"]: row["condition"] for row in csv.DictReader(open(runs_dir / "runs.csv"))}
    rows = earlier_rows(Path(argv[argv.index("--with-earlier") + 1])) if "--with-earlier" in argv else []
    for path in sorted(runs_dir.glob("run-*.json"), key=lambda p: int(p.stem.split("-")[1])):
        run = path.stem.split("-")[1]
        for result in json.load(open(path))["results"]:
            if not result["kind"].startswith("vs-base-ratio"):
                continue
            match = DETAIL.search(result.get("detail") or "")
            if not match:
                continue
            estimate, _, lower, upper, pairs, warm = match.groups()
            processes = PROCESSES.search(result["detail"])
            stop = STOP.search(result["detail"])
            rows.append({
                "run": run, "condition": conditions.get(run, ""), "budget": result["budget"], "kind": result["kind"],
                "head_/_base": float(estimate), "lower": float(lower), "upper": float(upper),
                "width": float(upper) / float(lower) - 1, "pairs": int(pairs), "warm-up_pairs": int(warm),
                "limit": result["limit"], "verdict": result["verdict"], "gated": float(result["measured"]),
                # Pooled pairs of processes say so in the interval; rounds that each start their own processes (a start
                # run until decided) count them where the comparison stopped.
                "processes": int(processes.group(1)) if processes else int(stop.group(2) or stop.group(3) or stop.group(5)) if stop else 1,
                # A figure that the others' decision stopped, itself undecided, is not counted as decided.
                "stopped": (f"look {stop.group(1)}" if stop.group(1) else "cap" if stop.group(3) else f"undecided at look {stop.group(4)}") if stop else "",
            })
    # An earlier series and a later one may fill each other's gaps: the rows go by run.
    rows.sort(key=lambda r: int(r["run"]))
    out = Path(__file__).resolve().parent.parent / "docs" / "data"
    with open(out / f"paired-runs{suffix}.csv", "w", newline="") as f:
        f.write(f"# {provenance}\n")
        writer = csv.writer(f)
        writer.writerow(["run", "condition", "budget", "head_/_base", "interval", "width", "limit", "verdict"]
                        + (["pairs_of_processes", "stopped"] if adaptive else []))
        for r in rows:
            writer.writerow([r["run"], r["condition"], f"`{r['budget']}`", f"{r['head_/_base']:.3f}",
                             f"{r['lower']:.3f}-{r['upper']:.3f}", f"{r['width'] * 100:.1f}%", r["limit"], r["verdict"]]
                            + ([r["processes"], r["stopped"]] if adaptive else []))
    with open(out / f"paired-determinism{suffix}.csv", "w", newline="") as f:
        f.write(f"# {provenance}\n")
        writer = csv.writer(f)
        writer.writerow(["budget", "runs", "head_/_base_median", "min_/_max", "widest_interval_quiet", "widest_interval_busy", "gated_end_nearest_failing", "limit", "failed"]
                        + (["pairs_of_processes_median_(min-max)", "decided", "intervals_holding_1"] if adaptive else []))
        for budget in sorted({r["budget"] for r in rows}):
            mine = [r for r in rows if r["budget"] == budget]
            ceiling = mine[0]["kind"] == "vs-base-ratio-max"
            near = (max if ceiling else min)(mine, key=gated)
            quiet = [r["width"] for r in mine if r["condition"] == "quiet"]
            busy = [r["width"] for r in mine if r["condition"] != "quiet"]
            writer.writerow([f"`{budget}`", len(mine), f"{statistics.median(r['head_/_base'] for r in mine):.3f}",
                             f"{min(r['head_/_base'] for r in mine):.3f} / {max(r['head_/_base'] for r in mine):.3f}",
                             f"{max(quiet) * 100:.1f}%" if quiet else "", f"{max(busy) * 100:.1f}%" if busy else "",
                             f"{gated(near):.3f} ({'lower' if abs(gated(near) - near['lower']) <= abs(gated(near) - near['upper']) else 'upper'})", mine[-1]["limit"],
                             sum(1 for r in mine if r["verdict"] != "pass")]
                            + ([f"{statistics.median(r['processes'] for r in mine):g} ({min(r['processes'] for r in mine)}-{max(r['processes'] for r in mine)})",
                                sum(1 for r in mine if r["stopped"].startswith("look")),
                                sum(1 for r in mine if r["lower"] <= 1 <= r["upper"])] if adaptive else []))


def gated(row):
    """The interval's end the gate judged: the run's own figure, or for an earlier series' row (recorded before the
    `catch` rule) the end nearest passing, as `beyond` judges."""
    if row.get("gated") is not None:
        return row["gated"]
    return row["lower"] if row["kind"] == "vs-base-ratio-max" else row["upper"]


def earlier_rows(path):
    """The rows of an earlier paired-runs CSV, each budget's kind read from budgets.json."""
    root = Path(__file__).resolve().parent.parent
    kinds = {b["name"]: b["kind"] for b in json.load(open(root / "budgets.json"))["budgets"]}
    lines = [line for line in open(path) if not line.startswith("#")]
    rows = []
    for r in csv.DictReader(lines):
        budget = r["budget"].strip("`")
        lower, upper = (float(x) for x in r["interval"].split("-"))
        rows.append({
            "run": r["run"], "condition": r["condition"], "budget": budget, "kind": kinds[budget],
            "head_/_base": float(r["head_/_base"]), "lower": lower, "upper": upper, "width": upper / lower - 1,
            "limit": r["limit"], "verdict": r["verdict"],
        })
    return rows


if __name__ == "__main__":
    main(sys.argv)
