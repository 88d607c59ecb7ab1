#!/usr/bin/env bash
# Several hosts on one machine: the system under test, the Locust master and two workers, each in a network namespace
# of its own, joined by veth pairs to a bridge in a fifth namespace (10.231.0.0/24). The workers reach the master and
# the server by namespace address, never loopback; the server's peer addresses are printed to show it.
#
#   SERVER_DLL=.../SystemUnderTest.dll load/locust/netns-run.sh USERS WARMUP_SECONDS SECONDS CSV_PREFIX
#
# Writes CSV_PREFIX-warmup_* (when WARMUP_SECONDS > 0) and CSV_PREFIX-measured_*; the Cake target
# `dotnet cake --target=Load.Distributed --netns=true` runs it (through distributed.py) and gates the measured run. Needs root (ip netns) and a
# Release build of src/SystemUnderTest. Every namespace and process it creates is removed on exit, however it exits.
set -euo pipefail

users=${1:?USERS}; warmup=${2:?WARMUP_SECONDS}; seconds=${3:?SECONDS}; prefix=${4:?CSV_PREFIX}
python=${PYTHON:-/usr/bin/python3}
here=$(cd "$(dirname "$0")" && pwd)
app=${SERVER_DLL:?SERVER_DLL: the Release build of src/SystemUnderTest (the Cake target passes it)}
[[ -f $app ]] || { echo "netns-run.sh: no $app: dotnet build -c Release src/SystemUnderTest" >&2; exit 1; }
[[ $(id -u) == 0 ]] || { echo "netns-run.sh: ip netns needs root" >&2; exit 1; }

tag="pgl$$"                       # namespace names of this run only
bridge="$tag-br"
declare -A address=([srv]=10.231.0.1 [master]=10.231.0.2 [w1]=10.231.0.3 [w2]=10.231.0.4)
pids=()

cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  for ns in srv master w1 w2 br; do ip netns del "$tag-$ns" 2>/dev/null || true; done
}
trap cleanup EXIT

ip netns add "$bridge"
ip -n "$bridge" link add br0 type bridge
ip -n "$bridge" link set br0 up
i=0
for host in srv master w1 w2; do
  i=$((i + 1))
  ip netns add "$tag-$host"
  ip link add "ve$tag$i" netns "$tag-$host" type veth peer name "vb$i" netns "$bridge"
  ip -n "$bridge" link set "vb$i" master br0 up
  ip -n "$tag-$host" link set lo up
  ip -n "$tag-$host" addr add "${address[$host]}/24" dev "ve$tag$i"
  ip -n "$tag-$host" link set "ve$tag$i" up
done

url="http://${address[srv]}:5000"
ip netns exec "$tag-srv" timeout $((warmup + seconds + 300)) dotnet "$app" --urls "$url" --Logging:LogLevel:Default=Warning &
pids+=($!)
for _ in $(seq 60); do
  ip netns exec "$tag-master" curl -sf -o /dev/null "$url/api/employees?count=9" && break
  sleep 0.5
done
ip netns exec "$tag-master" curl -sf -o /dev/null "$url/api/employees?count=9" || { echo "netns-run.sh: $url does not answer from the master's namespace" >&2; exit 1; }
echo "server $url answers from the master's namespace (${address[master]}); loopback there has no server:"
ip netns exec "$tag-master" curl -s -o /dev/null -w '  curl http://127.0.0.1:5000 -> %{http_code}\n' --max-time 2 http://127.0.0.1:5000/ || true

run() { # PREFIX SECONDS
  local run_prefix=$1 run_seconds=$2 run_pids=()
  ip netns exec "$tag-master" timeout $((run_seconds + 120)) "$python" "$here/run_locust.py" -f "$here/locustfile.py" \
    --master --master-bind-host "${address[master]}" --master-bind-port 5557 --expect-workers 2 --expect-workers-max-wait 60 \
    --headless -u "$users" -r "$users" --run-time "${run_seconds}s" --stop-timeout 5 --csv "$run_prefix" --csv-full-history \
    --only-summary --host "$url" Employees9 > "$run_prefix-master.log" 2>&1 &
  local master=$!; pids+=($master)
  for w in w1 w2; do
    ip netns exec "$tag-$w" timeout $((run_seconds + 120)) "$python" "$here/run_locust.py" -f "$here/locustfile.py" \
      --worker --master-host "${address[master]}" --master-port 5557 > "$run_prefix-$w.log" 2>&1 &
    run_pids+=($!); pids+=($!)
  done
  # Halfway through, the server's established connections: their peers are the workers' namespace addresses.
  sleep $((run_seconds / 2 + 2))
  echo "  server's HTTP peers: $(ip netns exec "$tag-srv" ss -Htn state established "( sport = :5000 )" | awk '{print $4}' | sed 's/:[0-9]*$//' | sort | uniq -c | xargs)"
  echo "  master's peers: $(ip netns exec "$tag-master" ss -Htn state established "( sport = :5557 )" | awk '{print $4}' | sed 's/:[0-9]*$//' | sort | uniq -c | xargs)"
  wait "$master" || true
  for pid in "${run_pids[@]}"; do wait "$pid" || true; done
  grep -h "reported as ready\|Shutting down" "$run_prefix-master.log" | sed 's/^/  /'
  [[ -f ${run_prefix}_stats.csv ]] || { echo "netns-run.sh: the master wrote no ${run_prefix}_stats.csv (see $run_prefix-master.log)" >&2; exit 1; }
}

mkdir -p "$(dirname "$prefix")"
if (( warmup > 0 )); then echo "warm-up run: $warmup s"; run "$prefix-warmup" "$warmup"; fi
echo "measured run: $seconds s"
run "$prefix-measured" "$seconds"
