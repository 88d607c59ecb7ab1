using System.Text.Json;
using PerfBudgets.Budgets;

namespace PerfBudgets.Reporting.Storage;

/// <summary>
/// The figures of an earlier run (its <c>results.json</c>) that this run is compared with: <c>PERF_BASELINE</c> names
/// the file, <c>PERF_BASELINE_STRICT=1</c> turns a change worse than the noise threshold into a failure.
/// </summary>
public sealed class BaselineResults
{
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
    public static BaselineResults Load(string path) =>
        Load(path, $"{HarnessEnvironment.BaselineVariable}: baseline", "Point it at the results.json of an earlier run, or unset it.");

    /// <summary>
    /// Reads <paramref name="path"/> as the results of a run named <paramref name="role"/> in error messages (for
    /// example <c>base</c>, for a comparison asked for on a command line); throws as <see cref="Load(string)"/> does.
    /// </summary>
    public static BaselineResults Load(string path, string role) =>
        Load(path, role, "Give the results.json of a run.");

    private static BaselineResults Load(string path, string role, string missingHint)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(path);
        ArgumentException.ThrowIfNullOrWhiteSpace(role);
        var full = Path.GetFullPath(path);
        if (!File.Exists(full))
        {
            throw new BaselineFileException($"{role} '{full}' does not exist. {missingHint}");
        }

        IReadOnlyList<BudgetResult> results;
        try
        {
            results = ResultStore.Parse(File.ReadAllText(full));
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or JsonException or NotSupportedException)
        {
            throw new BaselineFileException($"{role} '{full}' cannot be read as a results.json: {e.Message}", e);
        }

        if (results.Count == 0)
        {
            throw new BaselineFileException($"{role} '{full}' holds no results; was its run interrupted?");
        }

        var byName = new Dictionary<string, BudgetResult>(StringComparer.Ordinal);
        foreach (var r in results)
        {
            byName[r.Budget] = r;
        }

        return new BaselineResults(full, byName);
    }
}
