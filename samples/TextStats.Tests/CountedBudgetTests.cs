using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using Xunit;

namespace TextStats.Tests;

/// <summary>
/// Instructions, system calls and growth, counted under Callgrind on the pinned runtime: one run of the workload host
/// (TextStats.Workloads) counts every region it marks, and each budget is gated from it.
/// </summary>
public sealed class CountedBudgetTests
{
    // One Callgrind run for all the counted budgets of this class, started by the first that needs it.
    private static readonly Lazy<CallgrindRun> Run = new(() =>
        InstructionMeter.RunProcess(Path.Combine(AppContext.BaseDirectory, "TextStats.Workloads.dll"), [], TimeSpan.FromMinutes(5)));

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void Add_instructions() =>
        BudgetGate.Default.CheckCount("Text.Add.Instructions", Counted("Text.Add.Instructions").Measurement("Text.Add"));

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void AddFile_system_calls() =>
        // A syscalls-max budget gates the same measurement's system calls per operation.
        BudgetGate.Default.CheckCount("Text.AddFile.Syscalls", Counted("Text.AddFile.Syscalls").Measurement("Text.AddFile"));

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void Add_makes_no_system_calls() =>
        // Recorded at 0: its room is absolute (marginAbsolute), since no fraction of 0 lets a stray call through.
        BudgetGate.Default.CheckCount("Text.Add.Syscalls", Counted("Text.Add.Syscalls").Measurement("Text.Add"));

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void AddFrom_an_open_file_reads_it_and_its_end() =>
        BudgetGate.Default.CheckCount("Text.AddOpenFile.Syscalls", Counted("Text.AddOpenFile.Syscalls").Measurement("Text.AddOpenFile"));

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void Add_grows_linearly_with_the_text()
    {
        var run = Counted("Text.Add.Growth");
        var growth = new GrowthMeasurement("Text.Add", run.Measurement("Text.Add100"), 100, run.Measurement("Text.Add10000"), 10_000, "word");
        BudgetGate.Default.CheckGrowth("Text.Add.Growth", growth);
    }

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public void Add_cost_per_word_at_the_large_size() =>
        // The cost per word at 10,000 words, which the fixed part of a call no longer hides.
        BudgetGate.Default.CheckCount("Text.Add10000.InstructionsPerWord", Counted("Text.Add10000.InstructionsPerWord").Measurement("Text.Add10000").PerItem(10_000));

    // The shared run, or the budget reported as not measured (no Valgrind, not Linux x86-64): skipped locally, failed
    // under CI=true unless PERF_INSTRUCTIONS=off.
    private static CallgrindRun Counted(string budget)
    {
        if (InstructionMeter.UnavailableReason is { } reason)
        {
            BudgetGate.Default.NotMeasured(budget, reason);
        }

        return Run.Value;
    }
}
