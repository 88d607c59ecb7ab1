// The gate's targets. `dotnet tool restore && dotnet cake` runs Default: Build → every suite → Report.
// Arguments: --target=NAME, --configuration=Release|Debug, --profile=ci|local (PERF_PROFILE for the budgets).
// No #addin or #tool directives: everything here runs offline with the SDK and Cake's built-in aliases.

var target = Argument("target", "Default");
var configuration = Argument("configuration", "Release");
var profile = Argument("profile", EnvironmentVariable("PERF_PROFILE") ?? "ci");
var benchFilter = Argument("bench-filter", "*");

var solution = File("./PerfGate.slnx");
var artifacts = Directory("./artifacts");
var testResults = artifacts + Directory("test-results");
var budgetResults = artifacts + Directory("budgets");
var failedSuites = new List<string>();

void RunSuite(string suite)
{
    var settings = new DotNetTestSettings
    {
        Configuration = configuration,
        NoBuild = true,
        NoRestore = true,
        ResultsDirectory = testResults,
        Loggers = new[] { $"trx;LogFileName={suite}.trx", "console;verbosity=normal" },
        EnvironmentVariables = new Dictionary<string, string> { ["PERF_PROFILE"] = profile },
    };
    try
    {
        DotNetTest($"./tests/{suite}/{suite}.csproj", settings);
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
    .Description("Empties artifacts/budgets, so the report shows this run's measurements only.")
    .Does(() => CleanDirectory(budgetResults));

Task("Build")
    .Does(() =>
{
    DotNetBuild(solution, new DotNetBuildSettings { Configuration = configuration });
});

Task("Test.Correctness").IsDependentOn("Build").Does(() => RunSuite("Correctness"));
Task("Test.Alloc").IsDependentOn("Build").Does(() => RunSuite("Alloc"));
Task("Test.Cpu").IsDependentOn("Build").Does(() => RunSuite("Cpu"));
Task("Test.Load").IsDependentOn("Build").Does(() => RunSuite("Load"));

Task("Test")
    .IsDependentOn("Clean.Results")
    .IsDependentOn("Test.Correctness")
    .IsDependentOn("Test.Alloc")
    .IsDependentOn("Test.Cpu")
    .IsDependentOn("Test.Load")
    .Does(() => FailIfAnySuiteFailed());

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

Task("Report")
    .Description("Prints artifacts/budgets/summary.md: every budget of the last run, measured beside its limit.")
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
});

Task("Default")
    .IsDependentOn("Build")
    .IsDependentOn("Clean.Results")
    .IsDependentOn("Test.Correctness")
    .IsDependentOn("Test.Alloc")
    .IsDependentOn("Test.Cpu")
    .IsDependentOn("Test.Load")
    .IsDependentOn("Report")
    .Does(() => FailIfAnySuiteFailed());

RunTarget(target);
