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
var packages = artifacts + Directory("packages");
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

Task("Pack")
    .Description("Writes the PerfBudgets package and its symbols package to artifacts/packages.")
    .Does(() =>
{
    CleanDirectory(packages);
    DotNetPack("./src/PerfBudgets/PerfBudgets.csproj", new DotNetPackSettings { Configuration = "Release", OutputDirectory = packages });
    var nupkg = GetFiles($"{packages}/PerfBudgets.*.nupkg").Where(f => !f.FullPath.EndsWith(".symbols.nupkg")).Single();
    Information($"Package: {nupkg}");
});

Task("Test.Package")
    .Description("Adopts the package in a throw-away project outside the repository: it must pass, and fail naming its budget with one extra allocation per operation.")
    .IsDependentOn("Pack")
    .Does(() =>
{
    var nupkg = GetFiles($"{packages}/PerfBudgets.*.nupkg").Where(f => !f.FullPath.EndsWith(".symbols.nupkg")).Single();
    var version = nupkg.GetFilenameWithoutExtension().ToString().Substring("PerfBudgets.".Length);
    var consumer = System.IO.Path.Combine(System.IO.Path.GetTempPath(), "perfbudgets-consumer-" + Guid.NewGuid().ToString("N"));
    var consumerPackages = consumer + "-packages";
    System.IO.Directory.CreateDirectory(consumer);
    try
    {
        CopyFiles(GetFiles("./build/package-consumer/*"), consumer);
        // The package comes from the local folder; everything else from the feed. A private packages folder, so a
        // package of the same version restored earlier can never stand in for the one just built.
        System.IO.File.WriteAllText(System.IO.Path.Combine(consumer, "nuget.config"), $@"<?xml version=""1.0"" encoding=""utf-8""?>
<configuration>
  <config><add key=""globalPackagesFolder"" value=""{consumerPackages}"" /></config>
  <packageSources>
    <clear />
    <add key=""local"" value=""{MakeAbsolute(packages)}"" />
    <add key=""nuget.org"" value=""https://api.nuget.org/v3/index.json"" />
  </packageSources>
</configuration>");

        int Run(string arguments, out string output)
        {
            var exit = StartProcess("dotnet", new ProcessSettings
            {
                Arguments = arguments,
                WorkingDirectory = consumer,
                RedirectStandardOutput = true,
                EnvironmentVariables = new Dictionary<string, string> { ["PerfBudgetsVersion"] = version, ["PERF_PROFILE"] = "ci" },
            }, out var lines);
            output = string.Join(Environment.NewLine, lines);
            return exit;
        }

        Information($"Consumer at {consumer}, PerfBudgets {version}: dotnet test");
        if (Run("test", out var passing) != 0)
        {
            throw new Exception($"The consumer project failed against the package:{Environment.NewLine}{passing}");
        }

        Information("Consumer passes. With one extra allocation per operation: dotnet test -p:ExtraAllocation=true");
        var brokenExit = Run("test -p:ExtraAllocation=true", out var broken);
        var failureLine = broken.Split('\n').FirstOrDefault(l => l.Contains("Consumer.Greeting.Format.BytesPerOp:"));
        if (brokenExit == 0 || failureLine == null)
        {
            throw new Exception($"The broken consumer did not fail naming Consumer.Greeting.Format.BytesPerOp (exit {brokenExit}):{Environment.NewLine}{broken}");
        }

        Information($"The broken consumer fails as it must: {failureLine.Trim()}");
    }
    finally
    {
        System.IO.Directory.Delete(consumer, recursive: true);
        if (System.IO.Directory.Exists(consumerPackages))
        {
            System.IO.Directory.Delete(consumerPackages, recursive: true);
        }
    }
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
    .IsDependentOn("Test.Package")
    .Does(() => FailIfAnySuiteFailed());

RunTarget(target);
