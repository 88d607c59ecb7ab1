using System.Globalization;
using PerfBudgets.Statistics;

namespace PerfBudgets.Measuring;

/// <summary>
/// The server CPU time of each request of a run (<see cref="RequestCostMeter"/>), and its quantiles. The quantiles are
/// the nearest rank: the p99 of 2,000 requests is the 1,980th smallest, a cost some request really had.
/// </summary>
/// <remarks>
/// The quantiles, the maximum and the slow requests are of each request's path
/// (<see cref="RequestCost.RequestPathNanoseconds"/>): the runtime's collector and background compiler are left out.
/// A generation-0 collection costs about a millisecond of CPU, and how often one falls is set by the machine (the
/// budget is sized from its cache) and by the bytes each request allocates: a request in 60 to 150 on a server that
/// allocates 17 KB per request, which put the p99 on a collection in some runs and not in others. The bytes are
/// gated by the allocation budgets, the collections by their own.
/// </remarks>
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
        _sorted = requests.Select(r => r.RequestPathNanoseconds).Order().ToArray();
    }

    /// <summary>What was measured, e.g. <c>GET /api/employees?count=9</c>.</summary>
    public string Workload { get; }

    /// <summary>Every measured request, in the order sent.</summary>
    public IReadOnlyList<RequestCost> Requests { get; }

    /// <summary>How many requests were measured (fewer than asked for when the run's time limit ended it).</summary>
    public int RequestCount => Requests.Count;

    /// <summary>Anything the reader should know about how the run went (readings retried, a clock fallback).</summary>
    public string? Note { get; }

    /// <summary>The median of the request paths' costs, in milliseconds.</summary>
    public double P50Milliseconds => QuantileMilliseconds(0.50);

    /// <summary>The 99th percentile of the request paths' costs, in milliseconds (<c>p99-cpu-ms-per-request-max</c>).</summary>
    public double P99Milliseconds => QuantileMilliseconds(0.99);

    /// <summary>
    /// The 99th percentile over the median (<c>p99-to-p50-cpu-per-request-max</c>): how many typical requests the one
    /// slow request in a hundred costs. A machine that runs the code faster or slower scales both alike, so the ratio
    /// holds on another machine where the milliseconds do not. NaN when the median is 0 (nothing to compare with),
    /// which the gate reports as not measured.
    /// </summary>
    public double P99ToP50 => P50Milliseconds > 0 ? P99Milliseconds / P50Milliseconds : double.NaN;

    /// <summary>What the runtime's collector and background compiler spent over the run, in milliseconds (left out of the quantiles).</summary>
    public double RuntimeServiceMilliseconds => Requests.Sum(r => r.RuntimeServiceNanoseconds) / 1e6;

    /// <summary>The 99.9th percentile, in milliseconds.</summary>
    public double P999Milliseconds => QuantileMilliseconds(0.999);

    /// <summary>The most expensive request path, in milliseconds.</summary>
    public double MaxMilliseconds => _sorted[^1] / 1e6;

    /// <summary>
    /// The nearest-rank quantile <paramref name="q"/> (0 &lt; q ≤ 1) in milliseconds: the smallest cost that at least
    /// <paramref name="q"/> of the requests do not exceed.
    /// </summary>
    public double QuantileMilliseconds(double q) => Quantiles.NearestRank(_sorted, q) / 1e6;

    /// <summary>The requests whose path cost more than <paramref name="milliseconds"/>, most expensive first.</summary>
    public IReadOnlyList<RequestCost> Above(double milliseconds) =>
        Requests.Where(r => r.RequestPathNanoseconds / 1e6 > milliseconds).OrderByDescending(r => r.RequestPathNanoseconds).ThenBy(r => r.Index).ToList();

    /// <summary>The <paramref name="count"/> requests with the most expensive paths, most expensive first.</summary>
    public IReadOnlyList<RequestCost> Slowest(int count) =>
        Requests.OrderByDescending(r => r.RequestPathNanoseconds).ThenBy(r => r.Index).Take(count).ToList();

    /// <summary>One line: the count and the quantiles, e.g. for a recorded detail.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture,
        $"{Workload}: server CPU per request path over {Requests.Count} requests, p50 {P50Milliseconds:0.000} ms, p99 {P99Milliseconds:0.000} ms ({P99ToP50:0.00}x the p50), p99.9 {P999Milliseconds:0.000} ms, max {MaxMilliseconds:0.000} ms; " +
        $"the runtime's collector and background compiler, left out, {RuntimeServiceMilliseconds:0.###} ms in {Requests.Count(r => r.RuntimeServiceNanoseconds > 0)} requests{(Note is null ? string.Empty : $" ({Note})")}");
}
