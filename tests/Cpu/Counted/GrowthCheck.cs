using PerfBudgets;
using PerfBudgets.Measuring;

namespace Cpu.Counted;

/// <summary>
/// Checks the growth budgets against the Callgrind runs of <see cref="CountedRuns"/>: an operation counted at two sizes,
/// in process or at the server; where nothing can be counted, the budget is reported as not measured, never as passed.
/// </summary>
internal static class GrowthCheck
{
    /// <summary>Where a growth workload was counted.</summary>
    public enum Where
    {
        /// <summary>In the workload host (<see cref="CountedRuns.InProcess"/>).</summary>
        InProcess,

        /// <summary>At the server under Callgrind (<see cref="CountedRuns.Server"/>).</summary>
        Server,
    }

    /// <summary>Checks the growth exponent between the two sizes against the <c>growth-exponent-max</c> budget.</summary>
    public static async Task ExponentAsync(CountedRuns runs, Where where, string budgetName, (string Workload, int Size) small, (string Workload, int Size) large, string item, string describe)
    {
        if (await MeasureAsync(runs, where, budgetName, small, large, item) is { } growth)
        {
            SuiteGate.Current.CheckGrowth(budgetName, growth, describe);
        }
    }

    /// <summary>
    /// Checks the cost per item at the large size against its <c>instructions-max</c> budget: <paramref name="items"/>
    /// items an operation (employees, headers, KiB).
    /// </summary>
    public static async Task PerItemAsync(CountedRuns runs, Where where, string budgetName, string workload, int items, string describe)
    {
        if (NotMeasured(runs, budgetName))
        {
            return;
        }

        // Over its limit, counted again in a fresh process like every counted budget (CountedCheck), the smaller gated.
        var measurement = await MeasurementAsync(runs, where, workload);
        await SuiteGate.Current.CheckCountConfirmedAsync(budgetName, measurement.PerItem(items),
            async () => (await (where == Where.Server ? runs.ConfirmServerAsync(workload) : runs.ConfirmInProcessAsync(workload))).PerItem(items), describe);
    }

    private static async Task<GrowthMeasurement?> MeasureAsync(CountedRuns runs, Where where, string budgetName, (string Workload, int Size) small, (string Workload, int Size) large, string item)
    {
        if (NotMeasured(runs, budgetName))
        {
            return null;
        }

        var atSmall = await MeasurementAsync(runs, where, small.Workload);
        var atLarge = await MeasurementAsync(runs, where, large.Workload);
        return new GrowthMeasurement(budgetName, atSmall, small.Size, atLarge, large.Size, item);
    }

    private static async Task<InstructionMeasurement> MeasurementAsync(CountedRuns runs, Where where, string workload)
    {
        if (where == Where.Server)
        {
            return (await runs.Server)[workload];
        }

        var run = await runs.InProcess;
        run.StandardOutput.Should().Contain($"workload {workload} check ok", "the counted workload did its work");
        return run.Measurement(workload);
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
