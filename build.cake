// The gate's targets. `dotnet tool restore && dotnet cake` runs Default: Build → every suite → Report.
// Arguments: --target=NAME, --configuration=Release|Debug, --profile=ci|local (PERF_PROFILE for the budgets),
// --baseline=PATH (PERF_BASELINE: compare with an earlier results.json), --baseline-ref=REF (the Baseline target's
// branch to take the merge base with, default main).
// No #addin or #tool directives: everything here runs offline with the SDK and Cake's built-in aliases.

var target = Argument("target", "Default");
var configuration = Argument("configuration", "Release");
var profile = Argument("profile", EnvironmentVariable("PERF_PROFILE") ?? "ci");
var benchFilter = Argument("bench-filter", "*");
var baseline = Argument("baseline", EnvironmentVariable("PERF_BASELINE") ?? string.Empty);
var baselineRef = Argument("baseline-ref", "main");

// One id per `dotnet cake` invocation, shared by its test processes, so history.jsonl groups their results as one run.
var runId = EnvironmentVariable("PERF_RUN_ID") ?? $"{DateTime.UtcNow:yyyyMMdd'T'HHmmss'Z'}-{Guid.NewGuid().ToString("N").Substring(0, 6)}";
var commit = EnvironmentVariable("PERF_COMMIT") ?? Git("rev-parse HEAD", throwOnError: false);

var solution = File("./PerfGate.slnx");
// The perfbudgets tool (report, compare, load, record, propose, docs); the targets below run it from source.
var tool = File("./src/PerfBudgets.Tool/PerfBudgets.Tool.csproj");
var artifacts = Directory("./artifacts");
var testResults = artifacts + Directory("test-results");
var budgetResults = artifacts + Directory("budgets");
var packages = artifacts + Directory("packages");
var failedSuites = new List<string>();

var crossCheckCopies = Argument("crosscheck-copies", 16);
var crossCheckSeconds = Argument("crosscheck-seconds", 10);

// Load.Distributed (Locust master and workers). --target names the Cake target, so the server is --target-url.
var locustWorkers = Argument("workers", 2);
var locustExpectWorkers = Argument("expect-workers", locustWorkers);
var locustTargetUrl = Argument("target-url", string.Empty);
var locustMasterBind = Argument("master-bind", "127.0.0.1");
var locustMasterPort = Argument("master-port", 0);
var locustUsers = Argument("users", 16);
var locustSeconds = Argument("locust-seconds", 10);
var locustWarmUpSeconds = Argument("locust-warmup-seconds", 3);
var locustNetns = Argument("netns", false);

string FindOnPath(string name) =>
    (EnvironmentVariable("PATH") ?? string.Empty).Split(System.IO.Path.PathSeparator)
        .Select(dir => System.IO.Path.Combine(dir, name))
        .FirstOrDefault(System.IO.File.Exists);

int FreeLoopbackPort()
{
    var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
    listener.Start();
    var port = ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
    listener.Stop();
    return port;
}

void WaitUntilAnswering(string url, TimeSpan timeout)
{
    using var client = new System.Net.Http.HttpClient();
    var deadline = DateTime.UtcNow + timeout;
    while (true)
    {
        try
        {
            if (client.GetAsync(url).GetAwaiter().GetResult().IsSuccessStatusCode) return;
        }
        catch (System.Net.Http.HttpRequestException) when (DateTime.UtcNow < deadline)
        {
        }

        if (DateTime.UtcNow >= deadline) throw new Exception($"{url} did not answer within {timeout.TotalSeconds} s.");
        System.Threading.Thread.Sleep(200);
    }
}

// Runs a command under bash's `time`, echoes its output, and returns it with the CPU seconds (user + sys) it used.
(List<string> Output, double CpuSeconds) RunTimed(string command, string arguments)
{
    var exit = StartProcess("bash", new ProcessSettings
    {
        Arguments = new ProcessArgumentBuilder().Append("-c").AppendQuoted($"TIMEFORMAT='cpu-seconds %U %S'; time {command} {arguments}"),
        RedirectStandardOutput = true,
        RedirectStandardError = true,
    }, out var stdout, out var stderr);
    var output = stdout.Concat(stderr).ToList();
    output.Where(l => !l.StartsWith("cpu-seconds ")).ToList().ForEach(l => Information(l));
    if (exit != 0)
    {
        throw new Exception($"{command} {arguments} exited with {exit}.");
    }

    var cpu = output.Single(l => l.StartsWith("cpu-seconds ")).Split(' ');
    return (output, double.Parse(cpu[1], System.Globalization.CultureInfo.InvariantCulture) + double.Parse(cpu[2], System.Globalization.CultureInfo.InvariantCulture));
}

// wrk prints its latency distribution as "     99%    4.56ms" (us, ms or s).
double WrkLatencyMs(IEnumerable<string> output, string percentile)
{
    var text = output.Select(l => l.Trim()).First(l => l.StartsWith(percentile + " ")).Substring(percentile.Length).Trim();
    var unit = text.EndsWith("us") ? 0.001 : text.EndsWith("ms") ? 1 : 1000;
    var number = text.TrimEnd('u', 'm', 's');
    return double.Parse(number, System.Globalization.CultureInfo.InvariantCulture) * unit;
}

// The package id.version.nupkg in artifacts/packages (not its symbols package, nor another id that starts the same:
// PerfBudgets.Tool.0.2.0.nupkg is not a version of PerfBudgets).
FilePath PackageFile(string id) =>
    GetFiles($"{packages}/{id}.*.nupkg")
        .Where(f => System.Text.RegularExpressions.Regex.IsMatch(f.GetFilename().ToString(), $@"^{System.Text.RegularExpressions.Regex.Escape(id)}\.\d[^/]*(?<!\.symbols)\.nupkg$"))
        .Single();

string PackageVersion(string id) => PackageFile(id).GetFilenameWithoutExtension().ToString().Substring(id.Length + 1);

// The full names of the types defined in a package's lib/ assemblies, read from their metadata (nothing is loaded).
IReadOnlyList<string> PackageTypeNames(string id)
{
    using var package = System.IO.Compression.ZipFile.OpenRead(PackageFile(id).FullPath);
    var names = new List<string>();
    foreach (var entry in package.Entries.Where(e => e.FullName.StartsWith("lib/", StringComparison.Ordinal) && e.FullName.EndsWith(".dll", StringComparison.Ordinal)))
    {
        using var stream = new System.IO.MemoryStream();
        using (var zipped = entry.Open()) { zipped.CopyTo(stream); }
        stream.Position = 0;
        using var pe = new System.Reflection.PortableExecutable.PEReader(stream);
        var metadata = System.Reflection.Metadata.PEReaderExtensions.GetMetadataReader(pe);
        names.AddRange(metadata.TypeDefinitions.Select(metadata.GetTypeDefinition)
            .Select(t => $"{metadata.GetString(t.Namespace)}.{metadata.GetString(t.Name)}"));
    }

    return names;
}

// The budget suites: what the Baseline target runs twice (the correctness suite measures nothing).
var budgetSuites = new[] { "Alloc", "Cpu", "Load" };

string Git(string arguments, bool throwOnError = true, string workingDirectory = ".")
{
    var exit = StartProcess("git", new ProcessSettings { Arguments = arguments, WorkingDirectory = workingDirectory, RedirectStandardOutput = true, RedirectStandardError = true }, out var output, out var errors);
    if (exit != 0)
    {
        if (throwOnError)
        {
            throw new Exception($"git {arguments} failed ({exit}): {string.Join(Environment.NewLine, errors)}");
        }

        return null;
    }

    return string.Join(Environment.NewLine, output).Trim();
}

Dictionary<string, string> SuiteEnvironment(string baselinePath)
{
    var environment = new Dictionary<string, string> { ["PERF_PROFILE"] = profile, ["PERF_RUN_ID"] = runId };
    if (!string.IsNullOrEmpty(commit))
    {
        environment["PERF_COMMIT"] = commit;
    }

    if (!string.IsNullOrWhiteSpace(baselinePath))
    {
        // An absolute path: the test processes run in their own folders. A missing file is reported by every budget
        // test (PerfBudgets.BaselineFileException), never skipped.
        environment["PERF_BASELINE"] = MakeAbsolute(File(baselinePath)).FullPath;
    }

    return environment;
}

// A suite's project: the one .csproj in tests/SUITE (tests/Correctness/Correctness.csproj, tests/PerfBudgets/PerfBudgets.Tests.csproj).
string SuiteProject(string suite) => GetFiles($"./tests/{suite}/*.csproj").Single().FullPath;

void RunSuite(string suite, string baselinePath = null)
{
    var settings = new DotNetTestSettings
    {
        Configuration = configuration,
        NoBuild = true,
        NoRestore = true,
        ResultsDirectory = testResults,
        Loggers = new[] { $"trx;LogFileName={suite}.trx", "console;verbosity=normal" },
        EnvironmentVariables = SuiteEnvironment(baselinePath ?? baseline),
    };
    try
    {
        DotNetTest(SuiteProject(suite), settings);
    }
    catch (Exception e)
    {
        // Every suite runs even when an earlier one fails, so the report shows every budget of the run.
        Error($"{suite}: {e.Message}");
        failedSuites.Add(suite);
    }
}

void FailIfAnySuiteFailed()
{
    if (failedSuites.Count > 0)
    {
        throw new Exception($"Failed suites: {string.Join(", ", failedSuites)}. See the budget table above and {testResults}.");
    }
}

Task("Clean")
    .Does(() =>
{
    CleanDirectory(artifacts);
    DotNetClean(solution, new DotNetCleanSettings { Configuration = configuration });
});

Task("Clean.Results")
    .Description("Empties artifacts/budgets except history.jsonl, so the report shows this run's measurements only and the history of every run is kept.")
    .Does(() =>
{
    EnsureDirectoryExists(budgetResults);
    DeleteFiles(GetFiles($"{budgetResults}/*").Where(f => f.GetFilename().ToString() != "history.jsonl"));
    foreach (var directory in System.IO.Directory.GetDirectories(MakeAbsolute(budgetResults).FullPath))
    {
        DeleteDirectory(directory, new DeleteDirectorySettings { Recursive = true, Force = true });
    }
});

Task("Build")
    .Does(() =>
{
    DotNetBuild(solution, new DotNetBuildSettings { Configuration = configuration });
});

Task("Test.PerfBudgets").IsDependentOn("Build").Does(() => RunSuite("PerfBudgets"));
Task("Test.Correctness").IsDependentOn("Build").Does(() => RunSuite("Correctness"));
Task("Test.Alloc").IsDependentOn("Build").Does(() => RunSuite("Alloc"));
Task("Test.Cpu").IsDependentOn("Build").Does(() => RunSuite("Cpu"));
Task("Test.Load").IsDependentOn("Build").Does(() => RunSuite("Load"));

Task("Test")
    .IsDependentOn("Clean.Results")
    .IsDependentOn("Test.PerfBudgets")
    .IsDependentOn("Test.Correctness")
    .IsDependentOn("Test.Alloc")
    .IsDependentOn("Test.Cpu")
    .IsDependentOn("Test.Load")
    .Does(() => FailIfAnySuiteFailed());

Task("Pack")
    .Description("Writes the PerfBudgets packages (the core and its add-ons) with their symbols packages, and the PerfBudgets.Tool package (the perfbudgets dotnet tool), to artifacts/packages.")
    .Does(() =>
{
    CleanDirectory(packages);
    foreach (var project in new[] { "PerfBudgets", "PerfBudgets.Diagnostics", "PerfBudgets.Reporting.Html" })
    {
        DotNetPack($"./src/{project}/{project}.csproj", new DotNetPackSettings { Configuration = "Release", OutputDirectory = packages });
        Information($"Package: {PackageFile(project)}");
    }

    DotNetPack(tool, new DotNetPackSettings { Configuration = "Release", OutputDirectory = packages });
    Information($"Tool package: {PackageFile("PerfBudgets.Tool")}");
});

// The assemblies of the add-ons' dependencies: a consumer of the core alone must have none of them in its output.
var addOnDependencies = new[] { "Microsoft.Diagnostics.Tracing.TraceEvent.dll", "Microsoft.Diagnostics.NETCore.Client.dll", "OxyPlot.dll" };

Task("Test.Package")
    .Description("Adopts the packages in throw-away projects outside the repository: the core alone must gate an allocation and a load budget without the add-ons' dependencies in its output, and fail naming its budget with one extra allocation per operation; the perfbudgets tool, installed from its package, must report, compare and propose on the consumer's results; the add-ons must diagnose a broken budget and write report.html.")
    .IsDependentOn("Pack")
    .Does(() =>
{
    var version = PackageVersion("PerfBudgets");
    var toolVersion = PackageVersion("PerfBudgets.Tool");
    Information($"PerfBudgets {version}, PerfBudgets.Tool {toolVersion}");

    // The core holds what an adopter runs: this repository's markdown-table generator and Locust reader are the tool's.
    var coreTypes = PackageTypeNames("PerfBudgets");
    var machinery = coreTypes.Where(t => t.Contains(".DocTable", StringComparison.Ordinal) || t.Contains(".Locust", StringComparison.Ordinal)).ToList();
    if (coreTypes.Count == 0 || machinery.Count > 0)
    {
        throw new Exception($"The core package's lib/ assembly holds this repository's machinery ({string.Join(", ", machinery)}) or no types at all.");
    }

    Information($"The core package's {coreTypes.Count} types hold no markdown-table generator and no Locust reader.");

    // Copies a consumer project to a temporary folder with a nuget.config that takes the packages from the local folder
    // and everything else from the feed, into a private packages folder (so a package of the same version restored
    // earlier can never stand in for the one just built), runs it, and deletes what it made.
    void WithConsumer(string template, Action<string, Func<string, string, (int Exit, string Output)>> use)
    {
        var consumer = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "perfbudgets-consumer-" + Guid.NewGuid().ToString("N"));
        var consumerPackages = consumer + "-packages";
        System.IO.Directory.CreateDirectory(consumer);
        try
        {
            CopyFiles(GetFiles($"./build/{template}/*"), consumer);
            System.IO.File.WriteAllText(System.IO.Path.Combine(consumer, "nuget.config"), $@"<?xml version=""1.0"" encoding=""utf-8""?>
<configuration>
  <config><add key=""globalPackagesFolder"" value=""{consumerPackages}"" /></config>
  <packageSources>
    <clear />
    <add key=""local"" value=""{MakeAbsolute(packages)}"" />
    <add key=""nuget.org"" value=""https://api.nuget.org/v3/index.json"" />
  </packageSources>
</configuration>");

            (int, string) Run(string program, string arguments)
            {
                var environment = new Dictionary<string, string> { ["PerfBudgetsVersion"] = version, ["PERF_PROFILE"] = "ci" };
                // The tool's launcher looks for the runtime in DOTNET_ROOT before the default install folders.
                var dotnet = FindOnPath("dotnet");
                if (string.IsNullOrEmpty(EnvironmentVariable("DOTNET_ROOT")) && dotnet != null)
                {
                    environment["DOTNET_ROOT"] = System.IO.Path.GetDirectoryName(new System.IO.FileInfo(dotnet).ResolveLinkTarget(true)?.FullName ?? dotnet);
                }

                var exit = StartProcess(program, new ProcessSettings
                {
                    Arguments = arguments,
                    WorkingDirectory = consumer,
                    RedirectStandardOutput = true,
                    RedirectStandardError = true,
                    EnvironmentVariables = environment,
                }, out var lines, out var errors);
                return (exit, string.Join(Environment.NewLine, lines.Concat(errors)));
            }

            use(consumer, Run);
        }
        finally
        {
            foreach (var folder in new[] { consumer, consumerPackages, consumer + "-tool" }.Where(System.IO.Directory.Exists))
            {
                System.IO.Directory.Delete(folder, recursive: true);
            }
        }
    }

    WithConsumer("package-consumer", (consumer, run) =>
    {
        Information($"Core consumer at {consumer}: dotnet test");
        var (exit, passing) = run("dotnet", "test");
        if (exit != 0)
        {
            throw new Exception($"The consumer of the core package failed against it:{Environment.NewLine}{passing}");
        }

        var output = System.IO.Directory.GetFiles(System.IO.Path.Combine(consumer, "bin"), "*.dll", System.IO.SearchOption.AllDirectories)
            .Select(System.IO.Path.GetFileName).ToHashSet(StringComparer.OrdinalIgnoreCase);
        var leaked = addOnDependencies.Where(output.Contains).ToList();
        if (leaked.Count > 0 || !output.Contains("PerfBudgets.dll"))
        {
            throw new Exception($"The core consumer's output holds add-on dependencies ({string.Join(", ", leaked)}) or no PerfBudgets.dll.");
        }

        Information($"Core consumer passes, and its output holds none of {string.Join(", ", addOnDependencies)}.");

        // The tool, installed from the local folder as a user installs it, on the passing run's results and history.
        var toolPath = consumer + "-tool";
        Information($"perfbudgets {toolVersion}: dotnet tool install PerfBudgets.Tool --tool-path {toolPath}");
        var (installExit, install) = run("dotnet", $"tool install PerfBudgets.Tool --version {toolVersion} --tool-path \"{toolPath}\"");
        if (installExit != 0)
        {
            throw new Exception($"The tool package did not install:{Environment.NewLine}{install}");
        }

        var perfbudgets = System.IO.Path.Combine(toolPath, "perfbudgets");
        var consumerResults = System.IO.Path.Combine(consumer, "artifacts", "budgets");
        var resultsJson = System.IO.Path.Combine(consumerResults, "results.json");
        foreach (var arguments in new[]
        {
            $"report \"{consumerResults}\"",
            $"compare \"{resultsJson}\" \"{resultsJson}\" --budgets budgets.json",
            $"propose --history \"{System.IO.Path.Combine(consumerResults, "history.jsonl")}\" --budgets budgets.json",
        })
        {
            var (toolExit, toolOutput) = run(perfbudgets, arguments);
            if (toolExit != 0)
            {
                throw new Exception($"perfbudgets {arguments} exited with {toolExit}:{Environment.NewLine}{toolOutput}");
            }

            Information($"perfbudgets {arguments}:{Environment.NewLine}{toolOutput}");
        }

        if (!System.IO.File.Exists(System.IO.Path.Combine(consumerResults, "report.html")))
        {
            throw new Exception($"perfbudgets report wrote no {consumerResults}/report.html.");
        }

        Information("With one extra allocation per operation: dotnet test -p:ExtraAllocation=true");
        var (brokenExit, broken) = run("dotnet", "test -p:ExtraAllocation=true");
        var failureLine = broken.Split('\n').FirstOrDefault(l => l.Contains("Consumer.Greeting.Format.BytesPerOp:"));
        if (brokenExit == 0 || failureLine == null)
        {
            throw new Exception($"The broken consumer did not fail naming Consumer.Greeting.Format.BytesPerOp (exit {brokenExit}):{Environment.NewLine}{broken}");
        }

        Information($"The broken consumer fails as it must: {failureLine.Trim()}");
    });

    WithConsumer("package-addons-consumer", (consumer, run) =>
    {
        Information($"Add-ons consumer at {consumer}: dotnet test");
        var (exit, output) = run("dotnet", "test");
        if (exit != 0)
        {
            throw new Exception($"The consumer of the add-on packages failed against them:{Environment.NewLine}{output}");
        }

        Information("Add-ons consumer passes: a broken CPU budget names its hot method (PerfBudgets.Diagnostics) and report.html is written (PerfBudgets.Reporting.Html).");
    });
});

Task("Bench")
    .Description("BenchmarkDotNet, MemoryDiagnoser on; --bench-filter narrows it (default *). Not part of CI.")
    .Does(() =>
{
    DotNetRun("./bench/Bench.csproj", new ProcessArgumentBuilder().Append("--filter").AppendQuoted(benchFilter),
        new DotNetRunSettings { Configuration = "Release" });
});

Task("Bench.Json")
    .Description("The JSON pools scaling table (1..32 threads), CSV and chart.")
    .Does(() =>
{
    DotNetRun("./bench/Bench.csproj", new ProcessArgumentBuilder().Append("json-scaling"),
        new DotNetRunSettings { Configuration = "Release" });
});

Task("Load.CrossCheck")
    .Description("Runs GET /api/employees?count=9 at the same concurrency with our load runner and with wrk, one after the other, and prints both. Needs wrk (apt-get install wrk). Not part of Default or CI.")
    .IsDependentOn("Build")
    .Does(() =>
{
    var wrk = FindOnPath("wrk");
    if (wrk == null)
    {
        throw new Exception("Load.CrossCheck needs wrk, the independent load generator, and it is not on PATH. Install it: `sudo apt-get install wrk` (Debian/Ubuntu), `brew install wrk` (macOS); then run `dotnet cake --target=Load.CrossCheck` again.");
    }

    var copies = crossCheckCopies;
    var seconds = crossCheckSeconds;
    var port = FreeLoopbackPort();
    var url = $"http://127.0.0.1:{port}/api/employees?count=9";
    var app = MakeAbsolute(File($"./src/SystemUnderTest/bin/{configuration}/net10.0/SystemUnderTest.dll")).FullPath;
    var loadRun = MakeAbsolute(File($"./src/PerfBudgets.Tool/bin/{configuration}/net10.0/PerfBudgets.Tool.dll")).FullPath;

    // The server runs in its own process on loopback, shared by both generators in turn; on a small machine each
    // generator takes cores from the server, which is part of what the comparison shows.
    var server = new System.Diagnostics.Process { StartInfo = new System.Diagnostics.ProcessStartInfo("dotnet") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true } };
    foreach (var a in new[] { app, "--urls", $"http://127.0.0.1:{port}", "--Logging:LogLevel:Default=Warning" }) server.StartInfo.ArgumentList.Add(a);
    server.Start();
    server.BeginOutputReadLine();
    server.BeginErrorReadLine();
    try
    {
        WaitUntilAnswering(url, TimeSpan.FromSeconds(30));
        // The server is warmed (JIT, pools) before either generator is measured, so neither pays for its start.
        Information($"Warming the server: wrk 3 s");
        RunTimed(wrk, $"-t2 -c{copies} -d3s {url}");
        var serverCpu0 = server.TotalProcessorTime;
        Information($"Our runner: {copies} copies (closed model), 3 s warm-up + {seconds} s, {url}");
        var ours = RunTimed("dotnet", $"\"{loadRun}\" load {url} --connections {copies} --warmup 3 --duration {seconds}");
        var serverCpu1 = server.TotalProcessorTime;
        Information($"wrk: 2 threads, {copies} connections, {seconds} s, --latency");
        var serverCpu2 = server.TotalProcessorTime;
        var theirs = RunTimed(wrk, $"-t2 -c{copies} -d{seconds}s --latency {url}");
        var serverCpu3 = server.TotalProcessorTime;

        var oursLine = ours.Output.Single(l => l.StartsWith("load rps="));
        var oursValues = oursLine.Substring("load ".Length).Split(' ').Select(kv => kv.Split('=')).ToDictionary(kv => kv[0], kv => double.Parse(kv[1], System.Globalization.CultureInfo.InvariantCulture));
        var wrkRps = double.Parse(theirs.Output.Single(l => l.StartsWith("Requests/sec:")).Split(':')[1].Trim(), System.Globalization.CultureInfo.InvariantCulture);
        var wrkP50 = WrkLatencyMs(theirs.Output, "50%");
        var wrkP99 = WrkLatencyMs(theirs.Output, "99%");
        var wrkErrors = theirs.Output.Where(l => l.Contains("Non-2xx") || l.Contains("Socket errors")).ToList();

        // Generator CPU per request: each generator's own CPU seconds (from bash's `time`) ÷ the requests it completed.
        var oursRequests = oursValues["rps"] * (3 + seconds);
        var wrkRequests = wrkRps * seconds;
        var table = new System.Text.StringBuilder();
        table.AppendLine($"| GET /api/employees?count=9, {copies} connections, {seconds} s, {Environment.ProcessorCount} cores | PerfBudgets LoadRunner | wrk |");
        table.AppendLine("|---|---:|---:|");
        table.AppendLine($"| requests/s | {oursValues["rps"]:N0} | {wrkRps:N0} |");
        table.AppendLine($"| p50 latency, ms | {oursValues["p50"]:0.###} | {wrkP50:0.###} |");
        table.AppendLine($"| p99 latency, ms | {oursValues["p99"]:0.###} | {wrkP99:0.###} |");
        table.AppendLine($"| generator CPU per request, µs | {ours.CpuSeconds / oursRequests * 1e6:0} | {theirs.CpuSeconds / wrkRequests * 1e6:0} |");
        table.AppendLine($"| server CPU per request, µs | {(serverCpu1 - serverCpu0).TotalSeconds / oursRequests * 1e6:0} | {(serverCpu3 - serverCpu2).TotalSeconds / wrkRequests * 1e6:0} |");
        table.AppendLine($"| failed | {oursValues["failed"]:0} | {(wrkErrors.Count == 0 ? "0" : string.Join("; ", wrkErrors.Select(e => e.Trim())))} |");
        Information(Environment.NewLine + table);
        System.IO.Directory.CreateDirectory(budgetResults);
        System.IO.File.WriteAllText(budgetResults + File("load-crosscheck.md"), table.ToString());
        Information($"Written to {budgetResults}/load-crosscheck.md");
    }
    finally
    {
        server.Kill(entireProcessTree: true);
        server.WaitForExit();
    }
});

Task("Load.Distributed")
    .Description("Distributed load on Locust: a master and --workers=N workers (default 2), headless, run GET /api/employees?count=9 (load/locust/locustfile.py, class Employees9) against --target-url=URL or the system under test started here in Release; a warm-up run, then a measured run whose CSV statistics perfbudgets locust gates against Json.Endpoint.Employees9.Distributed.* and records in results.json. --netns=true runs server, master and two workers in network namespaces of their own (load/locust/netns-run.sh, root). Needs Locust (apt-get install python3-locust). Not part of Default or CI.")
    .Does(() =>
{
    var locust = FindOnPath("locust");
    if (locust == null)
    {
        throw new Exception("Load.Distributed needs Locust, and there is no `locust` on PATH. Install it: `sudo apt-get install python3-locust` (Debian/Ubuntu, 2.12.1; load/locust/run_locust.py works around its empty version string) or `pip install locust`; then run `dotnet cake --target=Load.Distributed` again.");
    }

    // The interpreter that runs the locust command is the one that can import locust (a pyenv python3 on PATH may not).
    var shebang = System.IO.File.ReadLines(locust).FirstOrDefault() ?? string.Empty;
    var python = shebang.StartsWith("#!") && !shebang.Contains("/env ") ? shebang.Substring(2).Trim() : "python3";
    if (locustWorkers < 0 || locustExpectWorkers < 1 || locustUsers < 1 || locustSeconds < 1 || locustSeconds > 3600 || locustWarmUpSeconds < 0 || locustWarmUpSeconds > 600)
    {
        throw new Exception("Load.Distributed: --workers ≥ 0, --expect-workers ≥ 1, --users ≥ 1, --locust-seconds 1 to 3600 and --locust-warmup-seconds 0 to 600.");
    }

    DotNetBuild("./src/SystemUnderTest/SystemUnderTest.csproj", new DotNetBuildSettings { Configuration = "Release" });
    DotNetBuild(tool, new DotNetBuildSettings { Configuration = "Release" });
    var toolDll = MakeAbsolute(File("./src/PerfBudgets.Tool/bin/Release/net10.0/PerfBudgets.Tool.dll")).FullPath;
    var launcher = MakeAbsolute(File("./load/locust/run_locust.py")).FullPath;
    var locustfile = MakeAbsolute(File("./load/locust/locustfile.py")).FullPath;
    var csvFolder = MakeAbsolute(budgetResults + Directory("locust")).FullPath;
    System.IO.Directory.CreateDirectory(csvFolder);
    const string scenario = "Json.Endpoint.Employees9.Distributed";

    void Gate(string measuredPrefix, string warmUpPrefix, string phases)
    {
        var environment = SuiteEnvironment(baseline);
        var arguments = new ProcessArgumentBuilder().AppendQuoted(toolDll).Append("locust").AppendQuoted(measuredPrefix)
            .Append("--scenario").Append(scenario).Append("--users").Append(locustUsers.ToString())
            .Append("--phases").AppendQuoted(phases).Append("--budgets").AppendQuoted(MakeAbsolute(File("./budgets.json")).FullPath);
        if (warmUpPrefix != null) arguments.Append("--warmup-prefix").AppendQuoted(warmUpPrefix);
        var exit = StartProcess("dotnet", new ProcessSettings { Arguments = arguments, EnvironmentVariables = environment });
        if (exit != 0)
        {
            throw new Exception($"Load.Distributed: a {scenario} budget is broken or the statistics could not be read (perfbudgets locust exited with {exit}; see above).");
        }
    }

    if (locustNetns)
    {
        // Server, master and two workers each in a network namespace of its own, joined by veth pairs to a bridge in
        // another; the script creates them, runs the warm-up and measured runs, and removes them whatever happens.
        var prefix = System.IO.Path.Combine(csvFolder, "netns");
        var exit = StartProcess("bash", new ProcessSettings
        {
            Arguments = new ProcessArgumentBuilder().AppendQuoted(MakeAbsolute(File("./load/locust/netns-run.sh")).FullPath)
                .Append(locustUsers.ToString()).Append(locustWarmUpSeconds.ToString()).Append(locustSeconds.ToString()).AppendQuoted(prefix),
            EnvironmentVariables = new Dictionary<string, string> { ["PYTHON"] = python },
        });
        if (exit != 0) throw new Exception($"Load.Distributed --netns: load/locust/netns-run.sh exited with {exit}.");
        Gate(prefix + "-measured", locustWarmUpSeconds > 0 ? prefix + "-warmup" : null,
            $"Locust 2 workers + master + server in 4 network namespaces, {locustUsers} users (closed, no wait), {locustWarmUpSeconds} s warm-up run + {locustSeconds} s");
        return;
    }

    System.Diagnostics.Process server = null;
    var url = locustTargetUrl;
    if (string.IsNullOrEmpty(url))
    {
        var port = FreeLoopbackPort();
        url = $"http://127.0.0.1:{port}";
        server = new System.Diagnostics.Process { StartInfo = new System.Diagnostics.ProcessStartInfo("dotnet") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true } };
        foreach (var a in new[] { MakeAbsolute(File("./src/SystemUnderTest/bin/Release/net10.0/SystemUnderTest.dll")).FullPath, "--urls", url, "--Logging:LogLevel:Default=Warning" }) server.StartInfo.ArgumentList.Add(a);
        server.Start();
        server.BeginOutputReadLine();
        server.BeginErrorReadLine();
    }

    try
    {
        WaitUntilAnswering(url.TrimEnd('/') + "/api/employees?count=9", TimeSpan.FromSeconds(30));
        var masterPort = locustMasterPort > 0 ? locustMasterPort : FreeLoopbackPort();
        var masterHost = locustMasterBind is "0.0.0.0" or "*" ? "127.0.0.1" : locustMasterBind;
        Information($"Locust at {python}: master on {locustMasterBind}:{masterPort}, {locustWorkers} local workers, {locustExpectWorkers} expected; {locustUsers} users against {url}.");
        if (locustExpectWorkers > locustWorkers)
        {
            Information($"Waiting for {locustExpectWorkers - locustWorkers} more worker(s); on each other machine, from a clone of this repository:{Environment.NewLine}  python3 load/locust/run_locust.py -f load/locust/locustfile.py --worker --master-host <this machine's address> --master-port {masterPort}");
        }

        // One headless Locust run: the master, then the workers; every process is killed if the run has not ended
        // 60 s after its run time, so the target always ends.
        void RunLocust(string prefix, int seconds)
        {
            var processes = new List<System.Diagnostics.Process>();
            System.Diagnostics.Process Start(params string[] arguments)
            {
                var info = new System.Diagnostics.ProcessStartInfo(python) { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
                foreach (var a in new[] { launcher, "-f", locustfile }.Concat(arguments)) info.ArgumentList.Add(a);
                var process = System.Diagnostics.Process.Start(info);
                process.OutputDataReceived += (_, e) => { if (e.Data != null) Verbose(e.Data); };
                process.ErrorDataReceived += (_, e) => { if (e.Data != null && (e.Data.Contains("ERROR") || e.Data.Contains("WARNING") || e.Data.Contains("Traceback"))) Warning(e.Data); };
                process.BeginOutputReadLine();
                process.BeginErrorReadLine();
                processes.Add(process);
                return process;
            }

            try
            {
                var master = Start("--master", "--master-bind-host", locustMasterBind, "--master-bind-port", masterPort.ToString(),
                    "--expect-workers", locustExpectWorkers.ToString(), "--expect-workers-max-wait", "60", "--headless",
                    "-u", locustUsers.ToString(), "-r", locustUsers.ToString(), "--run-time", $"{seconds}s", "--stop-timeout", "5",
                    "--csv", prefix, "--csv-full-history", "--only-summary", "--host", url, "Employees9");
                for (var i = 0; i < locustWorkers; i++)
                {
                    Start("--worker", "--master-host", masterHost, "--master-port", masterPort.ToString());
                }

                if (!master.WaitForExit((seconds + 60 + 60) * 1000))
                {
                    throw new Exception($"The Locust master did not end within {seconds + 120} s of a {seconds} s run.");
                }

                master.WaitForExit();
                foreach (var worker in processes.Skip(1)) worker.WaitForExit(15_000);
            }
            finally
            {
                foreach (var process in processes.Where(p => !p.HasExited)) process.Kill(entireProcessTree: true);
            }
        }

        string warmUpPrefix = null;
        if (locustWarmUpSeconds > 0)
        {
            // The warm-up is a run of its own (JIT, pools, connections), so the measured run's percentiles are Locust's
            // own over its whole window; its failures still count.
            warmUpPrefix = System.IO.Path.Combine(csvFolder, "warmup");
            Information($"Warm-up run: {locustWarmUpSeconds} s");
            RunLocust(warmUpPrefix, locustWarmUpSeconds);
        }

        var measuredPrefix = System.IO.Path.Combine(csvFolder, "measured");
        Information($"Measured run: {locustSeconds} s");
        RunLocust(measuredPrefix, locustSeconds);
        Gate(measuredPrefix, warmUpPrefix,
            $"Locust {locustExpectWorkers} workers, {locustUsers} users (closed, no wait), {locustWarmUpSeconds} s warm-up run + {locustSeconds} s, {Environment.ProcessorCount} cores");
    }
    finally
    {
        if (server != null)
        {
            server.Kill(entireProcessTree: true);
            server.WaitForExit();
        }
    }
});

Task("Record.Instructions")
    .Description("Re-records the counted budgets (instructions-max, syscalls-max): runs the counted tests of tests/Cpu --record-runs times (default 3), then rewrites each one's recorded count (the median of the runs), limit (recorded + its margin) and versions in budgets.json and its breakdown in budgets.methods.json, printing old → new. A commit that changes them carries that output.")
    .IsDependentOn("Build")
    .IsDependentOn("Clean.Results")
    .Does(() =>
{
    var runs = Argument("record-runs", 3);
    var recordings = new List<string>();
    for (var run = 1; run <= runs; run++)
    {
        try
        {
            DotNetTest("./tests/Cpu/Cpu.csproj", new DotNetTestSettings
            {
                Configuration = configuration,
                NoBuild = true,
                NoRestore = true,
                Filter = "FullyQualifiedName~CountTests",
                EnvironmentVariables = SuiteEnvironment(baseline),
            });
        }
        catch (Exception e)
        {
            // Budgets that no longer hold are what a re-recording is for; their figures are in results.json all the same.
            Warning($"Counted tests, run {run} of {runs}: {e.Message} (recording what they measured)");
        }

        var copy = MakeAbsolute(budgetResults + File($"recording-{run}.json")).FullPath;
        System.IO.File.Copy(MakeAbsolute(budgetResults + File("results.json")).FullPath, copy, overwrite: true);
        recordings.Add(copy);
    }

    var arguments = new ProcessArgumentBuilder().Append("run").Append("--project").AppendQuoted(MakeAbsolute(tool).FullPath)
        .Append("-c").Append(configuration).Append("--").Append("record").AppendQuoted(MakeAbsolute(File("./budgets.json")).FullPath);
    recordings.ForEach(path => arguments.AppendQuoted(path));
    var exit = StartProcess("dotnet", new ProcessSettings { Arguments = arguments });
    if (exit != 0) throw new Exception($"Recording failed (exit {exit}).");
});

Task("Report")
    .Description("Prints artifacts/budgets/summary.md (every budget of the last run beside its limit, and its baseline when there was one) and writes artifacts/budgets/report.html.")
    .Does(() =>
{
    var summary = budgetResults + File("summary.md");
    if (!FileExists(summary))
    {
        Warning($"No {summary} yet: run a test target first.");
        return;
    }

    Information(System.IO.File.ReadAllText(summary));
    Information($"Results: {budgetResults}/results.json (profile {profile}).");

    // report.html from results.json and history.jsonl (perfbudgets report, built here if it is not up to date).
    DotNetRun(tool, new ProcessArgumentBuilder().Append("report").AppendQuoted(MakeAbsolute(budgetResults).FullPath),
        new DotNetRunSettings { Configuration = configuration });
});

Task("Docs")
    .Description("Fills the generated tables of docs/*.md and README.md (<!-- table: ... --> markers) from artifacts/budgets/results.json and history.jsonl; runs no suite.")
    .Does(() =>
{
    if (!FileExists(budgetResults + File("results.json")))
    {
        throw new Exception($"No {budgetResults}/results.json: run the budgets first (dotnet tool restore && dotnet cake), then dotnet cake --target=Docs.");
    }

    DotNetRun(tool, new ProcessArgumentBuilder().Append("docs")
            .AppendQuoted(MakeAbsolute(budgetResults).FullPath).AppendQuoted(MakeAbsolute(Directory("./docs")).FullPath)
            .Append("--file").AppendQuoted(MakeAbsolute(File("./README.md")).FullPath)
            // This repository's tables name the target that fills them, not the tool's own command.
            .Append("--generated-by").AppendQuoted("dotnet cake --target=Docs"),
        new DotNetRunSettings { Configuration = configuration });
});

Task("Baseline")
    .Description("A/B run: the budget suites on `git merge-base HEAD main` (a temporary git worktree, results in a temporary folder), then on HEAD compared with them; prints the comparison.")
    .IsDependentOn("Build")
    .IsDependentOn("Clean.Results")
    .Does(() =>
{
    var mergeBase = Git($"merge-base HEAD {baselineRef}");
    var head = Git("rev-parse HEAD");
    var temp = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "perfgate-baseline-" + Guid.NewGuid().ToString("N"));
    var worktree = System.IO.Path.Combine(temp, "worktree");
    var baselineResults = System.IO.Path.Combine(temp, "budgets");
    Information($"Baseline: merge base of HEAD ({head.Substring(0, 10)}) and {baselineRef} is {mergeBase.Substring(0, 10)}{(mergeBase == head ? " = HEAD: a no-change A/B run" : string.Empty)}.");
    System.IO.Directory.CreateDirectory(temp);
    Git($"worktree add --detach \"{worktree}\" {mergeBase}");
    try
    {
        // A: the merge base, built and measured in the worktree, writing its results into the temporary folder.
        DotNetBuild(System.IO.Path.Combine(worktree, "PerfGate.slnx"), new DotNetBuildSettings { Configuration = configuration });
        foreach (var suite in budgetSuites)
        {
            var environment = SuiteEnvironment(null);
            environment["PERF_ARTIFACTS_DIR"] = baselineResults;
            environment["PERF_RUN_ID"] = runId + "-baseline";
            environment["PERF_COMMIT"] = mergeBase;
            environment["PERF_BASELINE"] = string.Empty;
            try
            {
                DotNetTest(System.IO.Path.Combine(worktree, "tests", suite, suite + ".csproj"), new DotNetTestSettings
                {
                    Configuration = configuration,
                    NoBuild = true,
                    NoRestore = true,
                    Loggers = new[] { "console;verbosity=minimal" },
                    EnvironmentVariables = environment,
                });
            }
            catch (Exception e)
            {
                // A broken budget on the merge base still leaves its figures to compare with.
                Warning($"Baseline {suite} on {mergeBase.Substring(0, 10)}: {e.Message}");
            }
        }

        var baselineFile = System.IO.Path.Combine(baselineResults, "results.json");
        if (!System.IO.File.Exists(baselineFile))
        {
            throw new Exception($"The baseline run on {mergeBase} wrote no {baselineFile}.");
        }

        // B: HEAD, compared with A. The baseline's results are kept beside this run's.
        EnsureDirectoryExists(budgetResults);
        CopyFile(baselineFile, budgetResults + File("baseline-results.json"));
        foreach (var suite in budgetSuites)
        {
            RunSuite(suite, baselineFile);
        }
    }
    finally
    {
        Git($"worktree remove --force \"{worktree}\"", throwOnError: false);
        Git("worktree prune", throwOnError: false);
        if (System.IO.Directory.Exists(temp))
        {
            System.IO.Directory.Delete(temp, recursive: true);
        }
    }

    var summary = budgetResults + File("summary.md");
    Information($"A/B: {mergeBase.Substring(0, 10)} ({baselineRef} merge base) against HEAD {head.Substring(0, 10)}; baseline figure and change per budget:");
    Information(FileExists(summary) ? System.IO.File.ReadAllText(summary) : $"No {summary}: the HEAD run recorded nothing.");
    FailIfAnySuiteFailed();
});

Task("Default")
    .IsDependentOn("Build")
    .IsDependentOn("Clean.Results")
    .IsDependentOn("Test.PerfBudgets")
    .IsDependentOn("Test.Correctness")
    .IsDependentOn("Test.Alloc")
    .IsDependentOn("Test.Cpu")
    .IsDependentOn("Test.Load")
    .IsDependentOn("Report")
    .IsDependentOn("Test.Package")
    .Does(() => FailIfAnySuiteFailed());

RunTarget(target);
