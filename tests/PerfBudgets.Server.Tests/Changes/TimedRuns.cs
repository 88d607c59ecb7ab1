using System.Net;
using System.Text.Json.Nodes;

namespace PerfBudgets.Server.Tests.Changes;

/// <summary>
/// Runs of a gate with one timed budget (a p99), one counted budget (instructions) and one allocation budget, uploaded
/// to a <see cref="RunningResultsServer"/> as CI would: commit <c>cNN</c>, parent <c>c(NN-1)</c>.
/// </summary>
internal static class TimedRuns
{
    public const string P99 = "Load.Api.P99Ms";
    public const string Instructions = "Cpu.Json.Instructions";
    public const string Bytes = "Alloc.Json.BytesPerOp";

    /// <summary>
    /// A budgets.json for <c>serve --budgets</c> whose noise threshold for <see cref="P99"/> is 10%, so that its +16.7%
    /// step is a change; without it the p99 kind's default (a fivefold step, docs/results-server.md) holds it noise.
    /// </summary>
    public const string BudgetsJson = """
        {
          "profiles": ["ci", "local"],
          "noise": { "p99-ms-max": 0.4 },
          "budgets": [
            { "name": "Load.Api.P99Ms", "kind": "p99-ms-max", "limit": 50, "unit": "ms", "noise": 0.1 }
          ]
        }
        """;

    // A fixed ±3% wobble, so that the levels are noisy but every run of a test is the same.
    private static readonly double[] Wobble = [0.02, -0.01, 0.03, -0.02, 0, 0.01, -0.03, 0.02, -0.01, 0.01];

    /// <summary>The p99 of run <paramref name="i"/>: 12 ms, or 14 ms (+16.7%) from run <paramref name="stepAt"/> on.</summary>
    public static double P99Of(int i, int? stepAt) => (stepAt is { } s && i >= s ? 14.0 : 12.0) * (1 + Wobble[i % Wobble.Length]);

    public static string Commit(int i) => $"c{i:00}";

    /// <summary>Uploads <paramref name="count"/> runs to <paramref name="branch"/>; the p99 steps up at <paramref name="stepAt"/>, the bytes too (not a timed kind).</summary>
    public static async Task UploadSeriesAsync(RunningResultsServer server, int count, int? stepAt, string branch = "main")
    {
        for (var i = 0; i < count; i++)
        {
            var stepped = stepAt is { } s && i >= s;
            await UploadRunAsync(server, Commit(i), i == 0 ? null : Commit(i - 1), P99Of(i, stepAt), bytes: stepped ? 150 : 100, branch);
        }
    }

    /// <summary>Uploads one run of <paramref name="commit"/> with the p99 <paramref name="p99"/>.</summary>
    public static async Task UploadRunAsync(RunningResultsServer server, string commit, string? parent, double p99, double bytes = 100, string branch = "main")
    {
        var results = ResultsJson(p99, p99Limit: 50, instructions: 1_000_000, bytes: bytes);
        var body = RunningResultsServer.UploadBody(commit, parent is null ? [] : [parent], results);
        body["branch"] = branch;
        using var response = await server.UploadAsync(body.ToJsonString());
        response.StatusCode.Should().Be(HttpStatusCode.Created, await response.Content.ReadAsStringAsync(TestContext.Current.CancellationToken));
    }

    /// <summary>A results.json as src/PerfBudgets writes it with the three budgets; <paramref name="methods"/> attributes the instructions.</summary>
    public static string ResultsJson(double p99, double p99Limit, double instructions, double bytes, (string Method, double Instructions)[]? methods = null)
    {
        var attribution = methods is null ? null : new JsonObject
        {
            ["summary"] = "top methods: " + string.Join(", ", methods.Select(m => m.Method)),
            ["entries"] = new JsonArray(methods.Select(m => (JsonNode?)new JsonObject
            {
                ["name"] = m.Method, ["value"] = m.Instructions, ["unit"] = "instructions", ["share"] = null, ["samples"] = null,
            }).ToArray()),
            ["note"] = null,
            ["change"] = null,
        };
        return new JsonObject
        {
            ["results"] = new JsonArray(
                RunningResultsServer.Result(P99, "p99-ms-max", p99, p99Limit, "ms"),
                RunningResultsServer.Result(Instructions, "instructions-max", instructions, 1_100_000, "instructions", attribution),
                RunningResultsServer.Result(Bytes, "allocated-bytes-per-op", bytes, 200, "B/op")),
        }.ToJsonString();
    }
}
