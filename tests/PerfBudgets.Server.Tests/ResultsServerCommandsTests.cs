using System.Text.Json.Nodes;

namespace PerfBudgets.Server.Tests;

/// <summary><c>perfbudgets upload</c> and <c>perfbudgets baseline</c> as CI runs them, against a running server.</summary>
public sealed class ResultsServerCommandsTests : IDisposable
{
    private readonly string _folder = Directory.CreateTempSubdirectory("perfbudgets-commands-").FullName;

    [Fact]
    public async Task Upload_then_baseline_of_the_same_commit_writes_the_uploaded_results_json()
    {
        await using var server = await RunningResultsServer.StartAsync();
        var results = Write("results.json", RunningResultsServer.ResultsJson(budgets: 3));
        var token = Write("token", server.Token + "\n");
        var baseline = Path.Combine(_folder, "baseline", "results.json");

        var uploaded = await InvokeAsync("upload", "--server", server.Server.Address.ToString(), "--project", RunningResultsServer.Project,
            "--token-file", token, "--commit", "a1", "--parents", "a0", "--results", results);
        var fetched = await InvokeAsync("baseline", "--server", server.Server.Address.ToString(), "--project", RunningResultsServer.Project,
            "--commit", "a1", "--out", baseline);

        uploaded.Should().Be(0);
        fetched.Should().Be(0);
        JsonNode.DeepEquals(JsonNode.Parse(File.ReadAllText(baseline)), JsonNode.Parse(File.ReadAllText(results))).Should().BeTrue();
    }

    [Fact]
    public async Task Upload_with_a_wrong_token_and_baseline_of_a_commit_without_a_run_exit_1_and_write_nothing()
    {
        await using var server = await RunningResultsServer.StartAsync();
        var results = Write("results.json", RunningResultsServer.ResultsJson());
        var wrongToken = Write("token", new string('f', 64));
        var baseline = Path.Combine(_folder, "baseline.json");

        var uploaded = await InvokeAsync("upload", "--server", server.Server.Address.ToString(), "--project", RunningResultsServer.Project,
            "--token-file", wrongToken, "--commit", "a1", "--results", results);
        var fetched = await InvokeAsync("baseline", "--server", server.Server.Address.ToString(), "--project", RunningResultsServer.Project,
            "--commit", "a1", "--out", baseline);

        uploaded.Should().Be(PerfBudgetsTool.BadInput);
        fetched.Should().Be(PerfBudgetsTool.BadInput);
        File.Exists(baseline).Should().BeFalse();
        (await server.CountAsync()).Should().Be((0, 0));
    }

    public void Dispose() => Directory.Delete(_folder, recursive: true);

    private static async Task<int> InvokeAsync(string command, params string[] args) =>
        (await PerfBudgetsTool.RunAsync([command, .. args])).ExitCode;

    private string Write(string name, string content)
    {
        var path = Path.Combine(_folder, name);
        File.WriteAllText(path, content);
        return path;
    }
}
