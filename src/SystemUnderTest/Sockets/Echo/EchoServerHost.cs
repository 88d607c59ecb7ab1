using Microsoft.Extensions.Options;

namespace SystemUnderTest.Sockets.Echo;

/// <summary>Runs the <see cref="EchoServer"/> with the app when <see cref="EchoServerOptions.Enabled"/> is set.</summary>
internal sealed class EchoServerHost(IOptions<EchoServerOptions> options, ILogger<EchoServer> logger) : IHostedService, IAsyncDisposable
{
    /// <summary>The running service, or null when it is disabled or not started yet.</summary>
    public EchoServer? Server { get; private set; }

    /// <inheritdoc />
    public Task StartAsync(CancellationToken cancellationToken)
    {
        if (options.Value.Enabled)
        {
            Server = new EchoServer(options.Value, logger);
            Server.Start();
        }

        return Task.CompletedTask;
    }

    /// <inheritdoc />
    public Task StopAsync(CancellationToken cancellationToken) => Server?.StopAsync(cancellationToken) ?? Task.CompletedTask;

    /// <inheritdoc />
    public async ValueTask DisposeAsync()
    {
        if (Server != null)
        {
            await Server.DisposeAsync();
        }
    }
}
