using System.Net;
using System.Net.Http.Json;
using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.Testing;

namespace Correctness.Api;

public sealed class DelayControllerTests(WebApplicationFactory<Program> factory) : IClassFixture<WebApplicationFactory<Program>>
{
    public static TheoryData<string> Endpoints => new() { "async", "blocking" };

    // Every bad `ms`: out of range, not a number, past Int32, empty, repeated with a bad value.
    public static TheoryData<string, string> BadQueries => new()
    {
        { "async", "?ms=-1" },
        { "async", "?ms=10001" },
        { "async", "?ms=abc" },
        { "async", "?ms=1.5" },
        { "async", "?ms=99999999999999999999" },
        { "async", "?ms=" },
        { "async", "" },
        { "async", "?milliseconds=5" },
        { "blocking", "?ms=-1" },
        { "blocking", "?ms=10001" },
        { "blocking", "?ms=abc" },
        { "blocking", "?ms=99999999999999999999" },
        { "blocking", "" },
    };

    [Theory]
    [MemberData(nameof(Endpoints))]
    public async Task Answers_hello_world_with_the_delay_as_text(string endpoint)
    {
        using var client = factory.CreateClient();

        using var response = await client.GetAsync($"/api/delay/{endpoint}?ms=7", TestContext.Current.CancellationToken);

        response.StatusCode.Should().Be(HttpStatusCode.OK);
        response.Content.Headers.ContentType!.MediaType.Should().Be("text/plain");
        (await response.Content.ReadAsStringAsync(TestContext.Current.CancellationToken)).Should().Be("Hello World,7");
    }

    [Theory]
    [MemberData(nameof(Endpoints))]
    public async Task Accepts_both_ends_of_the_range(string endpoint)
    {
        using var client = factory.CreateClient();

        var zero = await client.GetStringAsync($"/api/delay/{endpoint}?ms=0", TestContext.Current.CancellationToken);

        zero.Should().Be("Hello World,0");
    }

    [Theory]
    [MemberData(nameof(Endpoints))]
    public async Task Waits_at_least_the_requested_time(string endpoint)
    {
        using var client = factory.CreateClient();
        var started = System.Diagnostics.Stopwatch.StartNew();

        await client.GetStringAsync($"/api/delay/{endpoint}?ms=150", TestContext.Current.CancellationToken);

        started.Elapsed.Should().BeGreaterThanOrEqualTo(TimeSpan.FromMilliseconds(140));
    }

    [Theory]
    [MemberData(nameof(BadQueries))]
    public async Task Bad_ms_answers_400_with_problem_details(string endpoint, string query)
    {
        using var client = factory.CreateClient();

        using var response = await client.GetAsync($"/api/delay/{endpoint}{query}", TestContext.Current.CancellationToken);

        response.StatusCode.Should().Be(HttpStatusCode.BadRequest);
        response.Content.Headers.ContentType!.MediaType.Should().Be("application/problem+json");
        var problem = await response.Content.ReadFromJsonAsync<ValidationProblemDetails>(TestContext.Current.CancellationToken);
        problem!.Status.Should().Be(400);
        problem.Errors.Should().ContainKey("ms");
    }

    [Fact]
    public async Task The_maximum_delay_is_a_setting()
    {
        using var custom = factory.WithWebHostBuilder(b => b.UseSetting("DelayApi:MaxDelayMilliseconds", "50"));
        using var client = custom.CreateClient();

        using var over = await client.GetAsync("/api/delay/async?ms=51", TestContext.Current.CancellationToken);
        var atLimit = await client.GetStringAsync("/api/delay/async?ms=50", TestContext.Current.CancellationToken);

        over.StatusCode.Should().Be(HttpStatusCode.BadRequest);
        atLimit.Should().Be("Hello World,50");
    }

    [Fact]
    public async Task Health_answers_healthy()
    {
        using var client = factory.CreateClient();

        var health = await client.GetStringAsync("/health", TestContext.Current.CancellationToken);

        health.Should().Be("Healthy");
    }
}
