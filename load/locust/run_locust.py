#!/usr/bin/env python3
"""Runs Locust's own command line (every argument is Locust's), after making sure Locust knows its version.

Why: Debian's python3-locust 2.12.1 is built without its version string (locust/_version.py holds version = '').
A worker announces itself to the master with that string, and a master that receives an empty one takes the worker
for "an old (pre 2.0) worker", ignores it and waits for it forever (locust/runners.py, MasterRunner, "client_ready").
So before Locust's main() runs, this sets the version everywhere Locust copied it at import time. Master and workers
must all start through this launcher (or from a Locust that knows its version, the same one).
"""
import os
import subprocess
import sys
import time

import locust  # patches the standard library for gevent first, as the locust command does


def _packaged_version() -> str:
    """The version Locust should report: LOCUST_VERSION, else Debian's package version without its revision."""
    if os.environ.get("LOCUST_VERSION"):
        return os.environ["LOCUST_VERSION"]
    try:
        debian = subprocess.run(["dpkg-query", "-W", "-f=${Version}", "python3-locust"],
                                capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        debian = ""
    if not debian:
        sys.exit("run_locust.py: Locust has no version string and none could be found: set LOCUST_VERSION "
                 "to the version of Locust installed on the master and every worker (e.g. LOCUST_VERSION=2.12.1).")
    return debian.split("-")[0]  # 2.12.1-1 -> 2.12.1


def _write_csv_files_on_quit() -> None:
    """Makes --csv files complete when Locust exits.

    Why: Locust 2.12's CSV writer rewrites _stats.csv and appends to _stats_history.csv every second but flushes them
    only every 10 s (stats.CSV_STATS_FLUSH_INTERVAL_SEC), and nothing closes them at exit: a 10 s run ends with a history
    of one row and figures from before the last worker reports. So when Locust quits, after the final reports, this
    writes the final figures once more (as the writer's loop does) and closes the files.
    """
    from locust import stats

    original_init = stats.StatsCSVFileWriter.__init__

    def init(self, environment, *args, **kwargs):
        original_init(self, environment, *args, **kwargs)

        def write_final(**_):
            for handle, writer, header, rows in (
                (self.requests_csv_filehandle, self.requests_csv_writer, self.requests_csv_columns, self._requests_data_rows),
                (self.failures_csv_filehandle, self.failures_csv_writer, self.failures_columns, self._failures_data_rows),
                (self.exceptions_csv_filehandle, self.exceptions_csv_writer, self.exceptions_columns, self._exceptions_data_rows),
            ):
                handle.seek(0)
                writer.writerow(header)
                rows(writer)
                handle.truncate()
            self._stats_history_data_rows(self.stats_history_csv_writer, time.time())
            self.close_files()

        environment.events.quit.add_listener(write_final)

    stats.StatsCSVFileWriter.__init__ = init


def main() -> int:
    if not locust.__version__ or locust.__version__ == "0.0.0":
        version = _packaged_version()
        import locust.argument_parser as argument_parser
        import locust.runners as runners

        locust.__version__ = version
        runners.__version__ = version                 # sent by workers, compared by the master
        argument_parser.version = version             # --version
    _write_csv_files_on_quit()
    # Workers send their statistics to the master every 3 s (runners.WORKER_REPORT_INTERVAL), so the master's
    # per-second history would move in 3-second steps; once a second makes _stats_history.csv a per-second series.
    import locust.runners as runners

    runners.WORKER_REPORT_INTERVAL = 1.0
    import locust.main as locust_main

    locust_main.version = locust.__version__          # the "Starting Locust ..." line
    return locust_main.main()


if __name__ == "__main__":
    sys.exit(main())
