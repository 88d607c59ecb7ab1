using PerfBudgets;
using PerfBudgets.Budgets;
using Cpu.Counted;

namespace Cpu.IO;

public sealed class FileCopyCountTests(CountedRuns runs)
{
    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public Task IO_FileCopy_Syscalls() =>
        CountedCheck.FileCopyAsync(runs, "IO.FileCopy.Syscalls", "FileCopyLoop.CopyAsync of a 1 MiB file with an 80 KiB buffer, per copy, every thread");
}
