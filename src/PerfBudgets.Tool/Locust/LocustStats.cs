using System.Globalization;
using PerfBudgets.Load;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tool.Locust;

/// <summary>
/// The statistics of one headless Locust run, read from the files its <c>--csv PREFIX --csv-full-history</c> wrote:
/// <c>PREFIX_stats.csv</c> (the whole run), <c>PREFIX_stats_history.csv</c> (a row a second) and
/// <c>PREFIX_failures.csv</c> (failures per distinct error). Only the <c>Aggregated</c> rows are read: a run measures
/// one scenario (<c>load/locust/locustfile.py</c> runs one user class at a time).
/// </summary>
/// <remarks>
/// What Locust measures differs from <see cref="LoadRunner"/> in ways a reader of the figures must know:
/// <list type="bullet">
/// <item>Users are closed loops, and a response time counts from the moment a request was sent: a stalled server
/// delays the next request instead of showing as latency (coordinated omission), as in a closed-model phase.</item>
/// <item>Response times are whole milliseconds (Locust rounds them; above 100 ms to two significant digits), and its
/// percentiles include failed requests.</item>
/// <item>The measured window is Locust's own: from the first user's start to the last request
/// (<c>Request Count</c> ÷ <c>Requests/s</c>), so a warm-up is a separate run (<see cref="ToLoadResult"/>).</item>
/// <item>The per-second series is what the master received each second from its workers (the launcher makes them
/// report every second), not when each request ended.</item>
/// </list>
/// </remarks>
internal sealed record LocustStats
{
    private const string AggregatedName = "Aggregated";

    /// <summary>The CSV prefix the files were read from.</summary>
    public required string CsvPrefix { get; init; }

    /// <summary>Requests sent, failures included (<c>Request Count</c>).</summary>
    public required long Requests { get; init; }

    /// <summary>Failed requests (<c>Failure Count</c>): an error, or an answer the locustfile's check refused.</summary>
    public required long Failures { get; init; }

    /// <summary>Locust's whole-run rate, failures included (<c>Requests/s</c>).</summary>
    public required double RequestsPerSecond { get; init; }

    /// <summary>The measured window, seconds: <see cref="Requests"/> ÷ <see cref="RequestsPerSecond"/> (0 when nothing was sent).</summary>
    public double MeasuredSeconds => RequestsPerSecond > 0 ? Requests / RequestsPerSecond : 0;

    /// <summary>Percentiles of the response time, ms, by Locust's column name (<c>50%</c>, <c>99%</c>, <c>100%</c>, …).</summary>
    public required IReadOnlyDictionary<string, double> PercentilesMs { get; init; }

    /// <summary>Largest response time, ms.</summary>
    public required double MaxMs { get; init; }

    /// <summary>Average body size received, bytes.</summary>
    public required double AverageContentBytes { get; init; }

    /// <summary>Successful requests per second of the history, from the first row that counted a request to the last.</summary>
    public required IReadOnlyList<double> SuccessesPerSecond { get; init; }

    /// <summary>Failures per distinct error, keyed <c>METHOD NAME: ERROR</c>.</summary>
    public required IReadOnlyDictionary<string, long> Errors { get; init; }

    /// <summary>Reads the three files of the run written with <c>--csv <paramref name="csvPrefix"/></c>.</summary>
    /// <exception cref="LocustStatsException">A file is missing or malformed, or the files disagree.</exception>
    public static LocustStats Read(string csvPrefix)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(csvPrefix);
        return Parse(csvPrefix,
            LocustCsv.Read(csvPrefix + "_stats.csv"),
            LocustCsv.Read(csvPrefix + "_stats_history.csv"),
            LocustCsv.Read(csvPrefix + "_failures.csv"));
    }

    /// <summary>
    /// The harness's load result of this run, for the gate and for <c>results.json</c>: a closed-model run of
    /// <paramref name="users"/> copies. The latency figures are Locust's (failures included, whole milliseconds); the
    /// status codes are not in Locust's files and are left empty. A failure in <paramref name="warmUp"/>, the separate
    /// warm-up run, counts, as a failure in a warm-up phase of <see cref="LoadRunner"/> does: a failure is never hidden.
    /// </summary>
    public LoadResult ToLoadResult(string scenario, string phases, int users, LocustStats? warmUp = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(scenario);
        ArgumentException.ThrowIfNullOrWhiteSpace(phases);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(users);
        var errors = new Dictionary<string, long>(Errors, StringComparer.Ordinal);
        foreach (var (error, count) in warmUp?.Errors ?? new Dictionary<string, long>())
        {
            errors[error] = errors.GetValueOrDefault(error) + count;
        }

        return new LoadResult
        {
            Scenario = scenario,
            Model = "closed",
            Phases = phases,
            Copies = users,
            TargetRate = null,
            MeasuredSeconds = MeasuredSeconds,
            Scheduled = 0,
            // Locust's files hold no status codes: the run's request count is Locust's own.
            Requests = Requests,
            Completed = Requests - Failures,
            Failed = Failures + (warmUp?.Failures ?? 0),
            NotSent = 0,
            Abandoned = 0,
            P50Ms = Percentile("50%"),
            P75Ms = Percentile("75%"),
            P90Ms = Percentile("90%"),
            P95Ms = Percentile("95%"),
            P99Ms = Percentile("99%"),
            MaxMs = MaxMs,
            ScheduleLagP99Ms = 0,
            // A Locust user waits for its answer before its next request: at most one request in flight each.
            PeakInFlight = users,
            RequestsPerSecondBuckets = SuccessesPerSecond,
            StatusCodes = new Dictionary<int, long>(),
            BytesSent = 0,
            BytesReceived = (long)Math.Round(AverageContentBytes * Requests),
            Errors = errors,
        };
    }

    private double Percentile(string column) =>
        PercentilesMs.TryGetValue(column, out var value)
            ? value
            : throw new LocustStatsException($"{CsvPrefix}_stats.csv has no '{column}' column (it has {string.Join(", ", PercentilesMs.Keys)}).");

    /// <summary>
    /// Parses the texts of the three files of one run; <paramref name="csvPrefix"/> names them in messages (as
    /// <c>PREFIX_stats.csv</c>, …).
    /// </summary>
    /// <exception cref="LocustStatsException">A text is malformed, or the texts disagree.</exception>
    public static LocustStats Parse(string csvPrefix, string statsCsv, string historyCsv, string failuresCsv)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(csvPrefix);
        return Parse(csvPrefix,
            LocustCsv.Parse(statsCsv, csvPrefix + "_stats.csv"),
            LocustCsv.Parse(historyCsv, csvPrefix + "_stats_history.csv"),
            LocustCsv.Parse(failuresCsv, csvPrefix + "_failures.csv"));
    }

    private static LocustStats Parse(string csvPrefix, LocustCsv stats, LocustCsv history, LocustCsv failures)
    {
        var total = Aggregated(stats).SingleOrDefault()
            ?? throw new LocustStatsException($"{stats.Source} has no Aggregated row: it is not Locust's _stats.csv, or the run never started.");
        var requests = (long)stats.Number(total, "Request Count");
        var failed = (long)stats.Number(total, "Failure Count");
        var percentiles = stats.Header.Where(c => c.EndsWith('%')).ToDictionary(c => c, c => stats.Number(total, c), StringComparer.Ordinal);

        return new LocustStats
        {
            CsvPrefix = csvPrefix,
            Requests = requests,
            Failures = failed,
            RequestsPerSecond = stats.Number(total, "Requests/s"),
            PercentilesMs = percentiles,
            MaxMs = stats.Number(total, "Max Response Time"),
            AverageContentBytes = stats.Number(total, "Average Content Size"),
            SuccessesPerSecond = PerSecond(history, requests, failed),
            Errors = ErrorsOf(failures),
        };
    }

    private static IEnumerable<IReadOnlyList<string>> Aggregated(LocustCsv csv) =>
        csv.Rows.Where(r => csv.Text(r, "Name") == AggregatedName && csv.Text(r, "Type").Length == 0);

    // The history's Aggregated rows carry running totals; a second's successes are the growth of (requests − failures)
    // since the row before. Rows of one timestamp (the writer's last row at exit may repeat one) keep the last; a gap
    // of several seconds is spread evenly over them. The series runs from the last row before anything was counted to
    // the first row that holds the final totals, which must be the _stats.csv totals: otherwise the files are of
    // different runs or were cut short.
    private static IReadOnlyList<double> PerSecond(LocustCsv history, long requests, long failures)
    {
        var rows = Aggregated(history)
            .Select(r => (Second: (long)history.Number(r, "Timestamp"), Requests: (long)history.Number(r, "Total Request Count"), Failures: (long)history.Number(r, "Total Failure Count")))
            .GroupBy(r => r.Second)
            .Select(g => g.Last())
            .OrderBy(r => r.Second)
            .ToList();
        if (rows.Count == 0)
        {
            throw new LocustStatsException($"{history.Source} has no Aggregated rows: run Locust with --csv-full-history.");
        }

        var last = rows[^1];
        if (last.Requests != requests || last.Failures != failures)
        {
            throw new LocustStatsException(string.Create(CultureInfo.InvariantCulture,
                $"{history.Source} ends at {last.Requests:N0} requests and {last.Failures:N0} failures, but the _stats.csv beside it counts {requests:N0} and {failures:N0}: the files are of different runs or were cut short (run Locust through load/locust/run_locust.py, which completes them at exit)."));
        }

        var first = Math.Max(0, rows.FindLastIndex(r => r.Requests == 0));
        var end = rows.FindIndex(r => r.Requests == requests);
        var buckets = new List<double>();
        for (var i = first + 1; i <= end; i++)
        {
            var seconds = rows[i].Second - rows[i - 1].Second;
            var successes = (double)(rows[i].Requests - rows[i].Failures - (rows[i - 1].Requests - rows[i - 1].Failures));
            for (var s = 0; s < seconds; s++)
            {
                buckets.Add(successes / seconds);
            }
        }

        return buckets;
    }

    private static Dictionary<string, long> ErrorsOf(LocustCsv failures)
    {
        var errors = new Dictionary<string, long>(StringComparer.Ordinal);
        foreach (var row in failures.Rows)
        {
            var key = $"{failures.Text(row, "Method")} {failures.Text(row, "Name")}: {failures.Text(row, "Error")}";
            errors[key] = errors.GetValueOrDefault(key) + (long)failures.Number(row, "Occurrences");
        }

        return errors;
    }
}
