using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Support;

/// <summary>
/// Request-cost measurements made up for a test: the core's tests of the quantiles and the Diagnostics add-on's tests
/// of slow-request attribution read the same kind of run.
/// </summary>
internal static class RequestCostRuns
{
    /// <summary>
    /// <paramref name="count"/> requests, request <c>i</c> costing <paramref name="nanoseconds"/>(i) of server CPU, all
    /// of it on one pool thread.
    /// </summary>
    public static RequestCostMeasurement Run(int count, Func<int, long> nanoseconds) =>
        new("test", Enumerable.Range(0, count).Select(i => new RequestCost(i, nanoseconds(i), [new ThreadCost(".NET TP Worker", nanoseconds(i))])).ToList());
}
