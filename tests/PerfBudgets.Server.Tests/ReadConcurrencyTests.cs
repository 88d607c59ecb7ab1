using System.Net;

namespace PerfBudgets.Server.Tests;

/// <summary>
/// Reads share <see cref="ResultsServerOptions.MaxConcurrentReads"/> and a queue of <see cref="ResultsServerOptions.MaxQueuedReads"/>;
/// past both a read is 503 with Retry-After, and uploads are never queued behind readers.
/// </summary>
public sealed class ReadConcurrencyTests
{
    private static CancellationToken Cancellation => TestContext.Current.CancellationToken;

    private static string BudgetPage => $"projects/{RunningResultsServer.Project}/budgets/Test.Budget0.BytesPerOp";

    [Fact]
    public async Task Reads_past_the_limit_and_its_queue_are_503_while_uploads_go_through()
    {
        // The one read slot is held by a walk of the dense cyclic graph that only its request's end stops (no row
        // bound, a minute's time limit), so every read sent meanwhile meets a taken slot and no queue, however the
        // machine schedules them.
        await using var server = await RunningResultsServer.StartAsync(configure: o => o with
        {
            MaxConcurrentReads = 1, MaxQueuedReads = 0, MaxAncestorRows = int.MaxValue, AncestorSearchTimeout = TimeSpan.FromMinutes(1),
        });
        await ResultsServerReadApiTests.UploadAsync(server, "a0", measured: 100);
        await ResultsServerAncestryBoundsTests.StoreDenseCycleAsync(server);
        using var holding = CancellationTokenSource.CreateLinkedTokenSource(Cancellation);
        var walk = server.Http.GetAsync($"api/projects/{RunningResultsServer.Project}/runs?commit=g5", holding.Token);
        await UntilAsync(HttpStatusCode.ServiceUnavailable);

        var reads = Enumerable.Range(0, 40).Select(_ => server.Http.GetAsync(BudgetPage, Cancellation)).ToList();
        var uploads = Enumerable.Range(1, 5).Select(i => server.UploadAsync(RunningResultsServer.UploadBody($"a{i}").ToJsonString())).ToList();
        var answers = await Task.WhenAll(reads);
        var uploaded = await Task.WhenAll(uploads);
        await holding.CancelAsync();
        var ended = async () => (await walk).Dispose();
        await ended.Should().ThrowAsync<OperationCanceledException>();

        answers.Select(a => a.StatusCode).Should().AllBeEquivalentTo(HttpStatusCode.ServiceUnavailable, "40 reads at once meet a taken slot and no queue");
        answers[0].Headers.RetryAfter!.Delta.Should().Be(TimeSpan.FromSeconds(1));
        uploaded.Select(u => u.StatusCode).Should().AllBeEquivalentTo(HttpStatusCode.Created);
        // The walk ended with its request, and with it the slot's hold.
        await UntilAsync(HttpStatusCode.OK);
        foreach (var answer in answers.Concat(uploaded))
        {
            answer.Dispose();
        }

        // Reads the budget page until it answers status (the slot taken: 503; free: 200), for up to a minute.
        async Task UntilAsync(HttpStatusCode status)
        {
            var deadline = DateTime.UtcNow.AddMinutes(1);
            while (true)
            {
                using var probe = await server.Http.GetAsync(BudgetPage, Cancellation);
                if (probe.StatusCode == status || DateTime.UtcNow > deadline)
                {
                    probe.StatusCode.Should().Be(status);
                    return;
                }

                await Task.Delay(10, Cancellation);
            }
        }
    }
}
