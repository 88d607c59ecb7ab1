using System.Text.Json;
using PerfBudgets.Budgets;

namespace PerfBudgets.Reporting.Storage;

/// <summary>
/// The figures of an earlier run (its <c>results.json</c>) that this run is compared with: <c>PERF_BASELINE</c> names
/// the file, <c>PERF_BASELINE_STRICT=1</c> turns a change worse than the noise threshold into a failure.
/// </summary>
public sealed class BaselineResults
{
    /// <summary>Environment variable naming the baseline <c>results.json</c>.</summary>
    public const string EnvironmentVariable = HarnessEnvironment.BaselineVariable;

    /// <summary>Environment variable that, set to <c>1</c> or <c>true</c>, fails a budget that is worse than the baseline beyond its noise.</summary>
    public const string StrictEnvironmentVariable = HarnessEnvironment.BaselineStrictVariable;

    private readonly Dictionary<string, BudgetResult> _results;

    private BaselineResults(string path, Dictionary<string, BudgetResult> results)
    {
        FilePath = path;
        _results = results;
    }

    /// <summary>The baseline file.</summary>
    public string FilePath { get; }

    /// <summary>Every result of the baseline run, by budget name.</summary>
    public IReadOnlyDictionary<string, BudgetResult> Results => _results;

    /// <summary>What the baseline measured for <paramref name="budget"/>, or null when it has no such figure.</summary>
    public double? Figure(string budget) => _results.TryGetValue(budget, out var r) ? r.Measured : null;

    /// <summary>Reads <paramref name="path"/>; a missing, unreadable, malformed or empty file throws <see cref="BaselineFileException"/>.</summary>
    public static BaselineResults Load(string path)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        var full = Path.GetFullPath(path);
        if (!File.Exists(full))
        {
            throw new BaselineFileException($"{EnvironmentVariable}: baseline '{full}' does not exist. Point it at the results.json of an earlier run, or unset it.");
        }

        IReadOnlyList<BudgetResult> results;
        try
        {
            results = ResultStore.Parse(File.ReadAllText(full));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or JsonException or NotSupportedException)
        {
            throw new BaselineFileException($"{EnvironmentVariable}: baseline '{full}' cannot be read as a results.json: {e.Message}", e);
        }

        if (results.Count == 0)
        {
            throw new BaselineFileException($"{EnvironmentVariable}: baseline '{full}' holds no results; was its run interrupted?");
        }

        var byName = new Dictionary<string, BudgetResult>(StringComparer.Ordinal);
        foreach (var r in results)
        {
            byName[r.Budget] = r;
        }

        return new BaselineResults(full, byName);
    }
}
