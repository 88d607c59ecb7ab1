using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using PerfBudgets;
using PerfBudgets.Load;
using PerfBudgets.Measuring;
using Xunit;

// xunit v3 4.x: one test at a time (CollectionBehavior's DisableTestParallelization is obsolete there, an error).
[assembly: Xunit.v3.Parallelization(Mode = Xunit.Sdk.ParallelMode.None)]

namespace PackageConsumer;

public static class Greeting
{
    public static string Format(string name)
    {
#if EXTRA_ALLOCATION
        Sink = new byte[256];
#endif
        return string.Create(name.Length + 8, name, static (span, n) =>
        {
            "Hello, ".CopyTo(span);
            n.CopyTo(span[7..]);
            span[^1] = '!';
        });
    }

#if EXTRA_ALLOCATION
    public static byte[]? Sink { get; private set; }
#endif
}

public sealed class GreetingTests
{
    [Fact]
    public void Greeting_Format_allocates_only_its_string()
    {
        var measured = AllocationMeter.PerOperation(() => Greeting.Format("Ada"), operations: 10_000);

        Assert.Equal("Hello, Ada!", Greeting.Format("Ada"));
        BudgetGate.Default.Check("Consumer.Greeting.Format.BytesPerOp", measured.BytesPerOperation, measured.ToString());
    }

    [Fact]
    public async Task Greeting_endpoint_under_load()
    {
        var (app, address) = await StartGreetingAppAsync();
        await using var _ = app;

        using var client = new HttpClient { BaseAddress = address };
        var gate = BudgetGate.Default;
        var result = await LoadRunner.RunAsync(new LoadScenario(
            "greeting",
            Copies: 4,
            WarmUp: TimeSpan.FromSeconds(1),
            Duration: TimeSpan.FromSeconds(gate.Book.Parameter("Consumer.Load.DurationSeconds")),
            Step: async (_, ct) => await client.GetStringAsync("/greeting", ct) == "Hello, Ada!"), TestContext.Current.CancellationToken);

        Assert.True(result.Completed > 0, result.ToString());
        gate.CheckAll(
            new BudgetCheck("Consumer.Greeting.Endpoint.P99Ms", result.P99Ms, result.ToString()),
            new BudgetCheck("Consumer.Greeting.Endpoint.FailedRequests", result.Failed));
        await app.StopAsync(TestContext.Current.CancellationToken);
    }

    [Fact]
    public async Task Greeting_response_size_on_the_wire()
    {
        var (app, serverAddress) = await StartGreetingAppAsync();
        await using var _ = app;
        var cancellationToken = TestContext.Current.CancellationToken;

        var size = await ResponseSizeMeter.MeasureAsync(new Uri(serverAddress, "greeting"), cancellationToken);
        BudgetGate.Default.CheckAll(
            new BudgetCheck("Consumer.Greeting.Endpoint.ResponseHeaderBytes", size.HeaderBytes, size.ToString()),
            new BudgetCheck("Consumer.Greeting.Endpoint.ResponseBodyBytes", size.BodyBytes, size.ToString()));

        Assert.Equal(200, size.StatusCode);
        Assert.Contains("Date", size.HeaderNames);
        await app.StopAsync(TestContext.Current.CancellationToken);
    }

    // GET /greeting on a minimal API in this process, on a free loopback port.
    private static async Task<(WebApplication App, Uri Address)> StartGreetingAppAsync()
    {
        var builder = WebApplication.CreateSlimBuilder();
        builder.Logging.ClearProviders();
        builder.WebHost.ConfigureKestrel(k => k.Listen(IPAddress.Loopback, 0));
        var app = builder.Build();
        app.MapGet("/greeting", () => Greeting.Format("Ada"));
        await app.StartAsync(TestContext.Current.CancellationToken);
        return (app, new Uri(app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses.Single()));
    }
}
