#!/usr/bin/env bash
# Adopts the packages in artifacts/packages (the Cake target Pack writes them) in throw-away projects outside the
# repository, as another team would:
#   - build/package-consumer: the core alone gates an allocation and a load budget, holds no markdown-table generator
#     and no Locust reader (PackageContentsTests), has none of the add-ons' dependencies in its output, and fails
#     naming its budget with one extra allocation per operation (-p:ExtraAllocation=true);
#     and lays the counted runtime pin out in its output (the package's buildTransitive/PerfBudgets.targets);
#   - the perfbudgets tool, installed from its package, reports, compares and proposes on that consumer's results,
#     and carries no web server, database driver, results server or repository machinery (docs, crosscheck);
#   - the results server, installed from its own package (perfbudgets-server), answers --help;
#   - build/package-addons-consumer: the add-ons diagnose a broken budget and write report.html;
#   - samples/: a small library and a small ASP.NET Core service gate themselves with a budget of every kind the
#     packages offer (the package READMEs' snippets are their code), pass unchanged in Release from plain `dotnet test`
#     under VSTest and (TextStats.PlatformTests) Microsoft.Testing.Platform, lay ASP.NET Core's counted runtime out only
#     for the service's tests, are calibrated by `perfbudgets calibrate`, and each deliberate break
#     (-p:SampleBreak=NAME) fails the budget it must, by name; the paired budget runs against the copy's own commit.
#
#   build/test-package.sh [PACKAGES_DIR]        (the Cake target Test.Package runs it after Pack)
#
# Each consumer gets a nuget.config that adds PACKAGES_DIR to the machine's own sources (the feed for the rest), into
# a private packages folder (build/consumer.sh), so a package of the same version restored earlier can never stand in
# for the one just built. Everything it creates is deleted on exit, however it exits.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
packages=$(cd "${1:-$here/../artifacts/packages}" && pwd)
addon_dependencies=(Microsoft.Diagnostics.Tracing.TraceEvent.dll Microsoft.Diagnostics.NETCore.Client.dll OxyPlot.dll)

# The version of package ID in $packages: ID.VERSION.nupkg, not its symbols package nor another id that starts the
# same (PerfBudgets.Tool.0.2.0.nupkg is not a version of PerfBudgets).
version_of() {
  local id=$1 file version found=()
  for file in "$packages/$1".*.nupkg; do
    version=${file##*/$id.}; version=${version%.nupkg}
    [[ $version =~ ^[0-9] && $version != *.symbols ]] && found+=("$version")
  done
  [[ ${#found[@]} == 1 ]] || { echo "test-package.sh: expected one $id package in $packages, found ${#found[@]}" >&2; exit 1; }
  echo "${found[0]}"
}

version=$(version_of PerfBudgets)
tool_version=$(version_of PerfBudgets.Tool)
server_version=$(version_of PerfBudgets.Server)
echo "PerfBudgets $version, PerfBudgets.Tool $tool_version, PerfBudgets.Server $server_version"

# The tool's launcher looks for the runtime in DOTNET_ROOT before the default install folders.
if [[ -z ${DOTNET_ROOT:-} ]]; then
  DOTNET_ROOT=$(dirname "$(readlink -f "$(command -v dotnet)")"); export DOTNET_ROOT
fi
export PerfBudgetsVersion=$version

made=()
trap 'rm -rf "${made[@]}"' EXIT

# consumer TEMPLATE [PACKAGES_DIR]: the copy of an adopter's project with its nuget.config (build/consumer.sh).
source "$here/consumer.sh"

# Runs a command in a consumer folder, its output kept in $log; the output is printed when it fails.
log=$(mktemp "${TMPDIR:-/tmp}/perfbudgets-consumer-XXXXXXXX.log"); made+=("$log")
run_in() {
  local folder=$1; shift
  (cd "$folder" && "$@") > "$log" 2>&1
}
fail() { cat "$log" >&2; echo "test-package.sh: $*" >&2; exit 1; }

core=$(consumer package-consumer "$packages"); made+=("$core" "$core-packages" "$core-tool")
echo "Core consumer at $core: dotnet test"
run_in "$core" dotnet test || fail "the consumer of the core package failed against it"
leaked=()
for dll in "${addon_dependencies[@]}"; do
  [[ -z $(find "$core/bin" -iname "$dll") ]] || leaked+=("$dll")
done
[[ ${#leaked[@]} == 0 && -n $(find "$core/bin" -name PerfBudgets.dll) ]] \
  || fail "the core consumer's output holds add-on dependencies (${leaked[*]}) or no PerfBudgets.dll"
echo "Core consumer passes, holds no repository machinery, and its output holds none of ${addon_dependencies[*]}."
pinned=$(find "$core/bin" -path '*/counted-runtime/shared/Microsoft.NETCore.App/*' -maxdepth 6 -type d | head -n 1)
[[ -n $pinned && -x $(dirname "$(dirname "$(dirname "$pinned")")")/dotnet ]] \
  || fail "the core consumer's output holds no counted runtime (counted-runtime/ with a muxer and Microsoft.NETCore.App): the package's pin did not run"
echo "The package's pin laid the counted runtime out: ${pinned#"$core/"}."
# The consumer references ASP.NET Core's framework, so its runtime is laid out beside it (a library's is not: below).
[[ -n $(find "$core/bin" -path '*/counted-runtime/shared/Microsoft.AspNetCore.App/*' -maxdepth 6 -type d) ]] \
  || fail "the core consumer references Microsoft.AspNetCore.App, and its counted runtime has no Microsoft.AspNetCore.App"

echo "perfbudgets $tool_version: dotnet tool install PerfBudgets.Tool --tool-path $core-tool"
run_in "$core" dotnet tool install PerfBudgets.Tool --version "$tool_version" --tool-path "$core-tool" \
  || fail "the tool package did not install"
results="$core/artifacts/budgets"
for arguments in "report|$results" \
                 "compare|$results/results.json|$results/results.json|--budgets|budgets.json" \
                 "propose|--history|$results/history.jsonl|--budgets|budgets.json"; do
  IFS='|' read -r -a words <<< "$arguments"
  run_in "$core" "$core-tool/perfbudgets" "${words[@]}" || fail "perfbudgets ${words[*]} failed"
  echo "perfbudgets ${words[*]}:"; cat "$log"
done
[[ -f $results/report.html ]] || fail "perfbudgets report wrote no $results/report.html"
server_parts=$(find "$core-tool" -iname 'Npgsql.dll' -o -iname 'Microsoft.Data.Sqlite.dll' -o -iname 'PerfBudgets.Server.dll' -o -iname 'Perfolizer.dll')
[[ -z $server_parts ]] || fail "the perfbudgets tool carries the results server's parts: $server_parts"
! find "$core-tool" -name '*.runtimeconfig.json' -exec grep -l 'Microsoft.AspNetCore.App' {} + | grep -q . \
  || fail "the perfbudgets tool runs on ASP.NET Core's shared framework"
run_in "$core" "$core-tool/perfbudgets" --help || fail "perfbudgets --help failed"
for command in serve docs crosscheck; do
  ! grep -Eq "^ +$command( |$)" "$log" || fail "the perfbudgets tool still has the '$command' command"
done
echo "The perfbudgets tool holds no web server, database driver or results server, and no docs, crosscheck or serve command."

echo "perfbudgets-server $server_version: dotnet tool install PerfBudgets.Server --tool-path $core-server"
made+=("$core-server")
run_in "$core" dotnet tool install PerfBudgets.Server --version "$server_version" --tool-path "$core-server" \
  || fail "the server package did not install"
run_in "$core" "$core-server/perfbudgets-server" --help || fail "perfbudgets-server --help failed"
grep -q -- "--add-project" "$log" || fail "perfbudgets-server --help does not list --add-project"
echo "perfbudgets-server installs from its own package and answers --help."

echo "With one extra allocation per operation: dotnet test -p:ExtraAllocation=true"
if run_in "$core" dotnet test -p:ExtraAllocation=true; then fail "the broken consumer passed"; fi
line=$(grep -m1 "Consumer.Greeting.Format.BytesPerOp:" "$log") \
  || fail "the broken consumer did not fail naming Consumer.Greeting.Format.BytesPerOp"
echo "The broken consumer fails as it must: ${line#"${line%%[![:space:]]*}"}"

addons=$(consumer package-addons-consumer "$packages"); made+=("$addons" "$addons-packages")
echo "Add-ons consumer at $addons: dotnet test"
run_in "$addons" dotnet test || fail "the consumer of the add-on packages failed against them"
echo "Add-ons consumer passes: a broken CPU budget names its hot method (PerfBudgets.Diagnostics) and report.html is written (PerfBudgets.Reporting.Html)."

samples=$(consumer ../samples "$packages"); made+=("$samples" "$samples-packages")
# The samples' paired budget measures the working tree against a base commit, as in an adopter's clone: the copy
# becomes a repository of one commit, which PERF_BASE_COMMIT=HEAD names, so a break built with -p:SampleBreak runs against the
# unbroken build of the same sources.
printf 'bin/\nobj/\nartifacts/\n' > "$samples/.gitignore"
git -C "$samples" init -q && git -C "$samples" add -A \
  && git -C "$samples" -c user.name=perfbudgets -c user.email=perfbudgets@localhost commit -qm "the samples as packed"
export PERF_BASE_COMMIT=HEAD
echo "Samples at $samples: dotnet test Samples.slnx"
run_in "$samples" dotnet test Samples.slnx || fail "the samples failed against the packages"
grep -E "^(Passed|Failed)!" "$log" || true
# Plain `dotnet test` ran Release (Directory.Build.props and Directory.Solution.props, as the README shows).
grep -q "TextStats.Tests/bin/Release/" "$log" || fail "plain dotnet test Samples.slnx did not run the Release build"
# The pin lays ASP.NET Core's runtime out only for the tests whose app runs on it.
[[ -d $samples/GreetingService.Tests/bin/Release/net10.0/counted-runtime/shared/Microsoft.AspNetCore.App \
   && -d $samples/TextStats.Tests/bin/Release/net10.0/counted-runtime/shared/Microsoft.NETCore.App \
   && ! -e $samples/TextStats.Tests/bin/Release/net10.0/counted-runtime/shared/Microsoft.AspNetCore.App ]] \
  || fail "the counted runtime of the library's tests holds ASP.NET Core's, or the service's tests lack it"
echo "Plain dotnet test ran Release; the library's tests' counted runtime holds Microsoft.NETCore.App alone, the service's tests' ASP.NET Core's too."
# The service's counted session, stored by that run, is reused by the next one: its start (port 0), the service's
# files and the test's are unchanged, so the service is not started under Callgrind again.
run_in "$samples" dotnet test GreetingService.Tests --filter "FullyQualifiedName~Server_instructions" \
  || fail "the service's counted test failed when run again"
detail=$(awk '/"budget": "Greeting.Endpoint.ServerInstructions"/ { found = 1 } found && /"detail":/ { print; exit }' \
  "$samples/artifacts/budgets/results.json")
[[ $detail == *"reused, not counted again"* ]] \
  || fail "the service's counted session was counted again on unchanged inputs: $(cut -c1-300 <<<"$detail")"
echo "The service's counted session is reused on the second run: $(grep -oE 'reused, not counted again[^;"]*' <<<"$detail" | head -n 1)"
# The same default under Microsoft.Testing.Platform, with a project and with a solution: the global.json in
# TextStats.PlatformTests selects that mode there, and its solution declares Release alone.
for target in "--project TextStats.PlatformTests.csproj" "--solution TextStats.PlatformTests.slnx"; do
  echo "Samples under Microsoft.Testing.Platform: dotnet test $target in TextStats.PlatformTests"
  # shellcheck disable=SC2086
  run_in "$samples/TextStats.PlatformTests" dotnet test $target || fail "the Microsoft.Testing.Platform sample failed (dotnet test $target)"
  grep -q "TextStats.PlatformTests/bin/Release/net10.0/TextStats.PlatformTests.dll" "$log" \
    || fail "dotnet test $target under Microsoft.Testing.Platform did not run the Release build"
  echo "dotnet test $target under Microsoft.Testing.Platform ran Release: $(grep -m1 -E "^ *(total|succeeded):" "$log" | sed -E 's/^ +//')."
done
# perfbudgets calibrate, from the tool's package, sets the samples' budgets from that run (--results: a run already
# made; the README's `perfbudgets calibrate --runs 5 -- dotnet test` makes its own), on a copy of budgets.json in a
# folder of its own (calibrate writes budgets.methods.json beside it).
mkdir "$samples/calibrated" && cp "$samples/budgets.json" "$samples/calibrated/budgets.json"
run_in "$samples" "$core-tool/perfbudgets" calibrate --budgets calibrated/budgets.json --results artifacts/budgets/results.json \
  || fail "perfbudgets calibrate failed on the samples' results"
for expected in "Text.Add.Syscalls: " "Text.AddOpenFile.Syscalls: " "one more call per operation" "Text.Add.RetainedBytesPerOp: "; do
  grep -qF -- "$expected" "$log" || fail "perfbudgets calibrate said nothing of '$expected'"
done
echo "perfbudgets calibrate on the samples' run:"; grep -E "^(Text|Greeting)\.[A-Za-z0-9.]+Syscalls: " "$log" | cut -c1-200
# Each break, the budget it must fail by name (the test project it is in, a filter for its tests), and for some what
# the failure must name besides: the method that allocates, the methods whose counts grew.
counted_lead="grew since the recording (budgets.methods.json), own code with what it called: TextStats.WordCounter::Add +"
allocation_lead="grew since the recording (budgets.methods.json), own code with what it called: TextStats.WordCounter.Add +"
breaks=(
  "Allocation|Text.Add.BytesPerOp|TextStats.Tests|WordCounterBudgetTests|allocated in, own code with what it called: TextStats.WordCounter.Add"
  "Retained|Text.Add.RetainedBytesPerOp|TextStats.Tests|WordCounterBudgetTests"
  "Instructions|Text.Add.Instructions|TextStats.Tests|CountedBudgetTests|WordCounter"
  "Syscalls|Text.AddFile.Syscalls|TextStats.Tests|CountedBudgetTests"
  "Growth|Text.Add.Growth|TextStats.Tests|CountedBudgetTests"
  "Server_Allocation|Greeting.Endpoint.ServerBytesPerRequest|GreetingService.Tests|Server_bytes"
  "Server_Instructions|Greeting.Endpoint.ServerInstructions|GreetingService.Tests|Server_instructions"
  "Blocking|Greeting.Endpoint.BlockedMsPerRequest|GreetingService.Tests|No_blocking_or_lock|Thread.Sleep"
  "Startup_Blocking|Greeting.Startup.BlockedMs|GreetingService.Tests|before_the_first_response|Task.Wait"
  # The paired break: both builds' hosts profiled side by side, the sample's method named first, per operation.
  "CpuTime|Text.Add.CpuTime.VsBase|TextStats.Tests|CpuTimeVsBaseTests|first:grew against the base, own code with what it called (samples per operation): TextStats.WordCounter.Add +"
  # Regressions through a framework call (a ToList, a string.Format, a string.Join, an OrderBy): the line right after
  # each failure's figure (lead:) must be what grew since the recording, the sample's own method first, carrying at
  # least half of the growth.
  "ToList_Snapshot|Text.Add.Instructions|TextStats.Tests|Add_instructions|lead:$counted_lead"
  "ToList_Snapshot|Text.Add.BytesPerOp|TextStats.Tests|WordCounterBudgetTests|lead:$allocation_lead"
  "Format_Per_Word|Text.Add.Instructions|TextStats.Tests|Add_instructions|lead:$counted_lead"
  "Format_Per_Word|Text.Add.BytesPerOp|TextStats.Tests|WordCounterBudgetTests|lead:$allocation_lead"
  "Join_Snapshot|Text.Add.Instructions|TextStats.Tests|Add_instructions|lead:$counted_lead"
  "Join_Snapshot|Text.Add.BytesPerOp|TextStats.Tests|WordCounterBudgetTests|lead:$allocation_lead"
  "OrderBy_Snapshot|Text.Add.Instructions|TextStats.Tests|Add_instructions|lead:$counted_lead"
  "OrderBy_Snapshot|Text.Add.BytesPerOp|TextStats.Tests|WordCounterBudgetTests|lead:$allocation_lead"
)
for entry in "${breaks[@]}"; do
  IFS='|' read -r name budget project filter names <<<"$entry"
  if run_in "$samples" dotnet test "$project" -p:SampleBreak="$name" --filter "FullyQualifiedName~$filter"; then
    fail "the samples passed with the break $name"
  fi
  line=$(grep -m1 -E "^ *PerfBudgets.Budgets.BudgetExceededException : $budget:|^ *$budget:" "$log") \
    || fail "the break $name did not fail naming $budget"
  echo "Break $name fails $budget: ${line#*Exception : }"
  if [[ $names == lead:* || $names == first:* ]]; then
    # The line after the failure's figure: what grew, the sample's method first (lead: with at least half of the growth).
    lead=$(grep -m1 -A1 -E "^ *PerfBudgets.Budgets.BudgetExceededException : $budget:|^ *$budget:" "$log" | sed -n 2p | sed -E 's/^ +//')
    [[ $lead == "${names#*:}"* ]] || fail "the break $name failed $budget, but the line after its figure is not '${names#*:}…': $lead"
    share=$(grep -oE -m1 '\([0-9]+% of the ' <<<"$lead" | head -n 1 | tr -dc '0-9' || true)
    [[ $names == first:* || ( -n $share && $share -ge 50 ) ]] || fail "the break $name failed $budget naming the sample's method with ${share:-no}% of the growth, under half: $lead"
    echo "  led by what grew (${share:-?}% of the growth): $(cut -c1-220 <<<"$lead")"
  elif [[ -n $names ]]; then
    # Within the failure's own message (its line to the stack trace), not anywhere in the log: another budget's failure
    # may name the same method.
    first=$(grep -n -m1 -E "^ *PerfBudgets.Budgets.BudgetExceededException : $budget:|^ *$budget:" "$log" | cut -d: -f1)
    named=$(tail -n +"$first" "$log" | sed '/Stack Trace:/q' | grep -m1 -F -- "$names") \
      || fail "the break $name failed $budget without naming $names in its failure"
    echo "  and names it: $(sed -E 's/^ +//' <<<"$named" | cut -c1-200)"
  fi
done
# A library under test built Debug beside Release tests (the Release default given to the tests alone) is refused by
# name, though the test assembly itself is optimized.
if run_in "$samples" dotnet test TextStats.Tests -p:SampleBreak=Debug_Library --filter "FullyQualifiedName~WordCounterBudgetTests"; then
  fail "the samples passed with their library built Debug"
fi
line=$(grep -m1 -F "the code under measurement is Debug (JIT optimizer disabled in TextStats" "$log") \
  || fail "the samples' Debug library was measured without a word"
echo "A Debug library beside Release tests is refused by name: $(sed -E 's/^ +//' <<<"$line" | cut -c1-200)"
