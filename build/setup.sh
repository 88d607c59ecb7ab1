#!/usr/bin/env bash
# Installs the Debian packages the suites need when this machine lacks them, before anything is built or run; where it
# cannot (no apt-get, not root and no passwordless sudo), it says in one line per package what is missing and how to
# get it, and exits 1. The Cake target Setup (the first step of `dotnet cake`) and .ci/run run it.
#   - valgrind: the counted CPU budgets run under Callgrind (without it they are reported as not measured, and under
#     CI=true they fail);
#   - postgresql: the results server's tests start a throw-away cluster (initdb, pg_ctl);
#   - chromium: the results server's tests load the dashboard in headless chromium.
# PERF_SKIP_POSTGRES=1 / PERF_SKIP_BROWSER=1 leave PostgreSQL / chromium out (their tests then fail unless the same
# variables are set for `dotnet test`), PERF_INSTRUCTIONS=off leaves Valgrind out.
set -uo pipefail

missing=()
has() { command -v "$1" >/dev/null 2>&1; }
[[ ${PERF_INSTRUCTIONS:-} == off ]] || has valgrind || missing+=("valgrind|valgrind|the counted CPU budgets (PERF_INSTRUCTIONS=off leaves them out)")
[[ ${PERF_SKIP_POSTGRES:-} == 1 ]] || compgen -G '/usr/lib/postgresql/*/bin/initdb' >/dev/null || has initdb \
  || missing+=("postgresql|initdb|the results server's PostgreSQL tests (PERF_SKIP_POSTGRES=1 leaves them out)")
[[ ${PERF_SKIP_BROWSER:-} == 1 ]] || has chromium || has chromium-browser \
  || missing+=("chromium|chromium|the dashboard's browser tests (PERF_SKIP_BROWSER=1 leaves them out)")

[[ ${#missing[@]} == 0 ]] && { echo "setup: valgrind, PostgreSQL and chromium are here"; exit 0; }

packages=()
for entry in "${missing[@]}"; do packages+=("${entry%%|*}"); done
if has apt-get; then
  if [[ $(id -u) == 0 ]]; then as_root=(); elif sudo -n true 2>/dev/null; then as_root=(sudo -n); else as_root=(none); fi
  if [[ ${as_root[*]-} != none ]]; then
    echo "setup: installing Debian's ${packages[*]}"
    "${as_root[@]}" apt-get update -qq \
      && "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null \
      && { echo "setup: installed ${packages[*]}"; exit 0; }
    echo "setup: apt-get could not install ${packages[*]}" >&2
  fi
fi

for entry in "${missing[@]}"; do
  IFS='|' read -r package program needed_by <<<"$entry"
  echo "setup: $program not found, needed by $needed_by: install it with 'sudo apt-get install $package' (or your system's package)" >&2
done
exit 1
