using System.Diagnostics;
using System.Globalization;
using System.Text;
using SystemUnderTest.Json;

namespace PerfGate.Bench.Json;

/// <summary>
/// <c>json-scaling [--count N] [--out DIR]</c>: the seed's comparison. Every strategy round-trips the single employee
/// and the 9-employee list <c>N</c> times in total, split over 1, 2, 4, 8, 16, 24 and 32 threads; prints the table
/// (Name | Threads | Count | Use time | ops/s), writes <c>json-scaling.csv</c> and one SVG chart per shape.
/// </summary>
internal static class JsonScalingCommand
{
    public const int DefaultCount = 1_000_000;

    private static readonly int[] ThreadCounts = [1, 2, 4, 8, 16, 24, 32];

    public static Task<int> RunAsync(string[] args)
    {
        var count = DefaultCount;
        var output = Path.Combine("artifacts", "json-scaling");
        for (var i = 0; i < args.Length; i++)
        {
            switch (args[i])
            {
                case "--count" when i + 1 < args.Length && int.TryParse(args[i + 1], NumberStyles.None, CultureInfo.InvariantCulture, out var n) && n >= ThreadCounts[^1]:
                    count = n;
                    i++;
                    break;
                case "--out" when i + 1 < args.Length:
                    output = args[++i];
                    break;
                default:
                    Console.Error.WriteLine($"json-scaling: unknown or invalid argument '{args[i]}'. Usage: json-scaling [--count N (>= {ThreadCounts[^1]})] [--out DIR]");
                    return Task.FromResult(2);
            }
        }

        Directory.CreateDirectory(output);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"json-scaling: {count:N0} round trips per cell, {Environment.ProcessorCount} cores, {System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}, server GC {System.Runtime.GCSettings.IsServerGC}"));
        Console.WriteLine();
        Console.WriteLine("| Name | Threads | Count | Use time | ops/s |");
        Console.WriteLine("|---|---:|---:|---:|---:|");

        var strategies = new JsonStrategies(new JsonPoolOptions());
        var single = EmployeeData.Single;
        var list = EmployeeData.List(9);
        var rows = new List<JsonScalingRow>();
        foreach (var shape in new[] { "Single", "List9" })
        {
            foreach (var strategy in strategies.All)
            {
                Action roundTrip = shape == "Single"
                    ? () => Check(strategy.RoundTrip(single, strategies.Json.Employee).Id == single.Id)
                    : () => Check(strategy.RoundTrip(list, strategies.Json.List).Count == list.Count);

                // Warm-up outside the measured cells: the pool filled for the widest run, then rounds on one thread
                // until tiered compilation has settled (as BenchmarkDotNet's pilot and warm-up stages do), so the
                // first cell measures steady code, not tier-0 code.
                Measure(roundTrip, ThreadCounts[^1], Math.Max(ThreadCounts[^1], count / 20));
                var warmUp = WarmUntilSteady(roundTrip, Math.Max(1_000, count / 50));
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"<!-- {strategy.Name} {shape}: steady after {warmUp.Rounds} warm-up rounds, {warmUp.Elapsed.TotalSeconds:0.0} s, last {warmUp.LastOperationsPerSecond:N0} ops/s on 1 thread{(warmUp.Steady ? string.Empty : " (not steady: gave up)")} -->"));
                foreach (var threads in ThreadCounts)
                {
                    var row = new JsonScalingRow(strategy.Name, shape, threads, count, Measure(roundTrip, threads, count));
                    rows.Add(row);
                    Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {row.Name} | {row.Threads} | {row.Count:N0} | {row.UseTime.TotalMilliseconds:N0} ms | {row.OperationsPerSecond:N0} |"));
                }

                if (strategy.Counters.Outstanding != 0)
                {
                    throw new InvalidOperationException($"{strategy.Name} leaked: {strategy.Counters}");
                }
            }
        }

        var csv = Path.Combine(output, "json-scaling.csv");
        File.WriteAllText(csv, ToCsv(rows), Encoding.UTF8);
        Console.WriteLine();
        Console.WriteLine($"wrote {csv}");
        foreach (var shape in new[] { "Single", "List9" })
        {
            var svg = Path.Combine(output, $"json-scaling-{shape.ToLowerInvariant()}.svg");
            JsonScalingChart.WriteSvg(rows.Where(r => r.Shape == shape).ToList(), shape, count, svg);
            Console.WriteLine($"wrote {svg}");
        }

        return Task.FromResult(0);
    }

    /// <summary>
    /// Runs rounds of <paramref name="roundSize"/> round trips on one thread until the JIT compiled nothing during the
    /// round and the last three rounds' rates lie within 5% of each other (at least 1 s, at most 30 s).
    /// </summary>
    private static (int Rounds, TimeSpan Elapsed, double LastOperationsPerSecond, bool Steady) WarmUntilSteady(Action roundTrip, int roundSize)
    {
        var started = Stopwatch.StartNew();
        var rates = new List<double>();
        while (true)
        {
            var jitBefore = System.Runtime.JitInfo.GetCompiledMethodCount();
            rates.Add(roundSize / Measure(roundTrip, 1, roundSize).TotalSeconds);
            var quiet = System.Runtime.JitInfo.GetCompiledMethodCount() == jitBefore;
            var lastThree = rates.TakeLast(3).ToList();
            var steady = quiet && lastThree.Count == 3 && lastThree.Min() >= lastThree.Max() * 0.95;
            if ((steady && started.Elapsed >= TimeSpan.FromSeconds(1)) || started.Elapsed >= TimeSpan.FromSeconds(30))
            {
                return (rates.Count, started.Elapsed, rates[^1], steady);
            }
        }
    }

    /// <summary>Runs <paramref name="count"/> round trips split over <paramref name="threads"/> dedicated threads, released together.</summary>
    private static TimeSpan Measure(Action roundTrip, int threads, int count)
    {
        using var go = new ManualResetEventSlim(false);
        Exception? failure = null;
        var workers = new Thread[threads];
        for (var t = 0; t < threads; t++)
        {
            var share = (count / threads) + (t < count % threads ? 1 : 0);
            workers[t] = new Thread(() =>
            {
                go.Wait();
                try
                {
                    for (var i = 0; i < share; i++)
                    {
                        roundTrip();
                    }
                }
                catch (Exception e) when (e is not OutOfMemoryException)
                {
                    Interlocked.CompareExchange(ref failure, e, null);
                }
            })
            { IsBackground = true };
            workers[t].Start();
        }

        // Setup (thread creation) stays outside the measured region; a full GC first, never during.
        GC.Collect();
        GC.WaitForPendingFinalizers();
        var clock = Stopwatch.StartNew();
        go.Set();
        foreach (var worker in workers)
        {
            worker.Join();
        }

        clock.Stop();
        return failure is null ? clock.Elapsed : throw new InvalidOperationException("A round trip failed.", failure);
    }

    private static void Check(bool roundTripped)
    {
        if (!roundTripped)
        {
            throw new InvalidOperationException("A round trip returned a different value.");
        }
    }

    private static string ToCsv(IEnumerable<JsonScalingRow> rows)
    {
        var csv = new StringBuilder("name,strategy,shape,threads,count,use_time_ms,ops_per_second,cores\n");
        foreach (var r in rows)
        {
            csv.Append(CultureInfo.InvariantCulture, $"{r.Name},{r.Strategy},{r.Shape},{r.Threads},{r.Count},{r.UseTime.TotalMilliseconds:0.###},{r.OperationsPerSecond:0},{Environment.ProcessorCount}\n");
        }

        return csv.ToString();
    }
}
