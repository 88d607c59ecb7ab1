using Microsoft.Extensions.DependencyInjection;
using SystemUnderTest.Sockets.Echo;

namespace Correctness.Sockets.Echo;

public sealed class EchoServerHostingTests
{
    [Fact]
    public async Task The_app_runs_the_echo_service_when_enabled()
    {
        await using var app = AppFactory.Create(new Dictionary<string, string?> { ["EchoServer:Enabled"] = "true", ["EchoServer:Port"] = "0" });
        var server = app.Services.GetRequiredService<EchoServerHost>().Server;

        server.Should().NotBeNull();
        using var client = await EchoClient.ConnectAsync(server!.EndPoint, 1_000, TestContext.Current.CancellationToken);
        await client.EchoAsync(TestContext.Current.CancellationToken);
        // The counter moves once the echo's send has completed, which can be just after the client has it.
        (await EchoServerFixture.EventuallyAsync(() => server.Counters.FramesEchoed == 1)).Should().BeTrue($"1 frame was echoed (counter at {server.Counters.FramesEchoed})");
    }

    [Fact]
    public async Task The_echo_service_is_off_by_default()
    {
        await using var app = AppFactory.Create();

        app.Services.GetRequiredService<EchoServerHost>().Server.Should().BeNull();
    }

    [Fact]
    public async Task Bad_echo_settings_stop_the_app_from_starting()
    {
        await using var app = AppFactory.Create(new Dictionary<string, string?> { ["EchoServer:MaxFrameBytes"] = "-5" });

        var start = () => app.Services;

        start.Should().Throw<Microsoft.Extensions.Options.OptionsValidationException>().WithMessage("*MaxFrameBytes*");
    }
}
