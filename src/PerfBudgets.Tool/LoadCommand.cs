using System.CommandLine;
using System.Diagnostics;
using System.Globalization;
using PerfBudgets.Load;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets load URL [--path P] [--connections N | --rate R] [--warmup S] [--duration S] [--max-requests N]</c>:
/// one GET scenario with the PerfBudgets load runner, a progress line a second, the result, and one machine-readable
/// line <c>load rps=… p50=… p99=… failed=… cpu=… seconds=…</c> (cpu: this process's CPU seconds over the whole run).
/// </summary>
/// <remarks>
/// Every run ends by itself: its length is bounded (<see cref="MaxDurationSeconds"/>, <see cref="MaxWarmUpSeconds"/>),
/// and so is its request count (<c>--max-requests</c>): an open-model schedule that would send more is refused before
/// it starts, and a closed-model run that reaches it is stopped. Exit 1 when a request failed.
/// </remarks>
internal static class LoadCommand
{
    /// <summary>The longest measured window, in seconds.</summary>
    public const double MaxDurationSeconds = 3600;

    /// <summary>The longest warm-up, in seconds.</summary>
    public const double MaxWarmUpSeconds = 600;

    public static Command Create()
    {
        var url = new Argument<string>("URL") { Description = "The server (http or https), with the path unless --path gives it." };
        var path = new Option<string?>("--path") { Description = "The path and query to GET on URL, e.g. /api/employees?count=9." };
        var connections = new Option<int?>("--connections") { Description = "Closed model: this many copies, each on its own connection, back to back (default 16). Open model: the most connections (default 256)." };
        var rate = new Option<double?>("--rate") { Description = "Open model: start this many requests a second, whatever the server's speed." };
        var warmUp = new Option<double>("--warmup") { Description = "Seconds run before measuring.", DefaultValueFactory = _ => 3 };
        var duration = new Option<double>("--duration") { Description = "Seconds measured.", DefaultValueFactory = _ => 10 };
        var maxRequests = new Option<long>("--max-requests") { Description = "The most requests the run may send, warm-up included.", DefaultValueFactory = _ => 1_000_000 };
        var command = new Command("load", "Runs GET URL under load (closed model, or open with --rate) and prints the latency percentiles and rate.")
        {
            url, path, connections, rate, warmUp, duration, maxRequests,
        };
        command.SetAction((parseResult, cancellationToken) => CommandAction.RunAsync(() =>
        {
            var settings = new LoadSettings(
                Target(parseResult.GetValue(url)!, parseResult.GetValue(path)),
                parseResult.GetValue(connections),
                parseResult.GetValue(rate),
                Seconds("--warmup", parseResult.GetValue(warmUp), 0, MaxWarmUpSeconds),
                Seconds("--duration", parseResult.GetValue(duration), double.Epsilon, MaxDurationSeconds),
                parseResult.GetValue(maxRequests));
            return RunAsync(settings.Validated(), cancellationToken);
        }));
        return command;
    }

    private static async Task<int> RunAsync(LoadSettings settings, CancellationToken cancellationToken)
    {
        using var client = new HttpClient(new SocketsHttpHandler
        {
            MaxConnectionsPerServer = settings.Connections ?? (settings.Rate is null ? 16 : 256),
            PooledConnectionLifetime = Timeout.InfiniteTimeSpan,
            UseProxy = false,
            AllowAutoRedirect = false,
        })
        {
            Timeout = TimeSpan.FromSeconds(30),
        };

        var warmUp = TimeSpan.FromSeconds(settings.WarmUpSeconds);
        var duration = TimeSpan.FromSeconds(settings.DurationSeconds);
        var copies = settings.Connections ?? 16;
        LoadSimulation[] phases = settings.Rate is { } rate
            ? [LoadSimulation.Inject(rate, warmUp).AsWarmUp(), LoadSimulation.Inject(rate, duration)]
            : [LoadSimulation.KeepConstant(copies, warmUp).AsWarmUp(), LoadSimulation.KeepConstant(copies, duration)];

        // A closed-model run has no schedule to check beforehand: its request count is the server's speed times the
        // time, so the step stops the run when the bound is reached.
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var get = HttpLoadStep.Get(client, settings.Url.ToString());
        var scenario = new LoadScenario("load", phases.Where(p => p.Duration > TimeSpan.Zero), (context, token) =>
        {
            if (context.Request >= settings.MaxRequests)
            {
                stop.Cancel();
                return ValueTask.FromResult(LoadStepOutcome.Failure("--max-requests reached"));
            }

            return get(context, token);
        })
        {
            Progress = progress => Console.WriteLine(progress),
        };

        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"GET {settings.Url}: {(settings.Rate is { } r ? $"{r:0.##} requests/s (open model)" : $"{copies} copies (closed model)")}, {settings.WarmUpSeconds:0.##} s warm-up + {settings.DurationSeconds:0.##} s"));
        var cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
        LoadResult result;
        try
        {
            result = await LoadRunner.RunAsync(scenario, stop.Token);
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested && !cancellationToken.IsCancellationRequested)
        {
            throw new ToolInputException(string.Create(CultureInfo.InvariantCulture,
                $"Stopped at --max-requests {settings.MaxRequests:N0} before the end of the run, so nothing was measured: raise --max-requests or shorten --duration."));
        }

        var cpu = Process.GetCurrentProcess().TotalProcessorTime - cpuBefore;
        Console.WriteLine(result);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"load rps={result.RequestsPerSecond:0.#} p50={result.P50Ms:0.###} p99={result.P99Ms:0.###} failed={result.Failed} cpu={cpu.TotalSeconds:0.###} seconds={settings.WarmUpSeconds + settings.DurationSeconds:0.###}"));
        if (result.Failed > 0)
        {
            Console.Error.WriteLine($"{result.Failed} requests failed: {string.Join("; ", result.FirstErrors)}");
            return 1;
        }

        return 0;
    }

    private static Uri Target(string url, string? path)
    {
        if (!Uri.TryCreate(url, UriKind.Absolute, out var uri) || uri.Scheme is not ("http" or "https"))
        {
            throw new ToolInputException($"URL '{url}' is not an absolute http or https URL.");
        }

        if (path is null)
        {
            return uri;
        }

        return path.StartsWith('/') && Uri.TryCreate(uri, path, out var combined)
            ? combined
            : throw new ToolInputException($"--path '{path}' is not a path starting with '/'.");
    }

    private static double Seconds(string option, double value, double min, double max) =>
        double.IsFinite(value) && value >= min && value <= max
            ? value
            : throw new ToolInputException(string.Create(CultureInfo.InvariantCulture, $"{option} {value} is out of range: give seconds from {(min > 0 ? "more than 0" : min)} to {max}."));

    /// <summary>The run asked for on the command line.</summary>
    private sealed record LoadSettings(Uri Url, int? Connections, double? Rate, double WarmUpSeconds, double DurationSeconds, long MaxRequests)
    {
        public LoadSettings Validated()
        {
            if (Connections is { } c && c is < 1 or > 10_000)
            {
                throw new ToolInputException($"--connections {c} is out of range: give 1 to 10,000.");
            }

            if (MaxRequests < 1)
            {
                throw new ToolInputException($"--max-requests {MaxRequests} is out of range: give 1 or more.");
            }

            if (Rate is { } rate)
            {
                if (!double.IsFinite(rate) || rate <= 0)
                {
                    throw new ToolInputException(string.Create(CultureInfo.InvariantCulture, $"--rate {rate} is out of range: give requests a second, more than 0."));
                }

                var scheduled = rate * (WarmUpSeconds + DurationSeconds);
                if (scheduled > MaxRequests)
                {
                    throw new ToolInputException(string.Create(CultureInfo.InvariantCulture,
                        $"--rate {rate} for {WarmUpSeconds + DurationSeconds} s schedules {scheduled:N0} requests, more than --max-requests {MaxRequests:N0}."));
                }
            }

            return this;
        }
    }
}
