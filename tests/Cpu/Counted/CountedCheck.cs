using PerfBudgets;

namespace PerfGate.Tests.Cpu.Counted;

/// <summary>
/// Checks a counted budget against the Callgrind runs of <see cref="CountedRuns"/>; where nothing can be counted, the
/// budget is reported as not measured, with the reason (a skipped test, or a failure under CI), never as passed.
/// </summary>
internal static class CountedCheck
{
    /// <summary>A budget on an in-process workload of the host; the host's own check of the work must have passed.</summary>
    public static async Task InProcessAsync(CountedRuns runs, string workload, string budgetName, string describe)
    {
        var gate = BudgetGate.Default;
        if (runs.UnavailableReason is { } reason)
        {
            gate.NotMeasured(budgetName, reason);
            return;
        }

        var run = await runs.InProcess;
        run.StandardOutput.Should().Contain($"workload {workload} check ok", "the counted workload did its work");
        gate.CheckCount(budgetName, run.Measurement(workload), describe);
    }

    /// <summary>A budget on the server's work per request (or frame), counted with the server under Callgrind.</summary>
    public static async Task ServerAsync(CountedRuns runs, string workload, string budgetName, string describe)
    {
        var gate = BudgetGate.Default;
        if (runs.UnavailableReason is { } reason)
        {
            gate.NotMeasured(budgetName, reason);
            return;
        }

        var counts = await runs.Server;
        gate.CheckCount(budgetName, counts[workload], describe);
    }
}
