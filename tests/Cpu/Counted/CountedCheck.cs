using PerfBudgets;

namespace Cpu.Counted;

/// <summary>
/// Checks a counted budget against the Callgrind runs of <see cref="CountedRuns"/>; a count over its limit is counted
/// again in a fresh process and the smaller gated. Where nothing can be counted, the budget is reported as not
/// measured, with the reason (a skipped test, or a failure under CI), never as passed.
/// </summary>
internal static class CountedCheck
{
    /// <summary>A budget on an in-process workload of the host; the host's own check of the work must have passed.</summary>
    public static async Task InProcessAsync(CountedRuns runs, string workload, string budgetName, string describe)
    {
        if (NotMeasured(runs, budgetName))
        {
            return;
        }

        var gate = SuiteGate.Current;
        var run = await runs.InProcess;
        run.StandardOutput.Should().Contain($"workload {workload} check ok", "the counted workload did its work");
        var measurement = run.Measurement(workload);
        if (measurement.EstimatedCyclesPerOperation is { } cycles && budgetName.EndsWith(".Instructions", StringComparison.Ordinal)
            && !gate.Book.Budgets.Any(b => b.Name == $"{workload}.EstimatedCycles"))
        {
            // Recorded beside the count, not gated where no cycles-max budget names it: on small workloads the estimate
            // moves with code layout and the runtime's own allocations (see docs/instruction-counting.md).
            gate.Observe($"{workload}.EstimatedCycles", cycles, "cycles/op", $"Callgrind cache simulation: L1 hits + 5 x LL hits + 35 x memory accesses, the repetition with the fewest{(measurement.Reused is { } reused ? $"; {reused}" : string.Empty)}");
        }

        await gate.CheckCountConfirmedAsync(budgetName, measurement, () => runs.ConfirmInProcessAsync(workload), describe);
    }

    /// <summary>A budget on the server's work per request (or frame), counted with the server under Callgrind.</summary>
    public static async Task ServerAsync(CountedRuns runs, string workload, string budgetName, string describe)
    {
        if (NotMeasured(runs, budgetName))
        {
            return;
        }

        var counts = await runs.Server;
        await SuiteGate.Current.CheckCountConfirmedAsync(budgetName, counts[workload], () => runs.ConfirmServerAsync(workload), $"{describe}; {CountedRuns.ServerSettingsNote}");
    }

    /// <summary>A budget on the app's start, counted from its first instruction to its first answer.</summary>
    public static async Task StartupAsync(CountedRuns runs, string budgetName, string describe)
    {
        if (NotMeasured(runs, budgetName))
        {
            return;
        }

        var measurement = await runs.Startup;
        var gate = SuiteGate.Current;
        // The system calls of a start are reported, not gated: they read the machine (its cgroup files, CPU topology,
        // mounts), so their count is the machine's as much as the app's.
        gate.Observe("Startup.FirstResponse.Syscalls", measurement.SystemCallsPerOperation, "syscalls", $"{describe}, not gated: a start's system calls depend on the machine's files");
        await gate.CheckCountConfirmedAsync(budgetName, measurement, runs.ConfirmStartupAsync, $"{describe}; {CountedRuns.StartupSettingsNote}");
    }

    /// <summary>A budget on the file copy, counted on every thread of its host; the host's check of the work must have passed.</summary>
    public static async Task FileCopyAsync(CountedRuns runs, string budgetName, string describe)
    {
        if (NotMeasured(runs, budgetName))
        {
            return;
        }

        var (measurement, check) = await runs.FileCopy;
        check.Should().StartWith("ok ", "the counted workload did its work");
        SuiteGate.Current.CheckCount(budgetName, measurement, describe);
    }

    // Throws (skipped, or failed under CI) when nothing can be counted here; false when the runs are there.
    private static bool NotMeasured(CountedRuns runs, string budgetName)
    {
        if (runs.UnavailableReason is { } reason)
        {
            SuiteGate.Current.NotMeasured(budgetName, reason);
            return true;
        }

        return false;
    }
}
