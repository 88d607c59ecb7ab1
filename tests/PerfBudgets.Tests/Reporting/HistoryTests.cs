using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Reporting;

public sealed class HistoryTests : IDisposable
{
    private readonly TestBudgets _budgets = new("history");

    public void Dispose() => _budgets.Dispose();

    [Fact]
    public void Every_recorded_result_is_appended_with_the_run_id_and_nothing_is_replaced()
    {
        var gate = _budgets.Gate();
        gate.Check("H.Bytes", 40);
        gate.Invoking(g => g.Check("H.Rate", 10)).Should().Throw<BudgetExceededException>();

        // Another process of the same run, and the same budget measured again: results.json keeps the newest,
        // history keeps every line.
        var other = _budgets.Gate();
        other.Check("H.Bytes", 48);

        var history = ResultStore.ReadHistory(gate.Store.HistoryPath, out var skipped);
        skipped.Should().Be(0);
        history.Select(h => (h.Budget, h.Measured, h.Verdict)).Should().Equal(
            ("H.Bytes", 40d, BudgetVerdict.Pass), ("H.Rate", 10d, BudgetVerdict.Fail), ("H.Bytes", 48d, BudgetVerdict.Pass));
        history.Should().OnlyContain(h => h.RunId == RunIdentity.GeneratedRunId && h.Profile == "ci" && h.Unit.Length > 0);
        System.IO.File.ReadAllLines(gate.Store.HistoryPath).Should().HaveCount(3).And.OnlyContain(l => l.StartsWith("{\"runId\":", StringComparison.Ordinal));
        ResultStore.ReadAll(gate.Store.ResultsPath).Should().HaveCount(2);
    }

    [Fact]
    public void A_line_cut_short_by_a_killed_run_is_skipped_and_counted()
    {
        var gate = _budgets.Gate();
        gate.Check("H.Bytes", 40);
        System.IO.File.AppendAllText(gate.Store.HistoryPath, "{\"runId\":\"x\",\"budg");
        System.IO.File.AppendAllText(gate.Store.HistoryPath, "\n");
        gate.Check("H.Bytes", 41);

        var history = ResultStore.ReadHistory(gate.Store.HistoryPath, out var skipped);

        skipped.Should().Be(1);
        history.Select(h => h.Measured).Should().Equal(40, 41);
    }

    [Fact]
    public void No_history_file_reads_as_empty()
    {
        ResultStore.ReadHistory(Path.Combine(_budgets.Folder, "history.jsonl"), out var skipped).Should().BeEmpty();
        skipped.Should().Be(0);
    }
}
