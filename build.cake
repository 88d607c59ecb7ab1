// The gate's targets. `dotnet tool restore && dotnet cake` runs Default: Build → every suite → Report → Test.Package.
// Arguments: --target=NAME, --configuration=Release|Debug, --profile=ci|local (PERF_PROFILE for the budgets),
// --baseline=PATH (PERF_BASELINE: compare with an earlier results.json), --baseline-ref=REF (the Baseline target's
// branch to take the merge base with, default main); the Load.* targets' own arguments are listed beside them.
// No #addin or #tool directives: everything here runs offline with the SDK and Cake's built-in aliases. This script
// orchestrates: the programs it runs are the perfbudgets tool's commands (src/PerfBudgets.Tool), the results server
// (src/PerfBudgets.Server), this repository's own tooling (build/PerfGate.Build: docs, crosscheck) and the scripts in
// build/ and load/locust/.

var target = Argument("target", "Default");
var configuration = Argument("configuration", "Release");

// The harness's environment variables that the targets set, named once here as HarnessEnvironment names them in
// src/PerfBudgets/Budgets (tests/PerfGate.Build.Tests/BuildScriptTests checks that every PERF_ name here is one of its).
const string ProfileVariable = "PERF_PROFILE", BaselineVariable = "PERF_BASELINE", RunIdVariable = "PERF_RUN_ID", CommitVariable = "PERF_COMMIT";

var profile = Argument("profile", EnvironmentVariable(ProfileVariable) ?? "ci");
var benchFilter = Argument("bench-filter", "*");
var baseline = Argument("baseline", EnvironmentVariable(BaselineVariable) ?? string.Empty);
var baselineRef = Argument("baseline-ref", "main");

// One id per `dotnet cake` invocation, shared by its test processes, so history.jsonl groups their results as one run.
var runId = EnvironmentVariable(RunIdVariable) ?? $"{DateTime.UtcNow:yyyyMMdd'T'HHmmss'Z'}-{Guid.NewGuid().ToString("N").Substring(0, 6)}";
// git's answer, its lines joined by commas; null outside a git checkout.
string Git(string arguments) => StartProcess("git", new ProcessSettings { Arguments = arguments, RedirectStandardOutput = true, RedirectStandardError = true }, out var lines) == 0 ? string.Join(",", lines).Trim() : null;
// The commit measured: PERF_COMMIT, else git's HEAD (none outside a git checkout).
var commit = EnvironmentVariable(CommitVariable) ?? Git("rev-parse HEAD");

var solution = File("./PerfGate.slnx");
// The target framework of every project, from the one place that sets it.
var framework = XmlPeek(File("./Directory.Build.props"), "/Project/PropertyGroup/TargetFramework");
// The perfbudgets tool (report, compare, load, locust, record, propose, baseline-run, upload, ...), run from source.
var tool = File("./src/PerfBudgets.Tool/PerfBudgets.Tool.csproj");
// This repository's own tooling, in no package: the generated doc tables (docs) and the wrk cross-check (crosscheck).
var repositoryTool = File("./build/PerfGate.Build/PerfGate.Build.csproj");
var artifacts = Directory("./artifacts");
var testResults = artifacts + Directory("test-results");
var budgetResults = artifacts + Directory("budgets");
var packages = artifacts + Directory("packages");
var failedSuites = new List<string>();

// Load.CrossCheck: --crosscheck-copies=N (connections, default 16), --crosscheck-seconds=S (default 10).
var crossCheckCopies = Argument("crosscheck-copies", 16);
var crossCheckSeconds = Argument("crosscheck-seconds", 10);

// Load.Distributed (load/locust/distributed.py). --target names the Cake target, so the server is --target-url.
var locustWorkers = Argument("workers", 2);
var locustTargetUrl = Argument("target-url", string.Empty);
var locustNetns = Argument("netns", false);
var locustOptions = new[] { ("expect-workers", locustWorkers.ToString()), ("master-bind", "127.0.0.1"), ("master-port", "0"),
    ("users", "16"), ("locust-seconds", "10"), ("locust-warmup-seconds", "3") }
    .Select(o => (o.Item1, Argument(o.Item1, o.Item2))).ToList();

// A built program's assembly, e.g. src/SystemUnderTest/bin/Release/net10.0/SystemUnderTest.dll (build/ for this
// repository's own tooling).
string Program(string project, string config, string folder = "src") => MakeAbsolute(File($"./{folder}/{project}/bin/{config}/{framework}/{project}.dll")).FullPath;

// The environment the suites and the tool's commands are given: the profile, the run, the commit, the baseline.
Dictionary<string, string> PerfEnvironment(string baselinePath)
{
    var environment = new Dictionary<string, string> { [ProfileVariable] = profile, [RunIdVariable] = runId };
    if (!string.IsNullOrEmpty(commit)) environment[CommitVariable] = commit;
    // An absolute path: the test processes run in their own folders. A missing file is reported by every budget test
    // (PerfBudgets.BaselineFileException), never skipped.
    if (!string.IsNullOrWhiteSpace(baselinePath)) environment[BaselineVariable] = MakeAbsolute(File(baselinePath)).FullPath;
    return environment;
}

// Runs a program and fails the target when it fails.
void Run(string program, ProcessArgumentBuilder arguments, Dictionary<string, string> environment = null)
{
    var exit = StartProcess(program, new ProcessSettings { Arguments = arguments, EnvironmentVariables = environment });
    if (exit != 0) throw new Exception($"{program} {arguments.RenderSafe()} exited with {exit}.");
}

// Runs a perfbudgets command from the tool built in CONFIG (dotnet run would rebuild it, and print its build).
void RunTool(string config, ProcessArgumentBuilder command, Dictionary<string, string> environment = null) =>
    Run("dotnet", new ProcessArgumentBuilder().AppendQuoted(Program("PerfBudgets.Tool", config)).Append(command.Render()), environment);

// True when a GET of ADDRESS answers with success within 2 s.
bool Answers(string address)
{
    using var client = new System.Net.Http.HttpClient { Timeout = TimeSpan.FromSeconds(2) };
    try { return client.GetAsync(address).GetAwaiter().GetResult().IsSuccessStatusCode; }
    catch (Exception e) when (e is System.Net.Http.HttpRequestException or TaskCanceledException) { return false; }
}

// Waits up to 30 s for ADDRESS to answer; `failure` says what did not start, and where to look.
void WaitUntilAnswers(string address, string failure)
{
    for (var deadline = DateTime.UtcNow.AddSeconds(30); !Answers(address); System.Threading.Thread.Sleep(200))
    {
        if (DateTime.UtcNow >= deadline) throw new Exception($"{failure} within 30 s.");
    }
}

// The system under test, built in Release, in its own process on a free loopback port (the one place a target starts
// it); `use` gets its address and process, and the server is killed when `use` returns, however it returns.
void WithServer(Action<string, System.Diagnostics.Process> use)
{
    DotNetBuild("./src/SystemUnderTest/SystemUnderTest.csproj", new DotNetBuildSettings { Configuration = "Release" });
    var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
    listener.Start();
    var url = $"http://127.0.0.1:{((System.Net.IPEndPoint)listener.LocalEndpoint).Port}";
    listener.Stop();
    var info = new System.Diagnostics.ProcessStartInfo("dotnet") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
    foreach (var a in new[] { Program("SystemUnderTest", "Release"), "--urls", url, "--Logging:LogLevel:Default=Warning" }) info.ArgumentList.Add(a);
    using var server = System.Diagnostics.Process.Start(info);
    server.BeginOutputReadLine();
    server.BeginErrorReadLine();
    try
    {
        WaitUntilAnswers(url + "/api/employees?count=9", $"{url} did not answer");
        use(url, server);
    }
    finally
    {
        server.Kill(entireProcessTree: true);
        server.WaitForExit();
    }
}

// A suite's projects (tests/README.md): tests/SUITE for a suite over the app; for the harness (PerfBudgets) the core's
// tests and each add-on's, the tool's and the server's beside them; for this repository's tooling (Build) its tests. A
// suite without a project is an error, never a suite that passes by running nothing.
FilePathCollection SuiteProjects(string suite)
{
    var projects = suite switch
    {
        "PerfBudgets" => GetFiles("./tests/PerfBudgets.Tests/*.csproj") + GetFiles("./tests/PerfBudgets.*.Tests/*.csproj"),
        "Build" => GetFiles("./tests/PerfGate.Build.Tests/*.csproj"),
        _ => GetFiles($"./tests/{suite}/*.csproj"),
    };
    return projects.Count > 0 ? projects : throw new Exception($"The suite {suite} has no test project under tests/.");
}
// The budget suites: what the Baseline target runs twice (the correctness suite measures nothing).
var budgetSuites = new[] { "Alloc", "Cpu", "Load" };

void RunSuite(string suite, string baselinePath = null, string filter = null, bool keepGoing = true)
{
    // Every project of every suite runs even when an earlier one fails, so the report shows every budget of the run.
    foreach (var (project, name) in SuiteProjects(suite).Select(p => (p.FullPath, p.GetDirectory().GetDirectoryName())))
    {
        try
        {
            // A filtered run (Record.Instructions) is a part of a suite: no trx of the project's folder name, no test list.
            DotNetTest(project, new DotNetTestSettings { Configuration = configuration, NoBuild = true, NoRestore = true, Filter = filter, ResultsDirectory = testResults,
                Loggers = filter != null ? null : new[] { $"trx;LogFileName={name}.trx", "console;verbosity=normal" }, EnvironmentVariables = PerfEnvironment(baselinePath ?? baseline) });
        }
        catch (Exception e) when (keepGoing) { Error($"{name}: {e.Message}"); failedSuites.Add(name); }
    }
}

void FailIfAnySuiteFailed() { if (failedSuites.Count > 0) throw new Exception($"Failed suites: {string.Join(", ", failedSuites)}. See the budget table above and {testResults}."); }

Task("Clean").Does(() => { CleanDirectory(artifacts); DotNetClean(solution, new DotNetCleanSettings { Configuration = configuration }); });

Task("Clean.Results")
    .Description("Empties artifacts/budgets except history.jsonl, so the report shows this run's measurements only and the history of every run is kept.")
    .Does(() =>
{
    EnsureDirectoryExists(budgetResults);
    DeleteFiles(GetFiles($"{budgetResults}/*").Where(f => f.GetFilename().ToString() != "history.jsonl"));
    DeleteDirectories(GetDirectories($"{budgetResults}/*"), new DeleteDirectorySettings { Recursive = true, Force = true });
});

Task("Setup")
    .Description("Installs the Debian packages the suites need when they are missing (build/setup.sh: Valgrind, PostgreSQL, chromium; as root or with passwordless sudo), or names each missing one with how to get it and stops before anything runs. The first step of Default.")
    .Does(() => Run("bash", new ProcessArgumentBuilder().AppendQuoted(MakeAbsolute(File("./build/setup.sh")).FullPath)));

Task("Build").Does(() => DotNetBuild(solution, new DotNetBuildSettings { Configuration = configuration }));

// Test.PerfBudgets, Test.Build, Test.Correctness, Test.Alloc, Test.Cpu, Test.Load: one suite each, in this order, each
// project of a suite in turn (Build: the tests of this repository's own tooling, tests/PerfGate.Build.Tests).
var suites = new[] { "PerfBudgets", "Build", "Correctness", "Alloc", "Cpu", "Load" };
// Asked for alone, a suite's target fails when one of its projects did; under Test or Default the rest run first.
foreach (var suite in suites) Task("Test." + suite).Description("Runs " + string.Join(", ", SuiteProjects(suite).Select(p => p.GetFilename()))).IsDependentOn("Build")
    .Does(() => { RunSuite(suite); if (string.Equals(target, "Test." + suite, StringComparison.OrdinalIgnoreCase)) FailIfAnySuiteFailed(); });

var test = Task("Test").IsDependentOn("Clean.Results").Does(() => FailIfAnySuiteFailed());
foreach (var suite in suites) test.IsDependentOn("Test." + suite);

Task("Pack")
    .Description("Writes the PerfBudgets packages (the core and its add-ons) with their symbols packages, the PerfBudgets.Tool package (the perfbudgets dotnet tool) and the PerfBudgets.Server package (the perfbudgets-server dotnet tool), to artifacts/packages.")
    .Does(() =>
{
    CleanDirectory(packages);
    // Each pack has a version of its own, from the commit (0.2.0-dev.COMMITS.gHASH, and .dirty for a changed tree): a
    // machine that restored an earlier pack of the same version would otherwise keep it and never see this one.
    var commits = Git("rev-list --count HEAD");
    var hash = Git("rev-parse --short=10 HEAD");
    var suffix = commits is null || hash is null ? "dev.0.local"
        : $"dev.{commits}.g{hash}" + (string.IsNullOrEmpty(Git("status --porcelain --untracked-files=no")) ? "" : ".dirty");
    Information($"Package version suffix: {suffix}");
    foreach (var project in new[] { "PerfBudgets", "PerfBudgets.Diagnostics", "PerfBudgets.Reporting.Html", "PerfBudgets.Tool", "PerfBudgets.Server" })
    {
        DotNetPack($"./src/{project}/{project}.csproj", new DotNetPackSettings { Configuration = "Release", OutputDirectory = packages, VersionSuffix = suffix });
    }

    GetFiles($"{packages}/*.nupkg").ToList().ForEach(p => Information($"Package: {p}"));
});

Task("Test.Package")
    .Description("Adopts the packages in throw-away projects outside the repository (build/test-package.sh): the core alone must gate an allocation, a load and a response-size budget without the add-ons' dependencies in its output, lay out the pinned counted runtime, hold no markdown-table generator and no Locust reader, and fail naming its budget with one extra allocation per operation; the perfbudgets tool, installed from its package, must report, compare and propose on the consumer's results and hold no web server, database driver or results server; perfbudgets-server must install from its own package; the add-ons must diagnose a broken budget and write report.html; samples/ (a library and a service with a budget of every kind) must pass, a second run must reuse the service's counted session, and each of its nine deliberate breaks must fail its budget by name.")
    .IsDependentOn("Pack")
    .Does(() => Run("bash", new ProcessArgumentBuilder().AppendQuoted(MakeAbsolute(File("./build/test-package.sh")).FullPath).AppendQuoted(MakeAbsolute(packages).FullPath),
        new Dictionary<string, string> { [ProfileVariable] = "ci" }));

Task("Bench")
    .Description("BenchmarkDotNet, MemoryDiagnoser on; --bench-filter narrows it (default *). Not part of CI.")
    .Does(() => DotNetRun("./bench/Bench.csproj", new ProcessArgumentBuilder().Append("--filter").AppendQuoted(benchFilter), new DotNetRunSettings { Configuration = "Release" }));

Task("Bench.Json")
    .Description("The JSON pools scaling table (1..32 threads), CSV and chart.")
    .Does(() => DotNetRun("./bench/Bench.csproj", new ProcessArgumentBuilder().Append("json-scaling"), new DotNetRunSettings { Configuration = "Release" }));

Task("Load.CrossCheck")
    .Description("Runs GET /api/employees?count=9 at the same concurrency with our load runner and with wrk, one after the other, and prints both (build/PerfGate.Build crosscheck, to artifacts/budgets/load-crosscheck.md). Needs wrk (apt-get install wrk). Not part of Default or CI.")
    .IsDependentOn("Build")
    .Does(() =>
{
    EnsureDirectoryExists(budgetResults);
    // The server runs in its own process on loopback, shared by both generators in turn; on a small machine each
    // generator takes cores from the server, which is part of what the comparison shows.
    WithServer((url, server) => Run("dotnet", new ProcessArgumentBuilder().AppendQuoted(Program("PerfGate.Build", configuration, "build")).Append("crosscheck").AppendQuoted(url + "/api/employees?count=9")
        .Append("--tool").AppendQuoted(Program("PerfBudgets.Tool", configuration))
        .Append("--connections").Append(crossCheckCopies.ToString()).Append("--duration").Append(crossCheckSeconds.ToString())
        .Append("--server-pid").Append(server.Id.ToString()).Append("--out").AppendQuoted(MakeAbsolute(budgetResults + File("load-crosscheck.md")).FullPath)));
});

Task("Load.Distributed")
    .Description("Distributed load on Locust (load/locust/distributed.py): a master and --workers=N workers (default 2), headless, run GET /api/employees?count=9 (load/locust/locustfile.py, class Employees9) against --target-url=URL or the system under test started here in Release; a warm-up run, then a measured run whose CSV statistics perfbudgets locust gates against Json.Endpoint.Employees9.Distributed.* and records in results.json. --netns=true runs server, master and two workers in network namespaces of their own (load/locust/netns-run.sh, root). Needs Locust (apt-get install python3-locust). Not part of Default or CI.")
    .Does(() =>
{
    DotNetBuild(tool, new DotNetBuildSettings { Configuration = "Release" });
    var arguments = new ProcessArgumentBuilder().AppendQuoted(MakeAbsolute(File("./load/locust/distributed.py")).FullPath)
        .Append("--workers").Append(locustWorkers.ToString())
        .Append("--tool").AppendQuoted(Program("PerfBudgets.Tool", "Release")).Append("--budgets").AppendQuoted(MakeAbsolute(File("./budgets.json")).FullPath)
        .Append("--csv-folder").AppendQuoted(MakeAbsolute(budgetResults + Directory("locust")).FullPath);
    locustOptions.ForEach(o => arguments.Append("--" + o.Item1).AppendQuoted(o.Item2));
    void Distributed(string url) => Run("python3", new ProcessArgumentBuilder().Append(arguments.Render()).Append("--target-url").AppendQuoted(url), PerfEnvironment(baseline));
    if (locustNetns)
    {
        // The server, master and workers in network namespaces of their own: netns-run.sh starts the server there.
        DotNetBuild("./src/SystemUnderTest/SystemUnderTest.csproj", new DotNetBuildSettings { Configuration = "Release" });
        arguments.Append("--netns").Append("--server").AppendQuoted(Program("SystemUnderTest", "Release"));
        Distributed("netns");
    }
    else if (!string.IsNullOrEmpty(locustTargetUrl)) Distributed(locustTargetUrl);
    else WithServer((url, _) => Distributed(url));
});

Task("Record.Instructions")
    .Description("Re-records the counted budgets (instructions-max, syscalls-max): runs the counted tests of tests/Cpu --record-runs times (default 3), then rewrites each one's recorded count (the median of the runs), limit (recorded + its margin) and versions in budgets.json and its breakdown in budgets.methods.json (perfbudgets record), printing old → new. A commit that changes them carries that output.")
    .IsDependentOn("Build")
    .IsDependentOn("Clean.Results")
    .Does(() =>
{
    var record = new ProcessArgumentBuilder().Append("record").AppendQuoted(MakeAbsolute(File("./budgets.json")).FullPath);
    for (var run = 1; run <= Argument("record-runs", 3); run++)
    {
        // Budgets that no longer hold are what a re-recording is for; their figures are in results.json all the same.
        try { RunSuite("Cpu", filter: "FullyQualifiedName~CountTests", keepGoing: false); }
        catch (Exception e) { Warning($"Counted tests, run {run}: {e.Message} (recording what they measured)"); }
        var copy = MakeAbsolute(budgetResults + File($"recording-{run}.json"));
        CopyFile(budgetResults + File("results.json"), copy);
        record.AppendQuoted(copy.FullPath);
    }

    RunTool(configuration, record);
});

Task("Report")
    .Description("Prints artifacts/budgets/summary.md (every budget of the last run beside its limit, and its baseline when there was one) and writes artifacts/budgets/report.html.")
    .Does(() =>
{
    var summary = budgetResults + File("summary.md");
    if (!FileExists(summary)) { Warning($"No {summary} yet: run a test target first."); return; }
    Information(System.IO.File.ReadAllText(summary));
    Information($"Results: {budgetResults}/results.json (profile {profile}).");
    // report.html from results.json and history.jsonl (perfbudgets report, built here if it is not up to date).
    DotNetRun(tool, new ProcessArgumentBuilder().Append("report").AppendQuoted(MakeAbsolute(budgetResults).FullPath), new DotNetRunSettings { Configuration = configuration });
});

Task("Docs")
    .Description("Fills the generated tables of docs/*.md, README.md and samples/README.md (<!-- table: ... --> markers) from artifacts/budgets/results.json and history.jsonl; runs no suite.")
    .Does(() =>
{
    if (!FileExists(budgetResults + File("results.json")))
        throw new Exception($"No {budgetResults}/results.json: run the budgets first (dotnet tool restore && dotnet cake), then dotnet cake --target=Docs.");
    DotNetRun(repositoryTool, new ProcessArgumentBuilder().Append("docs")
            .AppendQuoted(MakeAbsolute(budgetResults).FullPath).AppendQuoted(MakeAbsolute(Directory("./docs")).FullPath)
            .Append("--file").AppendQuoted(MakeAbsolute(File("./README.md")).FullPath)
            .Append("--file").AppendQuoted(MakeAbsolute(File("./samples/README.md")).FullPath)
            // The tables name the target that fills them.
            .Append("--generated-by").AppendQuoted("dotnet cake --target=Docs"),
        new DotNetRunSettings { Configuration = configuration });
});

Task("Baseline")
    .Description("A/B run: the budget suites on `git merge-base HEAD main` (perfbudgets baseline-run: a temporary git worktree, results in a temporary folder), then on HEAD compared with them; prints the comparison.")
    .IsDependentOn("Build")
    .IsDependentOn("Clean.Results")
    .Does(() =>
{
    // A: the merge base, built and measured in a worktree of its own; its results.json is kept beside this run's.
    var baselineFile = MakeAbsolute(budgetResults + File("baseline-results.json")).FullPath;
    var a = new ProcessArgumentBuilder().Append("baseline-run").Append("--ref").AppendQuoted(baselineRef).Append("--configuration").Append(configuration)
        .Append("--solution").Append(solution.Path.GetFilename().ToString()).Append("--out").AppendQuoted(baselineFile);
    budgetSuites.ToList().ForEach(suite => a.Append("--suite").AppendQuoted($"tests/{suite}/{suite}.csproj"));
    RunTool(configuration, a, PerfEnvironment(null));

    // B: HEAD, compared with A.
    budgetSuites.ToList().ForEach(suite => RunSuite(suite, baselineFile));
    var summary = budgetResults + File("summary.md");
    Information($"A/B: the merge base of HEAD and {baselineRef} against HEAD {commit?.Substring(0, 10)}; baseline figure and change per budget:");
    Information(FileExists(summary) ? System.IO.File.ReadAllText(summary) : $"No {summary}: the HEAD run recorded nothing.");
    FailIfAnySuiteFailed();
});

Task("Runtimes")
    .Description("The counted and allocation suites (tests/Cpu, tests/Alloc) on .NET 8, 9 and 10, each on its pinned patch (perfbudgets runtimes: built for the three with -p:PerfBudgetsRuntimes, each framework's test assembly run on its counted runtime, results in artifacts/runtimes/FRAMEWORK), then docs/runtimes-8-9-10.md rewritten from them: each budget's figure per runtime, its ratio to .NET 10, the methods whose counts moved most. --no-run compares the last run's results again. Not in Default or CI.")
    .IsDependentOn("Build")
    .Does(() =>
{
    var command = new ProcessArgumentBuilder().Append("runtimes").Append("--output").AppendQuoted(MakeAbsolute(Directory("./artifacts/runtimes")).FullPath)
        .Append("--report").AppendQuoted(MakeAbsolute(File("./docs/runtimes-8-9-10.md")).FullPath);
    foreach (var suite in new[] { "Cpu", "Alloc" }) command.Append("--project").AppendQuoted(MakeAbsolute(File($"./tests/{suite}/{suite}.csproj")).FullPath);
    if (HasArgument("no-run")) command.Append("--no-run");
    // Each run fails the budgets recorded on .NET 10 alone; the tool exits 0 and the comparison holds every figure.
    RunTool(configuration, command, PerfEnvironment(null));
});

// Sends the last run's results.json to a results server with HEAD's commit and parents and the branch checked out.
void UploadRun(string server, string project, string tokenFile)
{
    string Ask(string arguments) => Git(arguments) ?? throw new Exception($"git {arguments} failed: an upload needs a git checkout.");
    RunTool(configuration, new ProcessArgumentBuilder().Append("upload").Append("--server").AppendQuoted(server)
        .Append("--project").AppendQuoted(project).Append("--token-file").AppendQuoted(tokenFile)
        .Append("--commit").AppendQuoted(commit ?? Ask("rev-parse HEAD")).Append("--branch").AppendQuoted(Argument("branch", Ask("rev-parse --abbrev-ref HEAD")))
        .Append("--parents").AppendQuoted(Ask($"rev-parse {commit ?? "HEAD"}^@")).Append("--results").AppendQuoted(MakeAbsolute(budgetResults + File("results.json")).FullPath));
}

Task("Upload")
    .Description("Sends the last run's artifacts/budgets/results.json to a results server (perfbudgets upload, docs/results-server.md) with HEAD's commit and parents and the branch checked out (--branch=NAME where HEAD is detached, as in CI): --server=URL (default http://127.0.0.1:5080, where `perfbudgets-server` listens), --project=NAME (default perfgate) and --token-file=FILE (default perfbudgets.token: the write token `perfbudgets-server --add-project NAME` printed). The dashboard is then at the server's address.")
    .Does(() => UploadRun(Argument("server", "http://127.0.0.1:5080"), Argument("project", "perfgate"), Argument("token-file", "perfbudgets.token")));

// The local results server of the Dashboard target: one SQLite file under artifacts, kept across runs.
var dashboardFolder = artifacts + Directory("results-server");
var dashboardUrl = Argument("server-url", "http://127.0.0.1:5080");

var dashboard = Task("Dashboard")
    .Description("Runs the gate (every suite and the report) and shows the run on a local results server: `perfbudgets-server` on artifacts/results-server/results.db at --server-url=URL (default http://127.0.0.1:5080), started in the background unless one answers there and left running (its log and the command to stop it are printed), project perfgate created on first use with its write token in artifacts/results-server/perfgate.token; then uploads the run and prints the dashboard's address. Each run adds to the series; --exclusive uploads the last run without running the gate.")
    .IsDependentOn("Build").IsDependentOn("Clean.Results")
    .Does(() =>
{
    EnsureDirectoryExists(dashboardFolder);
    var database = MakeAbsolute(dashboardFolder + File("results.db")).FullPath;
    var tokenFile = MakeAbsolute(dashboardFolder + File("perfgate.token")).FullPath;
    if (!Answers(dashboardUrl + "/"))
    {
        if (!FileExists(tokenFile))
        {
            var exit = StartProcess("dotnet", new ProcessSettings { Arguments = new ProcessArgumentBuilder().AppendQuoted(Program("PerfBudgets.Server", configuration))
                .Append("--database").AppendQuoted(database).Append("--add-project perfgate"), RedirectStandardOutput = true }, out var printed);
            if (exit != 0) throw new Exception($"perfbudgets-server --add-project perfgate on {database} exited with {exit}.");
            System.IO.File.WriteAllText(tokenFile, printed.Last().Trim() + "\n");
        }

        // In a session of its own with its output in a file, so it outlives this build and holds no terminal or pipe.
        var log = MakeAbsolute(dashboardFolder + File("serve.log")).FullPath;
        var info = new System.Diagnostics.ProcessStartInfo("setsid") { UseShellExecute = false };
        foreach (var a in new[] { "sh", "-c", "exec \"$@\" >>\"$0\" 2>&1 </dev/null", log, "dotnet", Program("PerfBudgets.Server", configuration), "--database", database, "--url", dashboardUrl })
            info.ArgumentList.Add(a);
        using var started = System.Diagnostics.Process.Start(info);
        WaitUntilAnswers(dashboardUrl + "/", $"The results server did not answer at {dashboardUrl} (see {log})");

        Information($"Results server on {database} at {dashboardUrl} (log: {log}; stop it with: pkill -f 'PerfBudgets.Server.dll --database {database}').");
    }
    else
    {
        Information($"A results server already answers at {dashboardUrl}: the run goes there with {tokenFile}.");
    }

    UploadRun(dashboardUrl, "perfgate", tokenFile);
    Information($"Dashboard: {dashboardUrl}/projects/perfgate");
    FailIfAnySuiteFailed();
});
foreach (var suite in suites) dashboard.IsDependentOn("Test." + suite);
dashboard.IsDependentOn("Report");

var gate = Task("Default").IsDependentOn("Setup").IsDependentOn("Build").IsDependentOn("Clean.Results").Does(() => FailIfAnySuiteFailed());
foreach (var suite in suites) gate.IsDependentOn("Test." + suite);
gate.IsDependentOn("Report").IsDependentOn("Test.Package");

RunTarget(target);
