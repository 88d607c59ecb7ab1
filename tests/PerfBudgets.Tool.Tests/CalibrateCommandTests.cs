using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;
using static PerfBudgets.Tests.Support.CountedMeasurements;

namespace PerfBudgets.Tool.Tests;

public sealed class CalibrateCommandTests : IDisposable
{
    private readonly TestBudgets _budgets = new("counted", edit: text => text.Replace("RUNTIME", InstructionMeter.RuntimeVersion, StringComparison.Ordinal));

    public void Dispose() => _budgets.Dispose();

    [Fact]
    public void Calibrate_records_the_breakdowns_and_leaves_the_limits_for_its_own_old_to_new_lines()
    {
        // Before, the recorder rewrote budgets.json first, so calibrate's "limit OLD → NEW" showed the new recording's
        // limit as the old one.
        var budgetsPath = _budgets.WriteBudgetFile();
        var before = File.ReadAllText(budgetsPath);
        var gate = new BudgetGate(BudgetBook.Load(budgetsPath, "ci"), _budgets.Store(), new BudgetGateOptions { RequireOptimizedBuild = false });
        gate.Invoking(g => g.CheckCount("Demo.Instructions", Measured(110_000, 200, "3.19.0", ("Demo::Hot", 1100)))).Should().Throw<BudgetExceededException>();

        CalibrateCommand.RecordBreakdowns(budgetsPath, [Path.Combine(_budgets.Folder, "results.json")], "10.0.99", "3.19.0");

        File.ReadAllText(budgetsPath).Should().Be(before);
        RecordedMethodsFile.Read(Path.Combine(_budgets.Folder, RecordedMethodsFile.FileName))["Demo.Instructions"].Should().ContainSingle().Which.Name.Should().Be("Demo::Hot");
    }
}
