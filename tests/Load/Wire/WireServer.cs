namespace Load.Wire;

/// <summary>
/// The system under test in its own process, as it ships (<see cref="AppProcess"/>), for the response-size budgets:
/// started once for the class and stopped after it.
/// </summary>
public sealed class WireServer : IAsyncLifetime
{
    private AppProcess? _app;

    /// <summary>The running server.</summary>
    public AppProcess App => _app ?? throw new InvalidOperationException("The server has not started.");

    /// <inheritdoc />
    public async ValueTask InitializeAsync() =>
        _app = await AppProcess.StartAsync(TimeSpan.FromSeconds(60), TestContext.Current.CancellationToken);

    /// <inheritdoc />
    public ValueTask DisposeAsync()
    {
        _app?.Dispose();
        return ValueTask.CompletedTask;
    }
}
