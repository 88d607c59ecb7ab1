using PerfBudgets;
using PerfBudgets.Budgets;
using Cpu.Counted;

namespace Cpu.IO;

public sealed class FileCopyCountTests(CountedRuns runs)
{
    [Theory(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    [InlineData("IO.FileCopy.Instructions")]
    [InlineData("IO.FileCopy.Syscalls")]
    public Task IO_FileCopy_Counts(string budget) =>
        CountedCheck.FileCopyAsync(runs, budget, "FileCopyLoop.CopyAsync of a 1 MiB file with an 80 KiB buffer, per copy, every thread");
}
