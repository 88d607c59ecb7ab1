using System.Globalization;
using PerfBudgets;

namespace Load;

/// <summary>
/// The system under test in a process of its own with a fixed thread pool (minimum = maximum =
/// <c>Load.FixedPool.Threads</c> worker threads, the runtime's <c>ThreadPool_ForceMinWorkerThreads</c> and
/// <c>ThreadPool_ForceMaxWorkerThreads</c>), with the echo service on. Started on first use and shared by the suite's
/// blocking and open-model tests.
/// </summary>
/// <remarks>
/// A pool that cannot grow turns a blocked thread into lost capacity at once: with two threads, a millisecond's sleep
/// per request caps the server near 2,000 requests per second on any machine, so an open-model run above that rate
/// fails every attempt, not only a first one before the pool has grown. The blocking budgets read the same process
/// over its diagnostics port (<see cref="PerfBudgets.Measuring.BlockingMeter"/>).
/// </remarks>
public sealed class FixedPoolServer : IAsyncDisposable
{
    private readonly SemaphoreSlim _starting = new(1, 1);
    private AppProcess? _server;

    /// <summary>The server, started on the first call.</summary>
    public async Task<AppProcess> GetAsync(CancellationToken cancellationToken)
    {
        await _starting.WaitAsync(cancellationToken);
        try
        {
            if (_server is null)
            {
                var threads = SuiteGate.Current.Book.IntParameter("Load.FixedPool.Threads").ToString(CultureInfo.InvariantCulture);
                _server = await AppProcess.StartAsync(TimeSpan.FromSeconds(60), cancellationToken, withEchoService: true, environment: new Dictionary<string, string>
                {
                    ["DOTNET_ThreadPool_ForceMinWorkerThreads"] = threads,
                    ["DOTNET_ThreadPool_ForceMaxWorkerThreads"] = threads,
                });
            }

            return _server;
        }
        finally
        {
            _starting.Release();
        }
    }

    /// <summary>
    /// Where load goes: the server <c>LOAD_TARGET_URL</c> names, else this one. A pool that cannot grow makes a blocked
    /// thread lost capacity in every attempt, so a rate or efficiency does not depend on how fast the pool grew.
    /// </summary>
    public async Task<Uri> TargetAsync(CancellationToken cancellationToken) =>
        LoadTarget.ExternalBaseAddress ?? (await GetAsync(cancellationToken)).BaseAddress;

    /// <inheritdoc />
    public ValueTask DisposeAsync()
    {
        _server?.Dispose();
        _starting.Dispose();
        return ValueTask.CompletedTask;
    }
}
