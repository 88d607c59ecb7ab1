using System.Net.Http.Headers;
using System.Text.Json.Nodes;

namespace PerfBudgets.Server.Tests;

/// <summary>
/// A long budget detail is cut for an anonymous reader of a public server's baseline, and read whole with a token; the
/// figures are the same either way.
/// </summary>
public sealed class AnonymousDetailsTests
{
    [Fact]
    public async Task A_long_detail_is_cut_for_an_anonymous_reader_and_whole_with_a_token()
    {
        await using var server = await RunningResultsServer.StartAsync();
        var results = JsonNode.Parse(RunningResultsServer.ResultsJson(budgets: 2))!;
        results["results"]![0]!["detail"] = new string('d', 2_000_000);
        results["results"]![1]!["detail"] = "short";
        (await server.UploadAsync(RunningResultsServer.UploadBody("a1", resultsJson: results.ToJsonString()).ToJsonString())).EnsureSuccessStatusCode();
        var path = $"api/projects/{RunningResultsServer.Project}/runs?commit=a1";

        var anonymous = await server.Http.GetStringAsync(path, TestContext.Current.CancellationToken);
        using var withToken = new HttpRequestMessage(HttpMethod.Get, path) { Headers = { Authorization = new AuthenticationHeaderValue("Bearer", server.Token) } };
        using var answer = await server.Http.SendAsync(withToken, TestContext.Current.CancellationToken);
        var whole = await answer.Content.ReadAsStringAsync(TestContext.Current.CancellationToken);

        anonymous.Length.Should().BeLessThan(10_000);
        var cut = JsonNode.Parse(anonymous)!["results"]!.AsArray();
        cut[0]!["detail"]!.GetValue<string>().Should().StartWith(new string('d', 1_000) + "…").And.Contain("cut from 2,000,000 characters");
        cut[1]!["detail"]!.GetValue<string>().Should().Be("short");
        cut[0]!["measured"]!.GetValue<double>().Should().Be(120);
        JsonNode.Parse(whole)!["results"]![0]!["detail"]!.GetValue<string>().Should().HaveLength(2_000_000);
        PerfBudgets.Reporting.Storage.ResultStore.Parse(anonymous).Should().HaveCount(2, "the cut run is still a baseline");
    }
}
