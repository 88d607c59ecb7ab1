using System.Text.Json;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Reporting;

namespace PerfGate.Build.Docs;

/// <summary>What <see cref="DocTables"/> fills tables from: one run's results and, when it exists, the history beside them.</summary>
internal sealed class DocTableData
{
    private readonly Dictionary<string, BudgetResult> _results;
    private readonly ILookup<string, HistoryEntry> _history;

    /// <summary>Creates the data from results and history entries (oldest first); <paramref name="history"/> null when there is no history file.</summary>
    public DocTableData(IReadOnlyList<BudgetResult> results, IReadOnlyList<HistoryEntry>? history)
    {
        ArgumentNullException.ThrowIfNull(results);
        Results = results;
        HasHistory = history is not null;
        _results = new Dictionary<string, BudgetResult>(StringComparer.Ordinal);
        foreach (var result in results)
        {
            _results[result.Budget] = result;
        }

        var entries = (IReadOnlyList<HistoryEntry>?)history ?? [];
        _history = entries.Where(h => h.Verdict is not BudgetVerdict.NotMeasured).ToLookup(h => h.Budget, StringComparer.Ordinal);
        BudgetNames = _results.Keys.Concat(_history.Select(g => g.Key)).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal).ToList();
    }

    /// <summary>The results of the run.</summary>
    public IReadOnlyList<BudgetResult> Results { get; }

    /// <summary>True when a history was given (a <c>history.jsonl</c> beside <c>results.json</c>).</summary>
    public bool HasHistory { get; }

    /// <summary>Every budget name in the results or the history, sorted ordinally.</summary>
    public IReadOnlyList<string> BudgetNames { get; }

    /// <summary>Reads <c>results.json</c> and, when it exists, <c>history.jsonl</c> from <paramref name="resultsDirectory"/>.</summary>
    /// <exception cref="FileNotFoundException">There is no <c>results.json</c>.</exception>
    /// <exception cref="DocTablesException"><c>results.json</c> is not a results file.</exception>
    public static DocTableData Load(string resultsDirectory)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(resultsDirectory);
        var resultsPath = Path.Combine(resultsDirectory, "results.json");
        if (!File.Exists(resultsPath))
        {
            throw new FileNotFoundException($"No results.json in {Path.GetFullPath(resultsDirectory)}: run the budgets first (dotnet test).", resultsPath);
        }

        IReadOnlyList<BudgetResult> results;
        try
        {
            results = ResultStore.Parse(File.ReadAllText(resultsPath));
        }
        catch (JsonException e)
        {
            throw new DocTablesException($"{resultsPath}: not a results file ({e.Message})", e);
        }

        var historyPath = Path.Combine(resultsDirectory, "history.jsonl");
        return new DocTableData(results, File.Exists(historyPath) ? ResultStore.ReadHistory(historyPath, out _) : null);
    }

    /// <summary>The row of one budget: from the results, else from its latest history entry.</summary>
    internal DocTables.Row RowOf(string budget)
    {
        var all = _history[budget].ToList();
        var latest = all.Count > 0 ? all[^1] : null;
        if (_results.TryGetValue(budget, out var result))
        {
            // Runs against another limit measured another recording (a counted budget re-recorded) or another
            // policy, so the history columns cover the runs since the current limit was set.
            var runs = HistoryEntry.LastPerRun(all.Where(h => h.Profile == result.Profile && h.Limit == result.Limit));
            return new DocTables.Row(budget, result.Kind, result.Measured, result.Limit, result.Unit, result.Verdict, result, latest, runs);
        }

        if (latest is null)
        {
            throw new InvalidOperationException($"'{budget}' is in neither the results nor the history");
        }

        return new DocTables.Row(budget, latest.Kind, latest.Measured, latest.Limit, latest.Unit, latest.Verdict, null, latest,
            HistoryEntry.LastPerRun(all.Where(h => h.Profile == latest.Profile && h.Limit == latest.Limit)));
    }
}
