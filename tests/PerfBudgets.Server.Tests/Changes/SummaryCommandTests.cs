using System.Net;

namespace PerfBudgets.Server.Tests.Changes;

/// <summary><c>perfbudgets summary</c>: the markdown a pull request gets, against runs uploaded to a running server.</summary>
public sealed class SummaryCommandTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("perfbudgets-summary-").FullName;

    [Fact]
    public async Task Failures_come_first_then_the_largest_changes_against_the_base_run_then_counted_budgets_by_method()
    {
        await using var server = await RunningResultsServer.StartAsync();
        await UploadAsync(server, "b1", TimedRuns.ResultsJson(p99: 12, p99Limit: 50, instructions: 1_000_000, bytes: 100,
            methods: [("Json.Writer.WriteString", 600_000), ("Json.Reader.Read", 390_000), ("Json.Old.Escape", 10_000)]));
        await UploadAsync(server, "h0", TimedRuns.ResultsJson(p99: 13, p99Limit: 50, instructions: 1_000_000, bytes: 100));
        var head = Write("results.json", TimedRuns.ResultsJson(p99: 60, p99Limit: 50, instructions: 1_050_000, bytes: 110,
            methods: [("Json.Writer.WriteString", 650_000), ("Json.Reader.Read", 390_000), ("Json.New.Escape", 10_000)]));
        var budgets = Write("budgets.json", """
            {
              "profiles": ["ci"],
              "noise": { "p99-ms-max": 0.4, "instructions-max": 0.005, "allocated-bytes-per-op": 0.2 },
              "budgets": [
                { "name": "Load.Api.P99Ms", "kind": "p99-ms-max", "limit": 50, "unit": "ms" },
                { "name": "Cpu.Json.Instructions", "kind": "instructions-max", "limit": 1100000, "unit": "instructions",
                  "recorded": 1000000, "margin": 0.1, "recordedOn": { "runtime": "10.0.12", "valgrind": "3.24.0" } },
                { "name": "Alloc.Json.BytesPerOp", "kind": "allocated-bytes-per-op", "limit": 200, "unit": "B/op" }
              ]
            }
            """);
        var markdown = Path.Combine(_folder, "summary.md");

        var (exitCode, _, _) = await PerfBudgetsTool.RunAsync("summary", "--server", server.Server.Address.ToString(),
            "--project", RunningResultsServer.Project, "--base", "b1", "--results", head, "--budgets", budgets, "--out", markdown);

        exitCode.Should().Be(0);
        var text = File.ReadAllText(markdown);
        text.Should().StartWith("## Performance budgets");
        text.Should().Contain("**1 of 3 budgets failed.**");
        text.Should().Contain("| Load.Api.P99Ms | 60 | 50 | ms | (+20%) |");
        text.Should().Contain("Compared with the run of base `b1`.");
        text.Should().Contain("| Load.Api.P99Ms | 12 | 60 | ms | +400% | **worse** |");
        text.Should().Contain("| Alloc.Json.BytesPerOp | 100 | 110 | B/op | +10% | worse |", "10% is within its 20% noise threshold");
        text.Should().Contain("| Cpu.Json.Instructions | 1,000,000 | 1,050,000 | instructions | +5% | **worse** |");
        text.Should().Contain("| Cpu.Json.Instructions | 1,000,000 | 1,050,000 | 1,100,000 | instructions | +5% |");
        text.Should().Contain("| `Json.Writer.WriteString` | 600,000 | 650,000 | instructions | +8.3% |");
        text.Should().Contain("| `Json.Old.Escape` | 10,000 | — | instructions | gone |");
        text.Should().Contain("| `Json.New.Escape` | — | 10,000 | instructions | new |");
        text.Should().NotContain("Json.Reader.Read", "a method that did not move is not listed");
        text.Should().Contain("No timed budget shifted within the last 10 runs of main.");
        Order(text, "### Failures", "### Largest changes against the base", "### Counted budgets", "### Change points on main");
        Order(text, "| Load.Api.P99Ms | 12 | 60", "| Alloc.Json.BytesPerOp | 100 | 110", "| Cpu.Json.Instructions | 1,000,000 | 1,050,000 | ins");
        Order(text, "Cpu.Json.Instructions, the methods that moved:", "`Json.Writer.WriteString`", "`Json.New.Escape`", "`Json.Old.Escape`");
    }

    [Fact]
    public async Task A_base_without_a_run_is_compared_with_its_nearest_ancestor_a_recent_change_point_is_a_warning_and_the_step_summary_is_appended_to()
    {
        await using var server = await RunningResultsServer.StartAsync(budgetsJson: TimedRuns.BudgetsJson);
        await TimedRuns.UploadSeriesAsync(server, count: 20, stepAt: 12);
        var head = Write("results.json", TimedRuns.ResultsJson(p99: 14, p99Limit: 50, instructions: 1_000_000, bytes: 150));
        var stepSummary = Write("step-summary.md", "## Tests\n\nall passed\n");
        var (exitCode, _, _) = await PerfBudgetsTool.RunAsync(new Dictionary<string, string> { ["GITHUB_STEP_SUMMARY"] = stepSummary }, "summary",
            "--server", server.Server.Address.ToString(), "--project", RunningResultsServer.Project, "--base", "never-run", "--parents", "c19", "--results", head);

        exitCode.Should().Be(0);
        var text = File.ReadAllText(stepSummary);
        text.Should().StartWith("## Tests\n\nall passed\n## Performance budgets");
        text.Should().Contain("No budget failed (3 gated).");
        text.Should().Contain("The server has no run of base `never-run`; compared with its nearest ancestor with a run, `c19`.");
        text.Should().Contain("Not judged against noise: give `--budgets budgets.json`");
        text.Should().MatchRegex(@"- ⚠️ \*\*Load\.Api\.P99Ms\*\* shifted \+1[67]% from `c12` on: median 12(\.\d+)? → 14(\.\d+)? ms \(8 runs since\)");
    }

    [Fact]
    public async Task A_base_with_no_run_and_no_known_ancestor_says_there_is_nothing_to_compare_with()
    {
        await using var server = await RunningResultsServer.StartAsync();
        await UploadAsync(server, "b1", TimedRuns.ResultsJson(p99: 12, p99Limit: 50, instructions: 1_000_000, bytes: 100));
        var head = Write("results.json", TimedRuns.ResultsJson(p99: 12, p99Limit: 50, instructions: 1_000_000, bytes: 100));
        var markdown = Path.Combine(_folder, "summary.md");

        var (exitCode, _, _) = await PerfBudgetsTool.RunAsync("summary", "--server", server.Server.Address.ToString(),
            "--project", RunningResultsServer.Project, "--base", "unknown", "--results", head, "--out", markdown);

        exitCode.Should().Be(0);
        File.ReadAllText(markdown).Should().Contain("The server has no run of base `unknown` nor of an ancestor it knows: nothing to compare with.");
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static async Task UploadAsync(RunningResultsServer server, string commit, string resultsJson)
    {
        using var response = await server.UploadAsync(RunningResultsServer.UploadBody(commit, resultsJson: resultsJson).ToJsonString());
        response.StatusCode.Should().Be(HttpStatusCode.Created, await response.Content.ReadAsStringAsync(TestContext.Current.CancellationToken));
    }

    private static void Order(string text, params string[] parts)
    {
        var positions = parts.Select(p => text.IndexOf(p, StringComparison.Ordinal)).ToList();
        positions.Should().NotContain(-1, "every part is in the summary").And.BeInAscendingOrder("the parts come in this order: {0}", string.Join(" / ", parts));
    }

    private string Write(string name, string content)
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllText(path, content);
        return path;
    }
}
