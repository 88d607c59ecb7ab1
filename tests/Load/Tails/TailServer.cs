namespace Load.Tails;

/// <summary>
/// The system under test in its own process with the echo service, as it is configured by default (no fixed pool),
/// for the per-request CPU budgets: started once for the class and stopped after it.
/// </summary>
public sealed class TailServer : IAsyncLifetime
{
    private AppProcess? _app;

    /// <summary>The running server.</summary>
    public AppProcess App => _app ?? throw new InvalidOperationException("The server has not started.");

    /// <inheritdoc />
    public async ValueTask InitializeAsync() =>
        _app = await AppProcess.StartAsync(TimeSpan.FromSeconds(60), TestContext.Current.CancellationToken, withEchoService: true);

    /// <inheritdoc />
    public ValueTask DisposeAsync()
    {
        _app?.Dispose();
        return ValueTask.CompletedTask;
    }
}
