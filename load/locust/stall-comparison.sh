#!/usr/bin/env bash
# The stall test through Locust, beside the open-model runner: GET /api/employees?count=9 on the system under test
# (Release, its own process on loopback), and one second into each measured window the server is stopped for 1 s
# (SIGSTOP ... SIGCONT: nothing in it runs, as in a long GC pause; requests wait in the socket backlog). Four runs,
# each 3 s measured after a short warm-up:
#   open      perfbudgets load --rate 200 (our runner, open model: latency from each request's intended start)
#   closed    perfbudgets load --connections 4 (our runner, closed model)
#   locust    Locust, 4 users with no wait (closed loops)
#   paced     Locust, 40 users with constant_pacing(0.2 s): 200 req/s offered while the server keeps up
# and prints one CSV row per run (model, requests, p50, p95, p99, max). Bounded: every run ends by itself.
#
#   load/locust/stall-comparison.sh [OUT.csv]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
python=${PYTHON:-/usr/bin/python3}
out=${1:-/dev/stdout}
work=$(mktemp -d)
port=$((20000 + RANDOM % 20000))
url="http://127.0.0.1:$port"
tool="$repo/src/PerfBudgets.Tool/bin/Release/net10.0/PerfBudgets.Tool.dll"
app="$repo/src/SystemUnderTest/bin/Release/net10.0/SystemUnderTest.dll"
[[ -f $tool && -f $app ]] || { echo "stall-comparison.sh: build first: dotnet build -c Release src/SystemUnderTest src/PerfBudgets.Tool" >&2; exit 1; }

dotnet "$app" --urls "$url" --Logging:LogLevel:Default=Warning > "$work/server.log" 2>&1 &
server=$!
trap 'kill -CONT $server 2>/dev/null; kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$work"' EXIT
for _ in $(seq 60); do curl -sf -o /dev/null "$url/api/employees?count=9" && break; sleep 0.5; done

# STALL_AFTER seconds after LOG shows PATTERN, stop the server for 1 s.
stall_when() { # LOG PATTERN DELAY
  for _ in $(seq 300); do grep -q "$2" "$1" 2>/dev/null && break; sleep 0.05; done
  sleep "$3"; kill -STOP $server; sleep 1; kill -CONT $server
}

ours() { # NAME ARGS...
  local name=$1; shift
  timeout 60 dotnet "$tool" load "$url" --path "/api/employees?count=9" --warmup 0.5 --duration 3 "$@" > "$work/$name.log" 2>&1 &
  local pid=$!
  stall_when "$work/$name.log" "^GET " 1.5   # 0.5 s warm-up, then one second into the window
  wait $pid || true
  # "... p50=1.02 p75=... p95=... p99=... max=... ms" from the result line; the request count from ok=.
  grep -m1 "^load (" "$work/$name.log" | sed -E 's/.*ok=([0-9]+).*p50=([0-9.]+).*p95=([0-9.]+) p99=([0-9.]+) max=([0-9.]+) ms.*/\1,\2,\3,\4,\5/' | sed "s/^/$name,/"
}

locust() { # NAME USERS PACING
  local name=$1 users=$2 pacing=$3
  # A warm-up run of 2 s, then the measured run of 3 s; Locust logs "All users spawned" as the window starts.
  PACING_SECONDS=$pacing timeout 60 "$python" "$here/run_locust.py" -f "$here/locustfile.py" --headless -u "$users" -r 1000 \
    --run-time 2s --host "$url" --only-summary Employees9 > /dev/null 2>&1 || true
  PACING_SECONDS=$pacing timeout 60 "$python" "$here/run_locust.py" -f "$here/locustfile.py" --headless -u "$users" -r 1000 \
    --run-time 3s --host "$url" --csv "$work/$name" --only-summary Employees9 > "$work/$name.log" 2>&1 &
  local pid=$!
  stall_when "$work/$name.log" "All users spawned" 1
  wait $pid || true
  "$python" - "$work/${name}_stats.csv" "$name" <<'PY'
import csv, sys
row = next(r for r in csv.DictReader(open(sys.argv[1])) if r["Name"] == "Aggregated")
print(",".join([sys.argv[2], row["Request Count"], row["50%"], row["95%"], row["99%"], row["Max Response Time"]]))
PY
}

{
  echo "run,requests,p50_ms,p95_ms,p99_ms,max_ms"
  ours open --rate 200 --connections 256
  ours closed --connections 4
  locust locust 4 0
  locust paced 40 0.2
} > "$out"
[[ $out == /dev/stdout ]] || cat "$out"
