using PerfBudgets.Load;
using PerfBudgets.Reporting.Storage;

namespace PerfBudgets.Reporting.Exporters;

/// <summary>
/// The one model every exporter renders: a run's budget results (each with the machine it was measured on), and what a
/// report of the results folder adds to them, the load runs and the history.
/// </summary>
/// <param name="Results">The budget results, in any order (each exporter orders them).</param>
/// <param name="Run">The run they were recorded under, or null when they were read back from a folder several runs wrote.</param>
public sealed record RunResults(IReadOnlyList<BudgetResult> Results, RunIdentity? Run = null)
{
    /// <summary>The load runs of the <c>loads</c> array of <c>results.json</c>; empty unless read from a folder.</summary>
    public IReadOnlyList<LoadResult> Loads { get; init; } = [];

    /// <summary>Every line of <c>history.jsonl</c>, oldest first; empty unless read from a folder.</summary>
    public IReadOnlyList<HistoryEntry> History { get; init; } = [];

    /// <summary>What could not be read and is left out (an unreadable load entry, a torn history line), one sentence each.</summary>
    public IReadOnlyList<string> Notes { get; init; } = [];

    /// <summary>
    /// Everything <paramref name="store"/>'s folder holds: <c>results.json</c> (results and loads) and
    /// <c>history.jsonl</c>, with a note for each part that could not be read.
    /// </summary>
    public static RunResults Read(ResultStore store)
    {
        ArgumentNullException.ThrowIfNull(store);
        var results = ResultStore.ReadAll(store.ResultsPath);
        var loads = ResultStore.ReadLoads(store.ResultsPath, out var skippedLoads);
        var history = ResultStore.ReadHistory(store.HistoryPath, out var skippedHistory);
        var notes = new List<string>();
        if (skippedLoads > 0)
        {
            notes.Add($"{skippedLoads} entries of 'loads' in results.json could not be read and are left out.");
        }

        if (skippedHistory > 0)
        {
            notes.Add($"{skippedHistory} lines of history.jsonl could not be read and are left out.");
        }

        return new RunResults(results) { Loads = loads, History = history, Notes = notes };
    }
}
