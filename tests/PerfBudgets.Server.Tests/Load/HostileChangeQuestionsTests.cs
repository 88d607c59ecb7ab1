using System.Diagnostics;
using System.Globalization;
using System.Net;
using System.Text;
using System.Text.Json.Nodes;
using PerfBudgets.Server.Tests.Postgres;
using PerfBudgets.Server.Upload;
using PerfBudgets.Statistics;

namespace PerfBudgets.Server.Tests.Load;

/// <summary>
/// Eight anonymous clients asking change-point questions with a new <c>minShift</c> each time, half of them abandoning
/// each question after 50 ms, while a team reads its branch's budgets: the team's reads keep their speed (their p99 within
/// 100 ms of the same reads without strangers, in the same run), the strangers are answered or refused (429), never 5xx, and a question its client abandoned stops.
/// </summary>
/// <remarks>
/// Clients and server share the machine (2 cores here). Before the strangers were bounded the same crowd took a team's
/// <c>/budgets</c> read from 5 ms to a median of 4.8 s. The history is seeded through the storage: 300 runs of 20
/// p99 figures on main, stepping up halfway.
/// </remarks>
public abstract class HostileChangeQuestionsTests
{
    private const int Runs = 300;
    private const int FiguresPerRun = 20;
    private const int Strangers = 8;
    private static readonly TimeSpan Duration = TimeSpan.FromSeconds(5);

    /// <summary>The database the tests of this class run on: null for SQLite, the run's cluster for PostgreSQL.</summary>
    protected abstract PostgresCluster? Postgres { get; }

    private static CancellationToken Cancellation => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Strangers_asking_new_change_point_questions_add_under_100_ms_to_a_team_readers_p99()
    {
        await using var server = await RunningResultsServer.StartAsync(postgres: Postgres);
        await SeededHistory.AddMainAsync(server, Runs, FiguresPerRun, Cancellation);
        var api = $"api/projects/{RunningResultsServer.Project}";
        // The team's reads with no stranger, in the same run: what the machine alone makes of them (a busy machine's
        // neighbours slow them as much with strangers as without).
        var teamAlone = await TeamReadsAsync(server, api);
        // One question of a reader's own alone: what each stranger's question costs.
        var alone = Stopwatch.StartNew();
        (await server.Http.GetAsync($"{api}/changes?branch=main&minShift=0.05", Cancellation)).EnsureSuccessStatusCode();
        alone.Stop();

        using var stop = CancellationTokenSource.CreateLinkedTokenSource(Cancellation);
        var statuses = new Dictionary<int, int>();
        var strangers = Enumerable.Range(0, Strangers).Select(stranger => Task.Run(async () =>
        {
            using var client = new HttpClient { BaseAddress = server.Http.BaseAddress, Timeout = TimeSpan.FromSeconds(60) };
            for (var i = 0; !stop.IsCancellationRequested; i++)
            {
                var minShift = (0.01 + (stranger * 100_000 + i) * 1e-7).ToString("R", CultureInfo.InvariantCulture);
                // Half of them give up on each question after 50 ms.
                using var abandon = CancellationTokenSource.CreateLinkedTokenSource(stop.Token);
                if (stranger % 2 == 0)
                {
                    abandon.CancelAfter(TimeSpan.FromMilliseconds(50));
                }

                int status;
                try
                {
                    using var answer = await client.GetAsync($"{api}/changes?branch=main&minShift={minShift}", abandon.Token);
                    await answer.Content.ReadAsByteArrayAsync(abandon.Token);
                    status = (int)answer.StatusCode;
                }
                catch (OperationCanceledException)
                {
                    status = 0;
                }

                lock (statuses)
                {
                    statuses[status] = statuses.GetValueOrDefault(status) + 1;
                }
            }
        }, Cancellation)).ToList();

        // The team: its branch's budgets, one read after another.
        await Task.Delay(500, Cancellation);
        var team = await TeamReadsAsync(server, api);

        await stop.CancelAsync();
        await Task.WhenAll(strangers);

        // Every question abandoned has stopped: the one slot strangers share is free again at once.
        var freed = Stopwatch.StartNew();
        using (var slot = await UntilFreeAsync(server))
        {
            freed.Stop();
        }

        var p50 = team[team.Count / 2];
        var p99 = Quantiles.NearestRank(team, 0.99);
        var p99Alone = Quantiles.NearestRank(teamAlone, 0.99);
        TestContext.Current.TestOutputHelper?.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"{(Postgres is null ? "SQLite" : "PostgreSQL")}, {Environment.ProcessorCount} cores, {Strangers} strangers for {Duration.TotalSeconds:0} s: one stranger's question alone {alone.Elapsed.TotalMilliseconds:0} ms; team reads {team.Count}, p50 {p50:0.0} ms, p99 {p99:0.0} ms, max {team[^1]:0.0} ms (alone: {teamAlone.Count} reads, p99 {p99Alone:0.0} ms); strangers' answers {string.Join(", ", statuses.OrderBy(s => s.Key).Select(s => $"{(s.Key == 0 ? "abandoned" : s.Key.ToString(CultureInfo.InvariantCulture))}: {s.Value}"))}; slot free {freed.Elapsed.TotalMilliseconds:0} ms after the last"));
        statuses.Keys.Should().OnlyContain(status => status == 0 || status == 200 || status == 429);
        p99.Should().BeLessThan(p99Alone + 100, "the strangers' questions add less than 100 ms to the team's p99 (they once took its median to 4.8 s)");
        freed.Elapsed.Should().BeLessThan(TimeSpan.FromSeconds(1) + alone.Elapsed / 2, "an abandoned question stops");
    }

    // The team's reads of its branch's budgets, one after another for Duration, in milliseconds, ascending.
    private static async Task<List<double>> TeamReadsAsync(RunningResultsServer server, string api)
    {
        var team = new List<double>();
        var clock = Stopwatch.StartNew();
        while (clock.Elapsed < Duration)
        {
            var read = Stopwatch.StartNew();
            using var answer = await server.Http.GetAsync($"{api}/budgets?branch=main", Cancellation);
            await answer.Content.ReadAsByteArrayAsync(Cancellation);
            answer.StatusCode.Should().Be(HttpStatusCode.OK);
            team.Add(read.Elapsed.TotalMilliseconds);
        }

        team.Sort();
        return team;
    }

    // The strangers' slot, as soon as no question holds it.
    private static async Task<IDisposable> UntilFreeAsync(RunningResultsServer server)
    {
        var computations = (PerfBudgets.Server.Changes.AnonymousComputations)server.Server.Services.GetService(typeof(PerfBudgets.Server.Changes.AnonymousComputations))!;
        while (true)
        {
            if (computations.TryEnter() is { } slot)
            {
                return slot;
            }

            await Task.Delay(5, Cancellation);
        }
    }
}

/// <summary>The strangers' change-point questions on SQLite.</summary>
public sealed class HostileChangeQuestionsTestsOnSqlite : HostileChangeQuestionsTests
{
    protected override PostgresCluster? Postgres => null;
}

/// <summary>The strangers' change-point questions on PostgreSQL.</summary>
[Collection(PostgresCollection.Name)]
public sealed class HostileChangeQuestionsTestsOnPostgres(PostgresCluster cluster) : HostileChangeQuestionsTests
{
    protected override PostgresCluster? Postgres => cluster;
}
