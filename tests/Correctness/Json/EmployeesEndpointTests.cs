using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using Microsoft.Extensions.DependencyInjection;
using SystemUnderTest.Json;

namespace Correctness.Json;

public sealed class EmployeesEndpointTests : IClassFixture<EmployeesEndpointTests.App>
{
    private readonly App _app;

    public EmployeesEndpointTests(App app) => _app = app;

    public static TheoryData<string, string> BadBodies => BadInputTests.BadBodies;

    [Theory]
    [InlineData(1)]
    [InlineData(9)]
    [InlineData(EmployeeData.MaxCount)]
    public async Task Get_answers_the_first_N_employees(int count)
    {
        var ct = TestContext.Current.CancellationToken;
        using var response = await _app.Client.GetAsync($"api/employees?count={count}", ct);

        response.StatusCode.Should().Be(HttpStatusCode.OK);
        response.Content.Headers.ContentType!.MediaType.Should().Be("application/json");
        var body = await response.Content.ReadAsByteArrayAsync(ct);
        response.Content.Headers.ContentLength.Should().Be(body.Length);
        body.Should().Equal(JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(count), EmployeeJson.Default.List.Write));
        (await _app.OutstandingAfterResponseAsync()).Should().Be(0);
    }

    [Theory]
    [InlineData("count=0")]
    [InlineData("count=-1")]
    [InlineData("count=1001")]
    [InlineData("count=abc")]
    [InlineData("count=99999999999")]
    [InlineData("")]
    public async Task Get_with_a_bad_count_answers_400_problem_details(string query)
    {
        var ct = TestContext.Current.CancellationToken;
        using var response = await _app.Client.GetAsync($"api/employees?{query}", ct);

        await ShouldBeProblemAsync(response, "count");
        (await _app.OutstandingAfterResponseAsync()).Should().Be(0);
    }

    [Theory]
    [InlineData(1)]
    [InlineData(9)]
    [InlineData(EmployeeData.MaxCount)]
    public async Task Echo_answers_the_same_employees(int count)
    {
        var ct = TestContext.Current.CancellationToken;
        var json = JsonSerializer.SerializeToUtf8Bytes(EmployeeData.List(count), EmployeeJson.Default.List.Write);
        using var content = new ByteArrayContent(json);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/json");

        using var response = await _app.Client.PostAsync("api/employees/echo", content, ct);

        response.StatusCode.Should().Be(HttpStatusCode.OK);
        (await response.Content.ReadAsByteArrayAsync(ct)).Should().Equal(json);
        (await _app.OutstandingAfterResponseAsync()).Should().Be(0);
    }

    [Theory]
    [MemberData(nameof(BadBodies))]
    public async Task Echo_with_bad_JSON_answers_400_problem_details(string why, string body)
    {
        var ct = TestContext.Current.CancellationToken;
        using var content = new StringContent(body, Encoding.UTF8, "application/json");

        using var response = await _app.Client.PostAsync("api/employees/echo", content, ct);

        await ShouldBeProblemAsync(response, "body", why);
        (await _app.OutstandingAfterResponseAsync()).Should().Be(0, why);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public async Task Echo_with_a_body_over_the_limit_answers_400(bool chunked)
    {
        var ct = TestContext.Current.CancellationToken;
        var limit = _app.Options.MaximumRequestBodyBytes;
        var body = Encoding.UTF8.GetBytes("[" + new string(' ', limit) + "]");
        using HttpContent content = chunked ? new StreamContent(new MemoryStream(body)) : new ByteArrayContent(body);
        content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        if (chunked)
        {
            content.Headers.ContentLength = null;
        }

        using var request = new HttpRequestMessage(HttpMethod.Post, "api/employees/echo") { Content = content };
        request.Headers.TransferEncodingChunked = chunked;
        using var response = await _app.Client.SendAsync(request, ct);

        var problem = await ShouldBeProblemAsync(response, "body");
        problem.Should().Contain("MaximumRequestBodyBytes");
        (await _app.OutstandingAfterResponseAsync()).Should().Be(0);
    }

    private static async Task<string> ShouldBeProblemAsync(HttpResponseMessage response, string field, string because = "")
    {
        var text = await response.Content.ReadAsStringAsync(TestContext.Current.CancellationToken);
        response.StatusCode.Should().Be(HttpStatusCode.BadRequest, because + " " + text);
        response.Content.Headers.ContentType!.MediaType.Should().Be("application/problem+json");
        using var problem = JsonDocument.Parse(text);
        problem.RootElement.GetProperty("status").GetInt32().Should().Be(400);
        problem.RootElement.GetProperty("errors").TryGetProperty(field, out _).Should().BeTrue(text);
        return text;
    }

    /// <summary>One app for the class, with a small body limit so the over-size tests send little.</summary>
    public sealed class App : IDisposable
    {
        private readonly KestrelApp _app = KestrelApp.Start(new Dictionary<string, string?> { ["JsonPools:MaximumRequestBodyBytes"] = "2000000" });

        public App()
        {
            Client = new HttpClient { BaseAddress = _app.BaseAddress };
            Strategies = _app.Services.GetRequiredService<JsonStrategies>();
            Options = _app.Services.GetRequiredService<Microsoft.Extensions.Options.IOptions<JsonPoolOptions>>().Value;
        }

        public HttpClient Client { get; }

        public JsonStrategies Strategies { get; }

        public JsonPoolOptions Options { get; }

        /// <summary>
        /// Rented minus returned once the server's request has finished: the client can read the last byte before
        /// the server's <c>finally</c> runs, so this waits up to two seconds for the count to settle.
        /// </summary>
        public async Task<long> OutstandingAfterResponseAsync()
        {
            var deadline = DateTime.UtcNow.AddSeconds(2);
            while (Strategies.BufferWriter.Counters.Outstanding != 0 && DateTime.UtcNow < deadline)
            {
                await Task.Delay(10, TestContext.Current.CancellationToken);
            }

            return Strategies.BufferWriter.Counters.Outstanding;
        }

        public void Dispose()
        {
            Client.Dispose();
            _app.Dispose();
        }
    }
}
