using System.Globalization;
using System.Text;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Tool.ResultsClient;
using static PerfBudgets.Tool.Summary.MarkdownText;

namespace PerfBudgets.Tool.Summary;

/// <summary>
/// The markdown of <c>perfbudgets summary</c>, for a pull request's comment or <c>$GITHUB_STEP_SUMMARY</c>: the
/// failures first, then the largest changes against the base commit's run, the counted budgets with their method
/// deltas where the results carry an attribution, and a warning for each recent change point of a timed budget on
/// the main branch.
/// </summary>
internal static class PullRequestSummary
{
    /// <summary>The heading every summary starts with.</summary>
    public const string Heading = "## Performance budgets";

    // Methods listed per counted budget that moved: the breakdown's top entries are what a reviewer reads first.
    private const int MethodsShown = 5;

    /// <summary>Writes the summary of <paramref name="head"/> (this run's results) against <paramref name="baseline"/>.</summary>
    /// <param name="head">This run's results, in results.json order.</param>
    /// <param name="baseline">What the server held for the base commit.</param>
    /// <param name="baseResults">The base run's results by budget, or null when the server had no run to compare with.</param>
    /// <param name="book">The budget book whose noise thresholds mark a change as worse than noise, or null.</param>
    /// <param name="changes">Change points of the timed budgets on <paramref name="branch"/> within its last <paramref name="lastRuns"/> runs.</param>
    /// <param name="branch">The branch the change points are of (main).</param>
    /// <param name="lastRuns">How many of its latest runs were searched.</param>
    /// <param name="top">How many of the largest changes are listed.</param>
    public static string Render(
        IReadOnlyList<BudgetResult> head,
        BaselineAnswer baseline,
        IReadOnlyDictionary<string, BudgetResult>? baseResults,
        BudgetBook? book,
        IReadOnlyList<ReportedChange> changes,
        string branch,
        int lastRuns,
        int top)
    {
        ArgumentNullException.ThrowIfNull(head);
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(changes);
        var text = new StringBuilder();
        text.AppendLine(Heading).AppendLine();
        Failures(text, head);
        LargestChanges(text, head, baseline, baseResults, book, top);
        Counted(text, head, baseResults);
        ChangePoints(text, changes, branch, lastRuns);
        return text.ToString();
    }

    private static void Failures(StringBuilder text, IReadOnlyList<BudgetResult> head)
    {
        var failed = head.Where(r => r.Verdict == BudgetVerdict.Fail).ToList();
        var gated = head.Count(r => r.Limit is not null);
        var notMeasured = head.Where(r => r.Verdict == BudgetVerdict.NotMeasured).ToList();
        text.AppendLine("### Failures").AppendLine();
        text.AppendLine(failed.Count == 0
            ? $"No budget failed ({gated} gated)."
            : $"**{failed.Count} of {gated} budgets failed.**");
        if (failed.Count > 0)
        {
            text.AppendLine().AppendLine("| Budget | Measured | Limit | Unit | Over by |").AppendLine("|---|---:|---:|---|---:|");
            foreach (var r in failed)
            {
                text.AppendLine(CultureInfo.InvariantCulture,
                    $"| {Text(r.Budget)} | {Figures.Format(r.Measured)} | {Limit(r)} | {Text(r.Unit)} | {(r.Limit is { } l ? Figures.Overshoot(r.Measured, l) : "—")} |");
            }

            foreach (var r in failed.Where(r => r.Attribution is not null))
            {
                text.AppendLine().AppendLine(CultureInfo.InvariantCulture, $"- {Text(r.Budget)}: {Text(r.Attribution!.Summary)}");
            }
        }

        if (notMeasured.Count > 0)
        {
            text.AppendLine().AppendLine(CultureInfo.InvariantCulture,
                $"Not measured: {string.Join(", ", notMeasured.Select(r => r.Detail is { Length: > 0 } why ? $"{Text(r.Budget)} ({MarkdownText.Detail(why)})" : Text(r.Budget)))}.");
        }

        text.AppendLine();
    }

    private static void LargestChanges(StringBuilder text, IReadOnlyList<BudgetResult> head, BaselineAnswer baseline,
        IReadOnlyDictionary<string, BudgetResult>? baseResults, BudgetBook? book, int top)
    {
        text.AppendLine("### Largest changes against the base").AppendLine();
        if (baseResults is null || baseline.ComparedCommit is null)
        {
            text.AppendLine(CultureInfo.InvariantCulture,
                $"The server has no run of base {CommitCode(baseline.Commit)} nor of an ancestor it knows: nothing to compare with.").AppendLine();
            return;
        }

        text.AppendLine(baseline.IsNearestAncestor
            ? $"The server has no run of base {CommitCode(baseline.Commit)}; compared with its nearest ancestor with a run, {CommitCode(baseline.ComparedCommit)}."
            : $"Compared with the run of base {CommitCode(baseline.Commit)}.");
        var table = ChangeTable.Compare(baseResults, ByName(head), book);
        // A change within the budget's absolute noise floor is not one; one from a figure near zero is ranked by its
        // share of the limit, not by a percentage of almost nothing (ChangeSize).
        var sized = table.Rows
            .Where(r => r.Comparison?.ChangePercent is { } c && c != 0)
            .Select(r => (Row: r, Size: ChangeSize.Of(r.Base!, r.Head!, NoiseFloor(r))))
            .ToList();
        var withinFloor = sized.Count(s => s.Size.WithinNoiseFloor);
        var moved = sized
            .Where(s => !s.Size.WithinNoiseFloor)
            .OrderByDescending(s => s.Size.Rank)
            .ThenBy(s => s.Row.Budget, StringComparer.Ordinal)
            .ToList();
        if (moved.Count == 0)
        {
            text.AppendLine().AppendLine(withinFloor == 0 ? "No figure changed." : $"No figure changed by more than its absolute noise floor ({withinFloor} within it).").AppendLine();
            return;
        }

        text.AppendLine().AppendLine("| Budget | Base | Head | Unit | Change | |").AppendLine("|---|---:|---:|---|---:|---|");
        foreach (var (row, size) in moved.Take(top))
        {
            var worse = row.Flagged ? "**worse**"
                : row.Comparison!.WorsePercent is { } w && BudgetKind.TryParse(row.Head!.Kind, out _) ? (w > 0 ? "worse" : "better")
                : string.Empty;
            text.AppendLine(CultureInfo.InvariantCulture,
                $"| {Text(row.Budget)} | {Figures.Format(row.Base!.Measured)} | {Figures.Format(row.Head!.Measured)} | {Text(row.Head.Unit)} | {(size.InUnit ? InUnit(row.Base, row.Head) : ChangeTable.Change(row.Comparison))} | {worse} |");
        }

        if (moved.Count > top)
        {
            text.AppendLine().AppendLine(CultureInfo.InvariantCulture, $"{moved.Count - top} smaller changes not shown; `perfbudgets compare` lists them all.");
        }

        if (moved.Take(top).Any(m => m.Size.InUnit))
        {
            text.AppendLine().AppendLine(CultureInfo.InvariantCulture,
                $"A change from a figure near 0 (under {Figures.Percent(ChangeSize.NearZeroShare * 100)} of its limit) is given in the budget's unit and ranked by its share of the limit; one of an informational figure (no limit) after the rest.");
        }

        if (withinFloor > 0)
        {
            text.AppendLine().AppendLine(CultureInfo.InvariantCulture,
                $"{withinFloor} {(withinFloor == 1 ? "change" : "changes")} no larger than the budget's absolute noise floor (`noiseAbsolute`) not listed.");
        }

        text.AppendLine().AppendLine(table.HasNoiseThresholds
            ? "**worse**: worse than the budget's noise threshold in budgets.json, as a run with `PERF_BASELINE` warns."
            : "Not judged against noise: give `--budgets budgets.json` to mark the changes beyond their noise threshold.");

        text.AppendLine();
    }

    // The budget's absolute noise floor: the budgets.json given (--budgets), else the one the head's run recorded with its
    // figure, else the base's; 0 without any.
    private static double NoiseFloor(ChangeRow row) =>
        row.Noise?.Absolute ?? row.Head?.NoiseAbsolute ?? row.Base?.NoiseAbsolute ?? 0;

    // A change from a figure near 0, in the budget's unit, with its share of the limit when it has one: "+0.008 (40% of the limit)".
    private static string InUnit(BudgetResult before, BudgetResult after)
    {
        var change = after.Measured - before.Measured;
        // Three significant digits below 0.1: a blocked time of 0.00036 ms/request must not read as +0.
        var size = Math.Abs(change) < 0.1 ? Math.Abs(change).ToString("G3", CultureInfo.InvariantCulture) : Figures.Format(Math.Abs(change));
        var signed = $"{(change >= 0 ? "+" : "-")}{size}";
        return (after.Limit ?? before.Limit) is { } limit && limit != 0 && double.IsFinite(limit)
            ? $"{signed} ({Figures.Percent(Math.Abs(change) / Math.Abs(limit) * 100)} of the limit)"
            : signed;
    }

    private static void Counted(StringBuilder text, IReadOnlyList<BudgetResult> head, IReadOnlyDictionary<string, BudgetResult>? baseResults)
    {
        var counted = head.Where(r => BudgetKind.TryParse(r.Kind, out var kind) && kind.IsCounted).ToList();
        if (counted.Count == 0)
        {
            return;
        }

        text.AppendLine("### Counted budgets").AppendLine();
        text.AppendLine("| Budget | Base | Head | Limit | Unit | Change |").AppendLine("|---|---:|---:|---:|---|---:|");
        foreach (var r in counted)
        {
            var before = baseResults?.GetValueOrDefault(r.Budget);
            text.AppendLine(CultureInfo.InvariantCulture,
                $"| {Text(r.Budget)} | {(before is null ? "—" : Figures.Format(before.Measured))} | {Figures.Format(r.Measured)} | {Limit(r)} | {Text(r.Unit)} | {Change(before?.Measured, r.Measured)} |");
        }

        // The gate records a counted budget's breakdown by method with every result; the methods are listed only for
        // the budgets whose count moved, and only the methods that moved, largest first.
        foreach (var r in counted)
        {
            var before = baseResults?.GetValueOrDefault(r.Budget);
            if (before is null || before.Measured == r.Measured || (r.Attribution?.Entries.Count ?? 0) + (before.Attribution?.Entries.Count ?? 0) == 0)
            {
                continue;
            }

            var moved = MethodDeltas(before.Attribution?.Entries ?? [], r.Attribution?.Entries ?? []);
            if (moved.Count == 0)
            {
                continue;
            }

            text.AppendLine().AppendLine(CultureInfo.InvariantCulture, $"{Text(r.Budget)}, the methods that moved:").AppendLine();
            text.AppendLine("| Method | Base | Head | Unit | Change |").AppendLine("|---|---:|---:|---|---:|");
            foreach (var (name, baseEntry, headEntry) in moved.Take(MethodsShown))
            {
                text.AppendLine(CultureInfo.InvariantCulture,
                    $"| {MethodName(name)} | {(baseEntry is null ? "—" : Figures.Format(baseEntry.Value))} | {(headEntry is null ? "—" : Figures.Format(headEntry.Value))} | {Text((headEntry ?? baseEntry)!.Unit)} | {(headEntry is null ? "gone" : baseEntry is null ? "new" : Change(baseEntry.Value, headEntry.Value))} |");
            }

            if (r.Attribution?.Change is { Length: > 0 } change)
            {
                text.AppendLine().AppendLine(Text(change));
            }
        }

        text.AppendLine();
    }

    private static void ChangePoints(StringBuilder text, IReadOnlyList<ReportedChange> changes, string branch, int lastRuns)
    {
        text.AppendLine(CultureInfo.InvariantCulture, $"### Change points on {Text(branch)}").AppendLine();
        if (changes.Count == 0)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"No timed budget shifted within the last {lastRuns} runs of {Text(branch)}.");
            return;
        }

        foreach (var c in changes)
        {
            text.AppendLine(CultureInfo.InvariantCulture,
                $"- ⚠️ **{Text(c.Budget)}** shifted {Figures.Percent(c.RelativeShift * 100, signed: true)} from {CommitCode(c.Commit)} on: median {Figures.Format(c.MedianBefore)} → {Figures.Format(c.MedianAfter)} {Text(c.Unit)} ({c.RunsAfter} runs since{(c.RuntimeChanged ? "; the runtime changed there" : "")})");
        }
    }

    // The methods whose figure differs between the two breakdowns (or that one lacks), by the size of the difference.
    private static List<(string Name, AttributionEntry? Base, AttributionEntry? Head)> MethodDeltas(
        IReadOnlyList<AttributionEntry> baseEntries, IReadOnlyList<AttributionEntry> headEntries)
    {
        var before = baseEntries.GroupBy(e => e.Name, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.First(), StringComparer.Ordinal);
        var after = headEntries.GroupBy(e => e.Name, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.First(), StringComparer.Ordinal);
        return before.Keys.Union(after.Keys)
            .Select(name => (Name: name, Base: before.GetValueOrDefault(name), Head: after.GetValueOrDefault(name)))
            .Where(m => (m.Base?.Value ?? 0) != (m.Head?.Value ?? 0))
            .OrderByDescending(m => Math.Abs((m.Head?.Value ?? 0) - (m.Base?.Value ?? 0)))
            .ThenBy(m => m.Name, StringComparer.Ordinal)
            .ToList();
    }

    /// <summary>Results by budget name; a budget recorded twice keeps its last figure, as results.json readers do.</summary>
    public static Dictionary<string, BudgetResult> ByName(IReadOnlyList<BudgetResult> results)
    {
        var byName = new Dictionary<string, BudgetResult>(StringComparer.Ordinal);
        foreach (var r in results)
        {
            byName[r.Budget] = r;
        }

        return byName;
    }

    private static string Limit(BudgetResult r) => r.Limit is { } l ? Figures.Format(l) : "—";

    private static string Change(double? before, double after) => before switch
    {
        null => "—",
        var b when b == after => "0%",
        0 => after > 0 ? "up from 0" : "down from 0",
        var b => Figures.Percent((after - b.Value) / Math.Abs(b.Value) * 100, signed: true),
    };
}
