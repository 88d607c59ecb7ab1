using System.Net;
using System.Text.Json.Nodes;
using PerfBudgets.Server.Upload;

namespace PerfBudgets.Server.Tests.Upload;

/// <summary>
/// Upload bodies held at once stay under <see cref="ResultsServerOptions.MaxUploadBytesInFlight"/>: concurrent large
/// uploads wait their turn and are all stored; one that finds no room in time is 503 with <c>Retry-After</c>.
/// </summary>
public sealed class UploadMemoryGateTests
{
    private const long InFlight = 4 * 1024 * 1024;

    [Fact]
    public async Task Six_concurrent_large_uploads_are_held_within_the_bound_and_all_stored()
    {
        await using var server = await RunningResultsServer.StartAsync(configure: o => o with { MaxUploadBytesInFlight = InFlight });
        var bodies = Enumerable.Range(0, 6).Select(i => LargeBody($"big{i}", 3 * 1024 * 1024)).ToList();

        var answers = await Task.WhenAll(bodies.Select(async body =>
        {
            using var answer = await server.UploadAsync(body);
            return answer.StatusCode;
        }));

        answers.Should().AllSatisfy(status => status.Should().Be(HttpStatusCode.Created));
        (await server.CountAsync()).Runs.Should().Be(6);
        // Each reserves its Content-Length (about 3 MB): never two at once under 4 MiB.
        server.Server.Uploads.PeakBytes.Should().BeGreaterThan(3 * 1024 * 1024).And.BeLessThanOrEqualTo(InFlight);
    }

    [Fact]
    public async Task An_upload_that_finds_no_room_in_time_is_503_with_retry_after()
    {
        await using var server = await RunningResultsServer.StartAsync(configure: o => o with { MaxUploadBytesInFlight = InFlight, UploadMemoryWait = TimeSpan.FromMilliseconds(200) });
        using var held = await server.Server.Uploads.ReserveAsync(InFlight, TimeSpan.FromSeconds(1), TestContext.Current.CancellationToken);

        using var answer = await server.UploadAsync(RunningResultsServer.UploadBody("a1").ToJsonString());

        answer.StatusCode.Should().Be(HttpStatusCode.ServiceUnavailable);
        answer.Headers.RetryAfter.Should().NotBeNull();
        (await ResultsServerUploadTests.ProblemDetail(answer)).Should().Contain("MaxUploadBytesInFlight");
    }

    [Fact]
    public async Task Waiters_are_let_in_oldest_first_as_room_is_given_back()
    {
        var gate = new UploadMemoryGate(10);
        var first = await gate.ReserveAsync(8, TimeSpan.Zero, TestContext.Current.CancellationToken);
        var large = gate.ReserveAsync(6, TimeSpan.FromSeconds(10), TestContext.Current.CancellationToken);
        var small = gate.ReserveAsync(1, TimeSpan.FromSeconds(10), TestContext.Current.CancellationToken);

        // The small one would fit now, but waits behind the large one.
        small.IsCompleted.Should().BeFalse();
        first!.Dispose();
        (await large).Should().NotBeNull();
        (await small).Should().NotBeNull();
        gate.PeakBytes.Should().Be(8);
        (await gate.ReserveAsync(5, TimeSpan.FromMilliseconds(50), TestContext.Current.CancellationToken)).Should().BeNull("7 of 10 are held");
    }

    // A well-formed upload of about `bytes`, nearly all of it a budget's detail.
    private static string LargeBody(string commit, int bytes)
    {
        var results = JsonNode.Parse(RunningResultsServer.ResultsJson(budgets: 2))!;
        results["results"]![0]!["detail"] = new string('d', bytes);
        return RunningResultsServer.UploadBody(commit, resultsJson: results.ToJsonString()).ToJsonString();
    }
}
