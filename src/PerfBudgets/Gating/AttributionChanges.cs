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
    private const string Bytes = "B/op";

    private readonly BaselineResults? _baseline;

    // Read once, on the first failure that needs them: a passing run never opens the file.
    private readonly Lazy<Dictionary<string, IReadOnlyList<AttributionEntry>>> _recordedMethods;
    private readonly Lazy<Dictionary<string, IReadOnlyList<AttributionEntry>>> _recordedOwnCode;

    public AttributionChanges(BudgetBook book, BaselineResults? baseline)
    {
        _baseline = baseline;
        var path = Path.Combine(Path.GetDirectoryName(Path.GetFullPath(book.FilePath)) ?? ".", RecordedMethodsFile.FileName);
        _recordedMethods = new(() => RecordedMethodsFile.Read(path));
        _recordedOwnCode = new(() => RecordedMethodsFile.ReadOwnCode(path));
    }

    private static string RecordingLabel => $"the recording ({RecordedMethodsFile.FileName})";

    /// <summary>
    /// <paramref name="attribution"/> with what grew: for an allocation profile, the program's methods and the types whose
    /// bytes grew since the recorded profile (<see cref="RecordedMethodsFile"/>, recorded from a run with
    /// <c>PERF_DIAGNOSE=always</c>); then the types that changed since the baseline's breakdown of
    /// <paramref name="budget"/> (<see cref="AttributionChange"/>), when there is a baseline and something changed.
    /// </summary>
    public Attribution SinceReferences(Budget budget, Attribution attribution)
    {
        var changes = new List<string>();
        if (SinceRecordedProfile(budget, attribution) is { } sinceRecording)
        {
            changes.Add(sinceRecording);
        }

        if (_baseline is not null
            && AttributionChange.Describe(attribution, _baseline.Results.GetValueOrDefault(budget.Name)?.Attribution, _baseline.FilePath) is { } change)
        {
            changes.Add(change);
        }

        return changes.Count == 0 ? attribution : attribution with { Change = string.Join(Environment.NewLine + "  ", changes) };
    }

    /// <summary>
    /// A counted breakdown with the methods that grew since the recording and since the baseline run, if any: the
    /// program's own methods first, each with what it called and its share of the figure's growth, when the reference
    /// kept them (else with <paramref name="inclusive"/>, this run's fold, in this run's shares).
    /// </summary>
    public Attribution CountedGrowth(Budget budget, double measured, Attribution attribution, InclusiveAttribution? inclusive)
    {
        var changes = new List<string>();
        if (_recordedMethods.Value.GetValueOrDefault(budget.RecordedMethodsKey) is { } recorded
            && CountAttribution.Grown(attribution, recorded, RecordingLabel, inclusive,
                _recordedOwnCode.Value.GetValueOrDefault(budget.RecordedMethodsKey), measured - budget.Recorded) is { } sinceRecording)
        {
            changes.Add(sinceRecording);
        }

        if (_baseline?.Results.GetValueOrDefault(budget.Name) is { Attribution: { } baseline } baselineResult
            && CountAttribution.Grown(attribution, baseline.Entries, $"the baseline ({Path.GetFileName(_baseline.FilePath)})", inclusive,
                baseline.OwnCode, measured - baselineResult.Measured) is { } sinceBaseline)
        {
            changes.Add(sinceBaseline);
        }

        return attribution with { Change = changes.Count == 0 ? null : string.Join(Environment.NewLine + "  ", changes) };
    }

    // An allocation profile against the one recorded for the budget: the methods whose bytes grew beyond their sampling
    // error, with their share of the profile's growth, then the types.
    private string? SinceRecordedProfile(Budget budget, Attribution attribution)
    {
        if (budget.Kind != BudgetKind.AllocatedBytesPerOp
            || attribution.Entries.FirstOrDefault()?.Unit != Bytes
            || !_recordedMethods.Value.TryGetValue(budget.RecordedMethodsKey, out var types))
        {
            return null; // not an allocation profile, or none recorded (one that sampled nothing is recorded empty)
        }

        var grewBy = attribution.Entries.Sum(e => e.Value) - types.Sum(e => e.Value);
        var lines = new List<string>();
        if (OwnCodeGrowth.Describe(attribution.OwnCode, _recordedOwnCode.Value.GetValueOrDefault(budget.RecordedMethodsKey) ?? [], grewBy, RecordingLabel, least: 1, keptAtMost: int.MaxValue) is { } methods)
        {
            lines.Add(methods);
        }

        if (OwnCodeGrowth.Describe(attribution.Entries, types, grewBy, RecordingLabel, least: 1, keptAtMost: int.MaxValue, what: "by type") is { } byType)
        {
            lines.Add(byType);
        }

        return lines.Count == 0 ? null : string.Join(Environment.NewLine + "  ", lines);
    }
}
