using System.Text;
using System.Text.Json.Nodes;
using PerfBudgets.Server.Upload;

namespace PerfBudgets.Server.Tests.Load;

/// <summary>
/// A long history of main written through the storage, not HTTP, for the load tests: commits m0, m1, … each with one
/// run of p99 figures that wobble by a few percent and step up by 20% halfway through, so the change points have one
/// step to find.
/// </summary>
internal static class SeededHistory
{
    /// <summary>Stores <paramref name="runs"/> runs of <paramref name="figuresPerRun"/> figures each on main.</summary>
    public static async Task AddMainAsync(RunningResultsServer server, int runs, int figuresPerRun, CancellationToken cancellationToken)
    {
        for (var run = 0; run < runs; run++)
        {
            await AddAsync(server, UploadBody($"m{run}", run == 0 ? null : $"m{run - 1}", run, runs, figuresPerRun), cancellationToken);
        }
    }

    /// <summary>Stores one upload body as the server would after parsing it.</summary>
    public static Task AddAsync(RunningResultsServer server, JsonObject body, CancellationToken cancellationToken) =>
        server.Server.Storage.AddRunAsync(RunningResultsServer.Project,
            UploadParser.Parse(Encoding.UTF8.GetBytes(body.ToJsonString()), new ResultsServerOptions()), cancellationToken);

    /// <summary>The upload of run <paramref name="run"/> of <paramref name="runs"/> at <paramref name="commit"/>.</summary>
    public static JsonObject UploadBody(string commit, string? parent, int run, int runs, int figuresPerRun)
    {
        var results = new JsonArray();
        for (var b = 0; b < figuresPerRun; b++)
        {
            var p99 = (run >= runs / 2 ? 12.0 : 10.0) * (1 + (0.03 * Math.Sin(run * 1.7 + b)));
            results.Add(RunningResultsServer.Result($"Load.Budget{b}.P99Ms", "p99-ms-max", p99, 50, "ms"));
        }

        return RunningResultsServer.UploadBody(commit, parent is null ? [] : [parent], new JsonObject { ["results"] = results }.ToJsonString());
    }
}
