using System.Diagnostics;
using System.Globalization;
using PerfBudgets.Load;

// loadrun --url URL [--copies N | --rate R] [--warmup S] [--duration S] [--max-connections N]
// Runs one GET scenario with the PerfBudgets load runner and prints a progress line a second, the result, and one
// machine-readable line: `loadrun rps=… p50=… p99=… cpu=…` (cpu: this process's CPU seconds over the whole run).
LoadRunOptions? options;
try
{
    options = LoadRunOptions.Parse(args);
}
catch (FormatException e)
{
    Console.Error.WriteLine(e.Message);
    options = null;
}

if (options is null)
{
    Console.Error.WriteLine("usage: loadrun --url http://127.0.0.1:5000/path [--copies 16 | --rate 2000] [--warmup 3] [--duration 10] [--max-connections 256]");
    return 2;
}

using var client = new HttpClient(new SocketsHttpHandler
{
    MaxConnectionsPerServer = options.MaxConnections ?? options.Copies ?? 256,
    PooledConnectionLifetime = Timeout.InfiniteTimeSpan,
    UseProxy = false,
    AllowAutoRedirect = false,
})
{
    Timeout = TimeSpan.FromSeconds(30),
};

var warmUp = TimeSpan.FromSeconds(options.WarmUpSeconds);
var duration = TimeSpan.FromSeconds(options.DurationSeconds);
LoadSimulation[] phases = options.Rate is { } rate
    ? [LoadSimulation.Inject(rate, warmUp).AsWarmUp(), LoadSimulation.Inject(rate, duration)]
    : [LoadSimulation.KeepConstant(options.Copies ?? 16, warmUp).AsWarmUp(), LoadSimulation.KeepConstant(options.Copies ?? 16, duration)];
var scenario = new LoadScenario("loadrun", phases.Where(p => p.Duration > TimeSpan.Zero), HttpLoadStep.Get(client, options.Url.ToString()))
{
    Progress = progress => Console.WriteLine(progress),
};

var cpuBefore = Process.GetCurrentProcess().TotalProcessorTime;
var result = await LoadRunner.RunAsync(scenario);
var cpu = Process.GetCurrentProcess().TotalProcessorTime - cpuBefore;
Console.WriteLine(result);
Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
    $"loadrun rps={result.RequestsPerSecond:0.#} p50={result.P50Ms:0.###} p99={result.P99Ms:0.###} failed={result.Failed} cpu={cpu.TotalSeconds:0.###} seconds={warmUp.TotalSeconds + duration.TotalSeconds:0.###}"));
return result.Failed == 0 ? 0 : 1;

/// <summary>The command line, parsed; null when it is not usable.</summary>
internal sealed record LoadRunOptions(Uri Url, int? Copies, double? Rate, double WarmUpSeconds, double DurationSeconds, int? MaxConnections)
{
    public static LoadRunOptions? Parse(string[] args)
    {
        var values = new Dictionary<string, string>(StringComparer.Ordinal);
        for (var i = 0; i + 1 < args.Length; i += 2)
        {
            if (!args[i].StartsWith("--", StringComparison.Ordinal))
            {
                return null;
            }

            values[args[i][2..]] = args[i + 1];
        }

        if (args.Length % 2 != 0 || !values.TryGetValue("url", out var url) || !Uri.TryCreate(url, UriKind.Absolute, out var uri) || uri.Scheme is not ("http" or "https"))
        {
            return null;
        }

        static double? Number(Dictionary<string, string> values, string name) =>
            !values.TryGetValue(name, out var text) ? null
            : double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && double.IsFinite(value) && value >= 0 ? value
            : throw new FormatException($"--{name} '{text}' is not a number ≥ 0.");

        var copies = Number(values, "copies");
        var rate = Number(values, "rate");
        if (copies is not null && rate is not null)
        {
            return null;
        }

        return new LoadRunOptions(uri, (int?)copies, rate, Number(values, "warmup") ?? 3, Number(values, "duration") ?? 10, (int?)Number(values, "max-connections"));
    }
}
