using PerfBudgets.Reporting;
using PerfBudgets.Tool.Runtimes;

namespace PerfBudgets.Tool.Tests.Runtimes;

public sealed class RuntimeComparisonTests
{
    private static BudgetResult Result(string budget, string kind, double measured, string unit, params (string Method, double Count)[] methods) =>
        new(budget, kind, measured, 100, unit, BudgetVerdict.Pass, "ci", DateTimeOffset.UnixEpoch, MachineInfo.Current, null,
            methods.Length == 0 ? null : new Attribution("by method", [.. methods.Select(m => new AttributionEntry(m.Method, m.Count, unit, null))]));

    private static (string, IReadOnlyDictionary<string, BudgetResult>) Run(string framework, params BudgetResult[] results) =>
        (framework, results.ToDictionary(r => r.Budget, StringComparer.Ordinal));

    // The same two budgets on three runtimes: .NET 9 alone does more work in one method.
    private static readonly RuntimeComparison Comparison = RuntimeComparison.From(
    [
        Run("net8.0", Result("Loop.Saea.Instructions", "instructions-max", 1000, "instructions/op", ("Loop::Run", 600), ("Socket::Send", 400)),
            Result("Loop.Saea.BytesPerOp", "allocated-bytes-per-op", 24, "B/op"), Result("Loop.Saea.MessagesPerSecond", "operations-per-second-min", 9000, "ops/s")),
        Run("net9.0", Result("Loop.Saea.Instructions", "instructions-max", 1020, "instructions/op", ("Loop::Run", 620), ("Socket::Send", 400)),
            Result("Loop.Saea.BytesPerOp", "allocated-bytes-per-op", 0, "B/op")),
        Run("net10.0", Result("Loop.Saea.Instructions", "instructions-max", 1000, "instructions/op", ("Loop::Run", 600), ("Socket::Send", 400)),
            Result("Loop.Saea.BytesPerOp", "allocated-bytes-per-op", 0, "B/op")),
    ]);

    [Fact]
    public void One_table_per_scenario_with_each_runtimes_figure_and_the_ratio_to_the_newest()
    {
        var text = Comparison.Render();

        text.Should().Contain("### Loop.Saea");
        text.Should().Contain("| budget | unit | net8.0 | net9.0 | net10.0 | 8 ÷ 10 | 9 ÷ 10 |");
        text.Should().Contain("| `Loop.Saea.Instructions` | instructions/op | 1,000 | 1,020 | 1,000 | 1.000x | 1.020x |");
        text.Should().Contain("| `Loop.Saea.BytesPerOp` | B/op | 24 | 0 | 0 | (0 on newest) | = |");
    }

    [Fact]
    public void A_change_on_one_runtime_names_the_method_in_both_of_its_pairs_and_nowhere_else()
    {
        var text = Comparison.Render();

        text.Should().Contain("- `Loop.Saea.Instructions`, 8 → 9: `Loop::Run` +20 (600 → 620)");
        text.Should().Contain("- `Loop.Saea.Instructions`, 9 → 10: `Loop::Run` −20 (620 → 600)");
        text.Should().NotContain("Socket::Send +", "a method that did not move is not listed");
    }

    [Fact]
    public void The_runtimes_stubs_and_precompiled_code_compare_as_one_figure()
    {
        var comparison = RuntimeComparison.From(
        [
            Run("net9.0", Result("L.S.Instructions", "instructions-max", 1000, "instructions/op", ("stub<675> AllocateTemporaryEntryPoints<PRECODE_STUB>", 300), ("[precompiled framework code or runtime stubs]", 100), ("A::B", 600))),
            Run("net10.0", Result("L.S.Instructions", "instructions-max", 990, "instructions/op", ("stub ReportStubBlock<MethodCallThunk>", 350), ("[precompiled framework code or runtime stubs]", 40), ("A::B", 600))),
        ]);

        comparison.Render().Should().Contain("- `L.S.Instructions`, 9 → 10: (runtime stubs and precompiled framework code) −10 (400 → 390)");
    }

    [Fact]
    public void Timed_figures_are_left_out()
    {
        Comparison.Render().Should().NotContain("MessagesPerSecond", "a rate compares two runs of the machine, not two runtimes");
    }

    [Fact]
    public void Only_the_budgets_asked_for()
    {
        Comparison.Render(only: ["Loop.Saea.Bytes"]).Should().NotContain("Loop.Saea.Instructions");
    }

    [Fact]
    public void The_report_replaces_only_the_region_between_its_markers()
    {
        var path = Path.Combine(Path.GetTempPath(), $"runtimes-{Guid.NewGuid():N}.md");
        try
        {
            System.IO.File.WriteAllText(path, $"# Title\n\nprose\n\n{RuntimesCommand.BeginMarker}\nold\n{RuntimesCommand.EndMarker}\n\nmore prose\n");

            RuntimesCommand.WriteReport(path, "new table\n");

            System.IO.File.ReadAllText(path).Should().Be($"# Title\n\nprose\n\n{RuntimesCommand.BeginMarker}\n\nnew table\n\n{RuntimesCommand.EndMarker}\n\nmore prose\n");
        }
        finally
        {
            System.IO.File.Delete(path);
        }
    }
}
