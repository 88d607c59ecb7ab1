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
        });
    }

    [Fact]
    public void Without_the_variables_the_options_are_the_defaults()
    {
        var options = WithEnvironment([], BudgetGateOptions.FromEnvironment);

        options.Should().Be(new BudgetGateOptions());
        (options.Profile, options.IsCi, options.RequireOptimizedBuild, options.Warnings).Should().Be(("ci", false, true, StandardErrorWarnings.Instance));
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
