using System.Net;
using PerfBudgets.Tool.ResultsClient;

namespace PerfBudgets.Tool.Tests.ResultsClient;

/// <summary>
/// What the client calls "cannot be reached" (<c>perfbudgets counts pull</c> warns and lets the gate count) against a
/// refusal the server answered (which fails the job): a refused connection and a timeout on every attempt are the
/// first, a 403 the second.
/// </summary>
public sealed class ResultsServerClientReachTests
{
    private static readonly Uri Server = new("http://results.invalid/");

    [Fact]
    public async Task A_refused_connection_on_every_attempt_could_not_reach_the_server()
    {
        var handler = new Answering(_ => throw new HttpRequestException("Connection refused"));

        var thrown = await Thrown(handler);

        handler.Requests.Should().Be(ResultsServerClient.UploadAttempts);
        ResultsServerClient.CouldNotReach(thrown, TestContext.Current.CancellationToken).Should().BeTrue();
        thrown.Message.Should().Contain("cannot be reached");
    }

    [Fact]
    public async Task A_timeout_on_every_attempt_could_not_reach_the_server()
    {
        // HttpClient ends a request past its Timeout with a TaskCanceledException, the caller's token untouched.
        var handler = new Answering(_ => throw new TaskCanceledException("The request was canceled due to the configured HttpClient.Timeout of 100 seconds elapsing."));

        var thrown = await Thrown(handler);

        handler.Requests.Should().Be(ResultsServerClient.UploadAttempts);
        ResultsServerClient.CouldNotReach(thrown, TestContext.Current.CancellationToken).Should().BeTrue();
    }

    [Fact]
    public async Task A_refusal_the_server_answered_reached_it()
    {
        var handler = new Answering(_ => new HttpResponseMessage(HttpStatusCode.Forbidden) { Content = new StringContent("""{ "detail": "wrong token" }""") });

        var thrown = await Thrown(handler);

        handler.Requests.Should().Be(1);
        ResultsServerClient.CouldNotReach(thrown, TestContext.Current.CancellationToken).Should().BeFalse();
        thrown.Message.Should().Contain("403");
    }

    private static async Task<ToolInputException> Thrown(Answering handler)
    {
        using var client = new ResultsServerClient(Server, handler, TimeSpan.Zero);
        var list = () => client.StoredCountsAsync("gate", token: null, TestContext.Current.CancellationToken);
        return (await list.Should().ThrowAsync<ToolInputException>()).Which;
    }

    // Answers every request with `answer`, counting them.
    private sealed class Answering(Func<HttpRequestMessage, HttpResponseMessage> answer) : HttpMessageHandler
    {
        public int Requests { get; private set; }

        protected override Task<HttpResponseMessage> SendAsync(HttpRequestMessage request, CancellationToken cancellationToken)
        {
            Requests++;
            return Task.FromResult(answer(request));
        }
    }
}
