using System.Net;

namespace PerfBudgets.Server.Tests;

/// <summary>
/// Reads share <see cref="ResultsServerOptions.MaxConcurrentReads"/> and a queue of <see cref="ResultsServerOptions.MaxQueuedReads"/>;
/// past both a read is 503 with Retry-After, and uploads are never queued behind readers.
/// </summary>
public sealed class ReadConcurrencyTests
{
    private static CancellationToken Cancellation => TestContext.Current.CancellationToken;

    [Fact]
    public async Task Reads_past_the_limit_and_its_queue_are_503_while_uploads_go_through()
    {
        await using var server = await RunningResultsServer.StartAsync(configure: o => o with { MaxConcurrentReads = 1, MaxQueuedReads = 0 });
        await ResultsServerReadApiTests.UploadAsync(server, "a0", measured: 100);

        var reads = Enumerable.Range(0, 40)
            .Select(_ => server.Http.GetAsync($"projects/{RunningResultsServer.Project}/budgets/Test.Budget0.BytesPerOp", Cancellation)).ToList();
        var uploads = Enumerable.Range(1, 5).Select(i => server.UploadAsync(RunningResultsServer.UploadBody($"a{i}").ToJsonString())).ToList();
        var answers = await Task.WhenAll(reads);
        var uploaded = await Task.WhenAll(uploads);

        answers.Should().Contain(a => a.StatusCode == HttpStatusCode.OK);
        var refused = answers.Where(a => a.StatusCode == HttpStatusCode.ServiceUnavailable).ToList();
        refused.Should().NotBeEmpty("40 reads at once meet one slot and no queue");
        refused[0].Headers.RetryAfter!.Delta.Should().Be(TimeSpan.FromSeconds(1));
        uploaded.Select(u => u.StatusCode).Should().AllBeEquivalentTo(HttpStatusCode.Created);
        foreach (var answer in answers.Concat(uploaded))
        {
            answer.Dispose();
        }
    }
}
