#!/usr/bin/env python3
"""Distributed load on Locust, gated by the perfbudgets tool: the Cake target Load.Distributed runs this.

A headless Locust master and --workers local workers run GET /api/employees?count=9 (locustfile.py, class Employees9)
against --target-url: a warm-up run (its own run: JIT, pools, connections), then a measured run whose CSV statistics
`perfbudgets locust` gates against Json.Endpoint.Employees9.Distributed.* and records in results.json. With --netns,
netns-run.sh runs the server (--server), the master and two workers in network namespaces of their own (root).
Every process it starts is killed if a run has not ended 120 s after its run time, so it always ends.

    python3 load/locust/distributed.py --target-url URL --tool PerfBudgets.Tool.dll --budgets budgets.json \
        --csv-folder artifacts/budgets/locust [--workers 2] [--expect-workers N] [--users 16] ...
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SCENARIO = "Json.Endpoint.Employees9.Distributed"


def arguments():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--target-url", required=True, help="the server (ignored with --netns)")
    p.add_argument("--tool", required=True, help="PerfBudgets.Tool.dll, whose locust command gates the run")
    p.add_argument("--budgets", required=True, help="budgets.json")
    p.add_argument("--csv-folder", required=True, help="where Locust's CSV statistics go")
    p.add_argument("--workers", type=int, default=2, help="local workers (default 2)")
    p.add_argument("--expect-workers", type=int, help="workers the master waits for (default --workers)")
    p.add_argument("--master-bind", default="127.0.0.1")
    p.add_argument("--master-port", type=int, default=0, help="0: a free port")
    p.add_argument("--users", type=int, default=16)
    p.add_argument("--locust-seconds", type=int, default=10)
    p.add_argument("--locust-warmup-seconds", type=int, default=3)
    p.add_argument("--netns", action="store_true")
    p.add_argument("--server", help="SystemUnderTest.dll, for --netns")
    a = p.parse_args()
    a.expect_workers = a.workers if a.expect_workers is None else a.expect_workers
    if (a.workers < 0 or a.expect_workers < 1 or a.users < 1 or not 1 <= a.locust_seconds <= 3600
            or not 0 <= a.locust_warmup_seconds <= 600):
        p.error("--workers >= 0, --expect-workers >= 1, --users >= 1, --locust-seconds 1 to 3600 and "
                "--locust-warmup-seconds 0 to 600.")
    return a


def locust_python():
    """The interpreter that runs the locust command: the one that can import locust (a pyenv python3 may not)."""
    locust = shutil.which("locust")
    if locust is None:
        sys.exit("Load.Distributed needs Locust, and there is no `locust` on PATH. Install it: `sudo apt-get install "
                 "python3-locust` (Debian/Ubuntu, 2.12.1; load/locust/run_locust.py works around its empty version "
                 "string) or `pip install locust`; then run `dotnet cake --target=Load.Distributed` again.")
    with open(locust, encoding="utf-8", errors="replace") as f:
        shebang = f.readline().strip()
    return shebang[2:].strip() if shebang.startswith("#!") and "/env " not in shebang else "python3"


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_locust(a, python, master_port, prefix, seconds):
    """One headless run: the master, then the workers; all are killed if the run has not ended in time."""
    locust = [python, os.path.join(HERE, "run_locust.py"), "-f", os.path.join(HERE, "locustfile.py")]
    master_host = "127.0.0.1" if a.master_bind in ("0.0.0.0", "*") else a.master_bind
    processes = [subprocess.Popen(locust + [
        "--master", "--master-bind-host", a.master_bind, "--master-bind-port", str(master_port),
        "--expect-workers", str(a.expect_workers), "--expect-workers-max-wait", "60", "--headless",
        "-u", str(a.users), "-r", str(a.users), "--run-time", f"{seconds}s", "--stop-timeout", "5",
        "--csv", prefix, "--csv-full-history", "--only-summary", "--host", a.target_url, "Employees9"])]
    try:
        for _ in range(a.workers):
            processes.append(subprocess.Popen(locust + ["--worker", "--master-host", master_host,
                                                        "--master-port", str(master_port)]))
        try:
            processes[0].wait(timeout=seconds + 120)
        except subprocess.TimeoutExpired:
            sys.exit(f"The Locust master did not end within {seconds + 120} s of a {seconds} s run.")
        for worker in processes[1:]:
            try:
                worker.wait(timeout=15)
            except subprocess.TimeoutExpired:
                pass
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()


def gate(a, measured, warmup, phases):
    command = ["dotnet", a.tool, "locust", measured, "--scenario", SCENARIO, "--users", str(a.users),
               "--phases", phases, "--budgets", a.budgets]
    if warmup:
        command += ["--warmup-prefix", warmup]
    if subprocess.call(command) != 0:
        sys.exit(f"Load.Distributed: a {SCENARIO} budget is broken or the statistics could not be read "
                 "(perfbudgets locust failed; see above).")


def main():
    a = arguments()
    python = locust_python()
    os.makedirs(a.csv_folder, exist_ok=True)
    warm = f"{a.locust_warmup_seconds} s warm-up run + {a.locust_seconds} s"
    if a.netns:
        if not a.server:
            sys.exit("--netns needs --server SystemUnderTest.dll")
        prefix = os.path.join(a.csv_folder, "netns")
        if subprocess.call(["bash", os.path.join(HERE, "netns-run.sh"), str(a.users), str(a.locust_warmup_seconds),
                            str(a.locust_seconds), prefix], env=dict(os.environ, PYTHON=python, SERVER_DLL=a.server)):
            sys.exit("Load.Distributed --netns: load/locust/netns-run.sh failed.")
        gate(a, prefix + "-measured", prefix + "-warmup" if a.locust_warmup_seconds > 0 else None,
             f"Locust 2 workers + master + server in 4 network namespaces, {a.users} users (closed, no wait), {warm}")
        return
    master_port = a.master_port or free_port()
    print(f"Locust at {python}: master on {a.master_bind}:{master_port}, {a.workers} local workers, "
          f"{a.expect_workers} expected; {a.users} users against {a.target_url}.", flush=True)
    if a.expect_workers > a.workers:
        print(f"Waiting for {a.expect_workers - a.workers} more worker(s); on each other machine, from a clone of this "
              "repository:\n  python3 load/locust/run_locust.py -f load/locust/locustfile.py --worker "
              f"--master-host <this machine's address> --master-port {master_port}", flush=True)
    warmup = None
    if a.locust_warmup_seconds > 0:
        # The warm-up is a run of its own, so the measured run's percentiles are Locust's own over its whole window;
        # its failures still count.
        warmup = os.path.join(a.csv_folder, "warmup")
        print(f"Warm-up run: {a.locust_warmup_seconds} s", flush=True)
        run_locust(a, python, master_port, warmup, a.locust_warmup_seconds)
    measured = os.path.join(a.csv_folder, "measured")
    print(f"Measured run: {a.locust_seconds} s", flush=True)
    run_locust(a, python, master_port, measured, a.locust_seconds)
    gate(a, measured, warmup, f"Locust {a.expect_workers} workers, {a.users} users (closed, no wait), {warm}, "
                              f"{os.cpu_count()} cores")


if __name__ == "__main__":
    main()
