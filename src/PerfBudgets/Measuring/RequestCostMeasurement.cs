using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// The server CPU time of each request of a run (<see cref="RequestCostMeter"/>), and its quantiles. The quantiles are
/// the nearest rank: the p99 of 2,000 requests is the 1,980th smallest, a cost some request really had.
/// </summary>
public sealed class RequestCostMeasurement
{
    private readonly long[] _sorted;

    /// <summary>Wraps the costs of one run, in the order the requests were sent.</summary>
    public RequestCostMeasurement(string workload, IReadOnlyList<RequestCost> requests, string? note = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(workload);
        ArgumentNullException.ThrowIfNull(requests);
        if (requests.Count == 0)
        {
            throw new ArgumentException("A run has at least one request.", nameof(requests));
        }

        Workload = workload;
        Requests = requests;
        Note = note;
        _sorted = requests.Select(r => r.Nanoseconds).Order().ToArray();
    }

    /// <summary>What was measured, e.g. <c>GET /api/employees?count=9</c>.</summary>
    public string Workload { get; }

    /// <summary>Every measured request, in the order sent.</summary>
    public IReadOnlyList<RequestCost> Requests { get; }

    /// <summary>How many requests were measured (fewer than asked for when the run's time limit ended it).</summary>
    public int RequestCount => Requests.Count;

    /// <summary>Anything the reader should know about how the run went (readings retried, a clock fallback).</summary>
    public string? Note { get; }

    /// <summary>The median, in milliseconds.</summary>
    public double P50Milliseconds => QuantileMilliseconds(0.50);

    /// <summary>The 99th percentile, in milliseconds: what the budgets gate.</summary>
    public double P99Milliseconds => QuantileMilliseconds(0.99);

    /// <summary>The 99.9th percentile, in milliseconds.</summary>
    public double P999Milliseconds => QuantileMilliseconds(0.999);

    /// <summary>The most expensive request, in milliseconds.</summary>
    public double MaxMilliseconds => _sorted[^1] / 1e6;

    /// <summary>
    /// The nearest-rank quantile <paramref name="q"/> (0 &lt; q ≤ 1) in milliseconds: the smallest cost that at least
    /// <paramref name="q"/> of the requests do not exceed.
    /// </summary>
    public double QuantileMilliseconds(double q) => Quantile(_sorted, q) / 1e6;

    /// <summary>The nearest-rank quantile <paramref name="q"/> of ascending <paramref name="sorted"/> values.</summary>
    public static long Quantile(IReadOnlyList<long> sorted, double q)
    {
        ArgumentNullException.ThrowIfNull(sorted);
        if (sorted.Count == 0)
        {
            throw new ArgumentException("No values.", nameof(sorted));
        }

        if (!(q > 0 && q <= 1))
        {
            throw new ArgumentOutOfRangeException(nameof(q), q, "A quantile is in (0, 1].");
        }

        // Rank ceil(q * n), 1-based; the small epsilon keeps 0.99 * 100 from rounding up to rank 100.
        var rank = (int)Math.Ceiling((q * sorted.Count) - 1e-9);
        return sorted[Math.Clamp(rank, 1, sorted.Count) - 1];
    }

    /// <summary>The requests that cost more than <paramref name="milliseconds"/>, most expensive first.</summary>
    public IReadOnlyList<RequestCost> Above(double milliseconds) =>
        Requests.Where(r => r.Milliseconds > milliseconds).OrderByDescending(r => r.Nanoseconds).ThenBy(r => r.Index).ToList();

    /// <summary>The <paramref name="count"/> most expensive requests, most expensive first.</summary>
    public IReadOnlyList<RequestCost> Slowest(int count) =>
        Requests.OrderByDescending(r => r.Nanoseconds).ThenBy(r => r.Index).Take(count).ToList();

    /// <summary>One line: the count and the quantiles, e.g. for a recorded detail.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture,
        $"{Workload}: server CPU per request over {Requests.Count} requests, p50 {P50Milliseconds:0.000} ms, p99 {P99Milliseconds:0.000} ms, p99.9 {P999Milliseconds:0.000} ms, max {MaxMilliseconds:0.000} ms{(Note is null ? string.Empty : $" ({Note})")}");
}
