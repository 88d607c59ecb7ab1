using PerfBudgets.Budgets;
using PerfBudgets.Diagnosing;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;

namespace PerfBudgets.Gating;

/// <summary>
/// What changed in a failing budget's breakdown: since the baseline run's breakdown of it, and for a counted budget,
/// the methods that grew since the recording (<see cref="RecordedMethodsFile.FileName"/> beside <c>budgets.json</c>).
/// </summary>
internal sealed class AttributionChanges
{
    private readonly BaselineResults? _baseline;

    // Read once, on the first counted failure: a passing run never opens the file.
    private readonly Lazy<Dictionary<string, IReadOnlyList<AttributionEntry>>> _recordedMethods;

    public AttributionChanges(BudgetBook book, BaselineResults? baseline)
    {
        _baseline = baseline;
        _recordedMethods = new(() => RecordedMethodsFile.Read(Path.Combine(Path.GetDirectoryName(Path.GetFullPath(book.FilePath)) ?? ".", RecordedMethodsFile.FileName)));
    }

    /// <summary>
    /// <paramref name="attribution"/> with the types that changed since the baseline's breakdown of
    /// <paramref name="budget"/> (<see cref="AttributionChange"/>), when there is a baseline and something changed.
    /// </summary>
    public Attribution SinceBaseline(Budget budget, Attribution attribution) =>
        _baseline is not null
            && AttributionChange.Describe(attribution, _baseline.Results.GetValueOrDefault(budget.Name)?.Attribution, _baseline.FilePath) is { } change
            ? attribution with { Change = change }
            : attribution;

    /// <summary>
    /// A counted breakdown with the methods that grew since the recording and since the baseline run, if any; with
    /// <paramref name="inclusive"/>, the program's own methods first, with what they called folded in.
    /// </summary>
    public Attribution CountedGrowth(Budget budget, Attribution attribution, InclusiveAttribution? inclusive)
    {
        var changes = new List<string>();
        if (_recordedMethods.Value.GetValueOrDefault(budget.RecordedMethodsKey) is { } recorded
            && CountAttribution.Grown(attribution, recorded, $"the recording ({RecordedMethodsFile.FileName})", inclusive) is { } sinceRecording)
        {
            changes.Add(sinceRecording);
        }

        if (_baseline?.Results.GetValueOrDefault(budget.Name)?.Attribution is { } baseline
            && CountAttribution.Grown(attribution, baseline.Entries, $"the baseline ({Path.GetFileName(_baseline.FilePath)})", inclusive) is { } sinceBaseline)
        {
            changes.Add(sinceBaseline);
        }

        return attribution with { Change = changes.Count == 0 ? null : string.Join(Environment.NewLine + "  ", changes) };
    }
}
