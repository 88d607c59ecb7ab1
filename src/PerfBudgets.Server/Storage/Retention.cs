using System.Data.Common;
using Microsoft.Extensions.Hosting;

namespace PerfBudgets.Server.Storage;

/// <summary>
/// Deletes old runs as <see cref="ResultsServerOptions.RetainDays"/> and <see cref="ResultsServerOptions.RetainRunsPerBranch"/>
/// say (<see cref="IResultsStorage.PruneAsync"/>): once on start, then every <see cref="ResultsServerOptions.PruneInterval"/>.
/// </summary>
internal sealed class Retention(IResultsStorage storage, ResultsServerOptions options, TimeProvider time) : BackgroundService
{
    /// <summary>Prunes once as <paramref name="options"/> say; returns how many runs were deleted.</summary>
    public static Task<int> PruneAsync(IResultsStorage storage, ResultsServerOptions options, DateTimeOffset now, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(storage);
        ArgumentNullException.ThrowIfNull(options);
        return storage.PruneAsync(options.RetainDays is { } days ? now.AddDays(-days) : null, options.RetainRunsPerBranch, cancellationToken);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(options.PruneInterval, time);
        do
        {
            try
            {
                await PruneAsync(storage, options, time.GetUtcNow(), stoppingToken);
            }
            catch (DbException e)
            {
                // A database that is away for a moment is no reason to stop serving (a BackgroundService's exception
                // stops the host); the next interval tries again.
                await Console.Error.WriteLineAsync($"perfbudgets-server: pruning old runs failed, tried again in {options.PruneInterval}: {e.Message}");
            }
        }
        while (await timer.WaitForNextTickAsync(stoppingToken));
    }
}
