using System.Globalization;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// Says which requests broke a per-request CPU budget (<see cref="RequestCostMeasurement"/>): their indexes and costs,
/// how they are spaced (a slow path every Nth request shows as one gap), the quantiles, and which of the server's
/// threads spent their time (pool workers for work on the request path; the tiered compiler or a GC thread for work the
/// runtime did by itself).
/// </summary>
public static class SlowRequestAttribution
{
    /// <summary>How many of the slow requests the summary names; the entries hold the same number.</summary>
    public const int Named = 8;

    /// <summary>
    /// The requests whose path cost more than <paramref name="limitMilliseconds"/> (or, when none did, the most
    /// expensive ones); for a <c>p99-to-p50-cpu-per-request-max</c> budget, pass its limit times the run's p50.
    /// </summary>
    public static Attribution From(RequestCostMeasurement measurement, double limitMilliseconds)
    {
        ArgumentNullException.ThrowIfNull(measurement);
        var over = measurement.Above(limitMilliseconds);
        var slow = over.Count > 0 ? over : measurement.Slowest(Named);
        var named = slow.Take(Named).ToList();
        var threads = slow.SelectMany(r => r.Threads)
            .GroupBy(t => t.ThreadName, StringComparer.Ordinal)
            .Select(g => new ThreadCost(g.Key, g.Sum(t => t.Nanoseconds)))
            .OrderByDescending(t => t.Nanoseconds)
            .ToList();
        var total = slow.Sum(r => r.Nanoseconds);
        var runtime = slow.Sum(r => r.RuntimeServiceNanoseconds);
        var inv = CultureInfo.InvariantCulture;
        var head = over.Count > 0
            ? string.Create(inv, $"{over.Count} of {measurement.Requests.Count} requests cost over {limitMilliseconds:0.###} ms of server CPU on their path")
            : string.Create(inv, $"no request of {measurement.Requests.Count} costs over {limitMilliseconds:0.###} ms; the {named.Count} most expensive");
        var spacing = CommonGap(slow) is { } gap ? string.Create(inv, $"; {gap.Count} of their gaps are {gap.Gap} requests") : string.Empty;
        var list = string.Join(", ", named.Select(r => string.Create(inv, $"#{r.Index} {r.RequestPathNanoseconds / 1e6:0.000} ms ({Describe(r.RequestPathThreads, r.RequestPathNanoseconds, 2)})")));
        var leftOut = runtime > 0 ? string.Create(inv, $"; the runtime's collector and background compiler, left out, spent {runtime / 1e6:0.###} ms during them") : string.Empty;
        var summary = string.Create(inv,
            $"{head}: {list}{(slow.Count > named.Count ? ", ..." : string.Empty)}{spacing}; the thread that spent most of each: {Leaders(slow)}{leftOut}; p50 {measurement.P50Milliseconds:0.000} / p99 {measurement.P99Milliseconds:0.000} / p99.9 {measurement.P999Milliseconds:0.000} / max {measurement.MaxMilliseconds:0.000} ms");
        var entries = named.Select(r => new AttributionEntry(string.Create(inv, $"request #{r.Index}: {Describe(r.RequestPathThreads, r.RequestPathNanoseconds, 2)}"), r.RequestPathNanoseconds / 1e6, "ms", null))
            .Concat(threads.Select(t => new AttributionEntry($"thread {t.ThreadName}", t.Nanoseconds / 1e6, "ms", total > 0 ? (double)t.Nanoseconds / total : null)))
            .ToList();
        return new Attribution(summary, entries, measurement.Note);
    }

    /// <summary>
    /// The most common gap between consecutive indexes of <paramref name="requests"/> and how often it occurs, when it
    /// accounts for at least half the gaps (a periodic slow path); null otherwise or with fewer than three requests.
    /// </summary>
    internal static (int Gap, int Count)? CommonGap(IReadOnlyList<RequestCost> requests)
    {
        ArgumentNullException.ThrowIfNull(requests);
        var indexes = requests.Select(r => r.Index).Order().ToArray();
        if (indexes.Length < 3)
        {
            return null;
        }

        var gaps = indexes.Zip(indexes.Skip(1), (a, b) => b - a).GroupBy(g => g).OrderByDescending(g => g.Count()).ThenBy(g => g.Key).First();
        return gaps.Count() * 2 >= indexes.Length - 1 ? (gaps.Key, gaps.Count()) : null;
    }

    // "X in 29, Y in 1": which thread name spent the most of each slow request, so one outlier (a compilation burst of
    // hundreds of milliseconds) does not hide what the other requests have in common.
    private static string Leaders(IReadOnlyList<RequestCost> requests) =>
        string.Join(", ", requests.Select(r => r.RequestPathThreads).Where(t => t.Count > 0)
            .GroupBy(t => t[0].ThreadName, StringComparer.Ordinal)
            .OrderByDescending(g => g.Count()).ThenBy(g => g.Key, StringComparer.Ordinal)
            .Select(g => string.Create(CultureInfo.InvariantCulture, $"{g.Key} in {g.Count()}")));

    // The threads with at least 1% of the request's time, largest first.
    private static string Describe(IReadOnlyList<ThreadCost> threads, long total, int top) =>
        threads.Count == 0 ? "no thread ran"
        : string.Join(", ", threads.Where(t => t.Nanoseconds * 100 >= total).Take(top).DefaultIfEmpty(threads[0]).Select(t => string.Create(CultureInfo.InvariantCulture,
            $"{t.ThreadName} {(total > 0 ? 100.0 * t.Nanoseconds / total : 0):0}%")));
}
