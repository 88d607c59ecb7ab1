using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Tests.Support;
using PerfBudgets.Tool.Calibration;
using static PerfBudgets.Tests.Support.CountedMeasurements;

namespace PerfBudgets.Tool.Tests.Calibration;

// perfbudgets calibrate: a budgets.json rewritten from several runs' results, each budget with the line that says why.
public sealed class BudgetCalibratorTests : IDisposable
{
    private readonly TestBudgets _budgets = new("counted", edit: text => text.Replace("RUNTIME", InstructionMeter.RuntimeVersion, StringComparison.Ordinal));

    public void Dispose() => _budgets.Dispose();

    [Fact]
    public void A_system_call_budget_recorded_at_0_gets_half_a_call_of_room_and_the_book_still_loads()
    {
        var budgetsPath = _budgets.WriteBudgetFile();
        // Three unchanged runs: no system call per operation, then a run with 25 stray calls in a repetition of 100.
        var runs = new[] { 0L, 0, 25 }.Select((syscalls, i) =>
        {
            var gate = new BudgetGate(BudgetBook.Load(budgetsPath, "ci"), _budgets.Store($"run-{i}"), new BudgetGateOptions { RequireOptimizedBuild = false });
            gate.CheckCount("Demo.Instructions", Measured(100_000, syscalls));
            gate.CheckCount("Demo.Syscalls", Measured(100_000, syscalls));
            return Path.Combine(_budgets.Folder, $"run-{i}", "results.json");
        }).ToList();

        var outcome = BudgetCalibrator.Calibrate(budgetsPath, runs, "ci", "10.0.12", "3.19.0");

        var book = BudgetBook.Load(budgetsPath, "ci");
        book.Get("Demo.Syscalls").Should().Match<Budget>(b => b.Recorded == 0 && b.Margin == 0 && b.MarginAbsolute == 0.5 && b.Limit == 0.5);
        book.Get("Demo.Instructions").Should().Match<Budget>(b => b.Recorded == 1000 && b.Margin == 0.01 && b.Limit == 1010);
        outcome.Lines.Should().Contain(l => l.StartsWith("Demo.Syscalls: 3 runs 0 to 0.25 syscalls/op; recorded 0, +0.5, limit 2 → 0.5", StringComparison.Ordinal)
            && l.Contains("a stray call in a repetition of 100 operations is 0.01/op", StringComparison.Ordinal)
            && l.Contains("one more call per operation (1) fails", StringComparison.Ordinal));
        outcome.Warnings.Should().Be(0);
    }
}
