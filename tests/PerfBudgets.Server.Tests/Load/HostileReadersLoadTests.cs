using System.Diagnostics;
using System.Globalization;
using System.Text;
using System.Text.Json.Nodes;
using PerfBudgets.Server.Tests.Postgres;
using PerfBudgets.Server.Upload;

namespace PerfBudgets.Server.Tests.Load;

/// <summary>
/// Anonymous readers hammering a server that holds a long history while CI keeps uploading: the deep ancestor search,
/// the change points, a budget's page and its series, by many clients at once. Opt-in (<c>PERF_SERVER_LOAD=FILE</c>, the
/// markdown table of figures is written there); it asserts only that every upload was stored.
/// </summary>
/// <remarks>
/// Readers, uploader and server share the machine (2 cores here), so the figures are of the whole, not of the server
/// alone. The history is seeded through the storage, not HTTP: 2,000 runs (PERF_SERVER_LOAD_RUNS) of 20 figures on main, and a chain of 3,000
/// commits without runs (sent as ancestry) whose walk ends at the depth limit.
/// </remarks>
public abstract class HostileReadersLoadTests
{
    // PERF_SERVER_LOAD_RUNS sets the length of the seeded history (default 2,000).
    private static readonly int Runs = (int)Seconds("PERF_SERVER_LOAD_RUNS", 2_000);
    private const int FiguresPerRun = 20;
    private const int DarkCommits = 3_000;
    private const int Readers = 64;
    private static readonly TimeSpan Duration = TimeSpan.FromSeconds(Seconds("PERF_SERVER_LOAD_SECONDS", 10));
    private static readonly TimeSpan UploadEvery = TimeSpan.FromSeconds(Seconds("PERF_SERVER_LOAD_UPLOAD_EVERY", 1));

    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    private static CancellationToken Cancellation => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Readers_hammering_a_long_history_do_not_stop_uploads()
    {
        var output = Environment.GetEnvironmentVariable("PERF_SERVER_LOAD");
        Assert.SkipWhen(string.IsNullOrEmpty(output), "The hostile-reader load test runs with PERF_SERVER_LOAD=FILE (its figures are written there).");
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        var seeding = Stopwatch.StartNew();
        await SeedAsync(server);
        seeding.Stop();

        var requests = new (string Name, string Path)[]
        {
            ("baseline miss, 1,000-generation walk", $"api/projects/{RunningResultsServer.Project}/runs?commit=nowhere&parents=d{DarkCommits - 1}"),
            ("changes of main", $"api/projects/{RunningResultsServer.Project}/changes?branch=main"),
            ("budget page", $"projects/{RunningResultsServer.Project}/budgets/Load.Budget0.P99Ms"),
            ("series of one budget (API)", $"api/projects/{RunningResultsServer.Project}/budgets/Load.Budget0.P99Ms/series?branch=main"),
            ("project page", $"projects/{RunningResultsServer.Project}"),
        };
        // Each request alone first: its cost without the crowd (the third of three, the first two warming up and filling
        // the change-point cache).
        var alone = new double[requests.Length];
        var first = new double[requests.Length];
        for (var i = 0; i < requests.Length; i++)
        {
            for (var attempt = 0; attempt < 3; attempt++)
            {
                var clock = Stopwatch.StartNew();
                using var answer = await server.Http.GetAsync(requests[i].Path, Cancellation);
                await answer.Content.ReadAsByteArrayAsync(Cancellation);
                alone[i] = clock.Elapsed.TotalMilliseconds;
                first[i] = attempt == 0 ? alone[i] : first[i];
            }
        }

        var latencies = requests.Select(_ => new List<double>()).ToArray();
        var errors = new int[requests.Length];
        var uploadLatencies = new List<double>();
        var uploadFailures = 0;
        var uploadRefusals = new List<string>();
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(Cancellation);
        stop.CancelAfter(Duration);
        var computedBefore = server.Server.ChangePoints.Computed;

        var readers = Enumerable.Range(0, Readers).Select(reader => Task.Run(async () =>
        {
            using var client = new HttpClient { BaseAddress = server.Http.BaseAddress, Timeout = TimeSpan.FromSeconds(60) };
            for (var i = reader; !stop.IsCancellationRequested; i++)
            {
                var which = i % requests.Length;
                var clock = Stopwatch.StartNew();
                try
                {
                    using var answer = await client.GetAsync(requests[which].Path, CancellationToken.None);
                    await answer.Content.ReadAsByteArrayAsync(CancellationToken.None);
                    var ok = answer.IsSuccessStatusCode || (which == 0 && answer.StatusCode == System.Net.HttpStatusCode.NotFound);
                    lock (latencies)
                    {
                        if (ok)
                        {
                            latencies[which].Add(clock.Elapsed.TotalMilliseconds);
                        }
                        else
                        {
                            errors[which]++;
                        }
                    }
                }
                catch (HttpRequestException)
                {
                    lock (latencies)
                    {
                        errors[which]++;
                    }
                }
            }
        }, Cancellation)).ToList();
        var uploader = Task.Run(async () =>
        {
            for (var i = 0; !stop.IsCancellationRequested; i++)
            {
                var clock = Stopwatch.StartNew();
                using var answer = await server.UploadAsync(SeededHistory.UploadBody($"u{i}", $"m{Runs - 1}", run: 0, Runs, FiguresPerRun).ToJsonString());
                lock (latencies)
                {
                    if (answer.IsSuccessStatusCode)
                    {
                        uploadLatencies.Add(clock.Elapsed.TotalMilliseconds);
                    }
                    else
                    {
                        uploadFailures++;
                        uploadRefusals.Add($"{(int)answer.StatusCode} {answer.Content.ReadAsStringAsync(CancellationToken.None).GetAwaiter().GetResult()}");
                    }
                }

                await Task.Delay(UploadEvery, CancellationToken.None);
            }
        }, Cancellation);
        await Task.WhenAll([.. readers, uploader]);

        var table = new StringBuilder();
        table.AppendLine(CultureInfo.InvariantCulture, $"{(Postgres is null ? "SQLite" : "PostgreSQL")}, {Environment.ProcessorCount} cores, {Readers} readers for {Duration.TotalSeconds:0} s, an upload every {UploadEvery.TotalSeconds:0.##} s; {Runs:N0} runs × {FiguresPerRun} figures seeded in {seeding.Elapsed.TotalSeconds:0.0} s; change points computed {server.Server.ChangePoints.Computed - computedBefore} times")
            .AppendLine()
            .AppendLine("| request | alone, first ms | alone, third ms | answered | per s | p50 ms | p99 ms | failed |")
            .AppendLine("|---|---:|---:|---:|---:|---:|---:|---:|");
        for (var i = 0; i < requests.Length; i++)
        {
            table.AppendLine(Row(requests[i].Name, first[i], alone[i], latencies[i], errors[i]));
        }

        table.AppendLine(Row($"upload (CI, every {UploadEvery.TotalSeconds:0.##} s)", double.NaN, double.NaN, uploadLatencies, uploadFailures));
        await File.AppendAllTextAsync(output!, table.AppendLine().ToString(), Cancellation);
        uploadRefusals.Should().BeEmpty();
    }

    private static string Row(string name, double first, double alone, List<double> latencies, int failed)
    {
        latencies.Sort();
        double Percentile(double p) => latencies.Count == 0 ? double.NaN : latencies[Math.Min(latencies.Count - 1, (int)(p * latencies.Count))];
        return string.Create(CultureInfo.InvariantCulture,
            $"| {name} | {Milliseconds(first)} | {Milliseconds(alone)} | {latencies.Count:N0} | {latencies.Count / Duration.TotalSeconds:0} | {Percentile(0.5):0.0} | {Percentile(0.99):0.0} | {failed} |");
    }

    // A setting of the run from the environment (a number: seconds, or the runs for PERF_SERVER_LOAD_RUNS), else its default.
    private static double Seconds(string variable, double fallback) =>
        double.TryParse(Environment.GetEnvironmentVariable(variable), NumberStyles.Float, CultureInfo.InvariantCulture, out var seconds) ? seconds : fallback;

    private static string Milliseconds(double value) => double.IsNaN(value) ? "–" : value.ToString("0.0", CultureInfo.InvariantCulture);

    // main: m0 … m1999, each with a run; a chain d2999 → … → d0 → m0 of commits without runs, sent as ancestry.
    private static async Task SeedAsync(RunningResultsServer server)
    {
        await SeededHistory.AddMainAsync(server, Runs, FiguresPerRun, Cancellation);
        for (var start = 0; start < DarkCommits; start += 1_000)
        {
            var body = SeededHistory.UploadBody($"dark{start}", null, run: 0, Runs, FiguresPerRun);
            body["branch"] = "dark";
            body["ancestry"] = new JsonArray(Enumerable.Range(start, 1_000)
                .Select(i => (JsonNode?)new JsonObject { ["commit"] = $"d{i}", ["parents"] = new JsonArray(i == 0 ? "m0" : $"d{i - 1}") })
                .ToArray());
            await SeededHistory.AddAsync(server, body, Cancellation);
        }
    }
}

/// <summary>The hostile readers on SQLite.</summary>
public sealed class HostileReadersLoadTestsOnSqlite : HostileReadersLoadTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>The hostile readers on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class HostileReadersLoadTestsOnPostgres(PostgresCluster cluster) : HostileReadersLoadTests
{
    protected override PostgresCluster? Postgres => cluster;
}
