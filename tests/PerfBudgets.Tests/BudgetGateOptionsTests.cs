using PerfBudgets;
using PerfBudgets.Budgets;

namespace PerfBudgets.Tests;

// Sets process-wide environment variables for the length of one test, so nothing else runs beside it.
[CollectionDefinition(nameof(EnvironmentChanging), DisableParallelization = true)]
public sealed class EnvironmentChanging;

[Collection(nameof(EnvironmentChanging))]
public sealed class BudgetGateOptionsTests
{
    private static readonly string[] Variables =
    [
        HarnessEnvironment.BudgetsFileVariable, HarnessEnvironment.ProfileVariable, HarnessEnvironment.ResultsDirectoryVariable,
        HarnessEnvironment.BaselineVariable, HarnessEnvironment.BaselineStrictVariable, HarnessEnvironment.DiagnoseVariable,
        HarnessEnvironment.CiVariable, HarnessEnvironment.InstructionsVariable, HarnessEnvironment.RecordingStrictVariable,
        HarnessEnvironment.RunIdVariable, HarnessEnvironment.CommitVariable, HarnessEnvironment.GitHubShaVariable, HarnessEnvironment.StepSummaryVariable,
        HarnessEnvironment.TargetFrameworkVariable,
    ];

    [Fact]
    public void FromEnvironment_reads_every_gate_setting_from_its_variable()
    {
        var options = WithEnvironment(new()
        {
            [HarnessEnvironment.BudgetsFileVariable] = "/budgets/a.json",
            [HarnessEnvironment.ProfileVariable] = " local ",
            [HarnessEnvironment.ResultsDirectoryVariable] = "/out",
            [HarnessEnvironment.BaselineVariable] = "/runs/earlier/results.json",
            [HarnessEnvironment.BaselineStrictVariable] = "1",
            [HarnessEnvironment.DiagnoseVariable] = "Always",
            [HarnessEnvironment.CiVariable] = "true",
            [HarnessEnvironment.InstructionsVariable] = "off",
            [HarnessEnvironment.RecordingStrictVariable] = "true",
            [HarnessEnvironment.RunIdVariable] = "run-7",
            [HarnessEnvironment.GitHubShaVariable] = "0123abc",
            [HarnessEnvironment.StepSummaryVariable] = "/gh/summary.md",
            [HarnessEnvironment.TargetFrameworkVariable] = "net8.0",
        }, BudgetGateOptions.FromEnvironment);

        options.Should().BeEquivalentTo(new BudgetGateOptions
        {
            BudgetsFile = "/budgets/a.json",
            Profile = "local",
            ResultsDirectory = "/out",
            BaselineFile = "/runs/earlier/results.json",
            BaselineStrict = true,
            DiagnoseAlways = true,
            IsCi = true,
            CountedBudgetsOff = true,
            RecordingStrict = true,
            RunId = "run-7",
            Commit = "0123abc",
            StepSummaryFile = "/gh/summary.md",
            TargetFramework = "net8.0",
        });
    }

    [Fact]
    public void PERF_COMMIT_is_read_before_GITHUB_SHA()
    {
        WithEnvironment(new() { [HarnessEnvironment.CommitVariable] = "feed", [HarnessEnvironment.GitHubShaVariable] = "beef" }, BudgetGateOptions.FromEnvironment)
            .Commit.Should().Be("feed");
    }

    [Fact]
    public void A_gate_records_history_under_the_options_run_and_commit_only()
    {
        using var budgets = new Support.TestBudgets("gate");
        var gate = WithEnvironment(new() { [HarnessEnvironment.RunIdVariable] = "from-the-environment" },
            () => budgets.Gate(options: new BudgetGateOptions { RunId = "run-7", Commit = "0123abc" }));

        WithEnvironment(new() { [HarnessEnvironment.RunIdVariable] = "from-the-environment" }, () => gate.Check("Zero.Bytes", 0));

        PerfBudgets.Reporting.Storage.ResultStore.ReadHistory(gate.Store.HistoryPath, out _).Should().ContainSingle()
            .Which.Should().Match<PerfBudgets.Reporting.HistoryEntry>(h => h.RunId == "run-7" && h.Commit == "0123abc");
    }

    public static TheoryData<string, BudgetGateOptions> Invalid => new()
    {
        { "BudgetGateOptions.Profile (PERF_PROFILE) is empty*", new BudgetGateOptions { Profile = " " } },
        { "BudgetGateOptions.BudgetsFile (PERF_BUDGETS_FILE) is empty*", new BudgetGateOptions { BudgetsFile = "" } },
        { "BudgetGateOptions.ResultsDirectory (PERF_ARTIFACTS_DIR) is empty*", new BudgetGateOptions { ResultsDirectory = " " } },
        { "BudgetGateOptions.BaselineFile (PERF_BASELINE) is empty*", new BudgetGateOptions { BaselineFile = "" } },
        { "BudgetGateOptions.StepSummaryFile (GITHUB_STEP_SUMMARY) is empty*", new BudgetGateOptions { StepSummaryFile = "\t" } },
        { "BudgetGateOptions.RunId (PERF_RUN_ID) is empty*", new BudgetGateOptions { RunId = "" } },
        { "BudgetGateOptions.Commit (PERF_COMMIT) is empty*", new BudgetGateOptions { Commit = " " } },
        { "BudgetGateOptions.DiagnosisTimeout is -00:00:01*", new BudgetGateOptions { DiagnosisTimeout = TimeSpan.FromSeconds(-1) } },
        { "BudgetGateOptions.DiagnosisTimeout is 00:00:00*", new BudgetGateOptions { DiagnosisTimeout = TimeSpan.Zero } },
        { "BudgetGateOptions.FloorFactor is 0.5*", new BudgetGateOptions { FloorFactor = 0.5 } },
        { "BudgetGateOptions.FloorFactor is NaN*", new BudgetGateOptions { FloorFactor = double.NaN } },
        { "BudgetGateOptions.Warnings is null*", new BudgetGateOptions { Warnings = null! } },
    };

    [Theory]
    [MemberData(nameof(Invalid))]
    public void A_gate_refuses_an_option_out_of_range_naming_the_setting(string message, BudgetGateOptions options)
    {
        using var budgets = new Support.TestBudgets("gate");

        options.Invoking(o => o.Validate()).Should().Throw<ArgumentException>().WithMessage(message);
        FluentActions.Invoking(() => new BudgetGate(budgets.Book, budgets.Store(), options)).Should().Throw<ArgumentException>().WithMessage(message);
        FluentActions.Invoking(() => BudgetGate.Create(options)).Should().Throw<ArgumentException>().WithMessage(message);
    }

    [Fact]
    public void The_defaults_and_the_edges_of_each_range_are_accepted()
    {
        new BudgetGateOptions().Validate();
        new BudgetGateOptions { FloorFactor = 1, DiagnosisTimeout = Timeout.InfiniteTimeSpan }.Validate();
        new BudgetGateOptions { FloorFactor = double.PositiveInfinity, RunId = "r", Commit = "c", StepSummaryFile = "s" }.Validate();
    }

    [Fact]
    public void Without_the_variables_the_options_are_the_defaults()
    {
        var options = WithEnvironment([], BudgetGateOptions.FromEnvironment);

        options.Should().Be(new BudgetGateOptions());
        (options.Profile, options.IsCi, options.RequireOptimizedBuild, options.Warnings).Should().Be(("ci", false, true, StandardErrorWarnings.Instance));
        options.TargetFramework.Should().Be("net10.0", "the limits are the ones for the framework the test assembly was built for");
    }

    [Fact]
    public void Every_variable_the_harness_reads_is_listed_once_with_what_it_does()
    {
        HarnessEnvironment.Variables.Select(v => v.Name).Should().OnlyHaveUniqueItems().And.Contain(Variables);
        HarnessEnvironment.Variables.Should().OnlyContain(v => v.Effect.Length > 10);
    }

    [Fact]
    public void A_budget_file_that_does_not_exist_is_an_error_naming_the_setting()
    {
        var act = () => BudgetGate.Create(new BudgetGateOptions { BudgetsFile = "/nowhere/budgets.json" });

        act.Should().Throw<BudgetFileException>().WithMessage("*'/nowhere/budgets.json' does not exist*PERF_BUDGETS_FILE*");
    }

    private static T WithEnvironment<T>(Dictionary<string, string> values, Func<T> read)
    {
        var saved = Variables.ToDictionary(v => v, Environment.GetEnvironmentVariable);
        try
        {
            foreach (var variable in Variables)
            {
                Environment.SetEnvironmentVariable(variable, values.GetValueOrDefault(variable));
            }

            return read();
        }
        finally
        {
            foreach (var (variable, value) in saved)
            {
                Environment.SetEnvironmentVariable(variable, value);
            }
        }
    }
}
