using System.Globalization;
using System.Text;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tool;

/// <summary>
/// The change between two runs' <c>results.json</c>, budget by budget: base, head, signed change, and whether the head
/// is worse by more than the budget's noise threshold. The rules are the gate's own (<see cref="BaselineComparison"/>,
/// <see cref="BudgetBook.NoiseThreshold"/>), so the table flags exactly what a run with <c>PERF_BASELINE</c> warns about.
/// </summary>
internal sealed class ChangeTable
{
    private ChangeTable(IReadOnlyList<ChangeRow> rows, bool hasNoiseThresholds)
    {
        Rows = rows;
        HasNoiseThresholds = hasNoiseThresholds;
    }

    /// <summary>One row per budget of either run, by name.</summary>
    public IReadOnlyList<ChangeRow> Rows { get; }

    /// <summary>True when a budget book gave the noise thresholds; without one nothing is flagged.</summary>
    public bool HasNoiseThresholds { get; }

    /// <summary>Compares <paramref name="head"/> with <paramref name="baseline"/>; <paramref name="book"/> gives the noise thresholds.</summary>
    public static ChangeTable Compare(IReadOnlyDictionary<string, BudgetResult> baseline, IReadOnlyDictionary<string, BudgetResult> head, BudgetBook? book)
    {
        ArgumentNullException.ThrowIfNull(baseline);
        ArgumentNullException.ThrowIfNull(head);
        var budgets = book?.Budgets.ToDictionary(b => b.Name, StringComparer.Ordinal);
        var rows = new List<ChangeRow>();
        foreach (var name in baseline.Keys.Union(head.Keys).Order(StringComparer.Ordinal))
        {
            var before = baseline.GetValueOrDefault(name);
            var after = head.GetValueOrDefault(name);
            if (before is null || after is null || double.IsNaN(before.Measured) || double.IsNaN(after.Measured))
            {
                rows.Add(new ChangeRow(name, before, after, null, null));
                continue;
            }

            // The book's budget when it has one (its kind and thresholds are the ones in force); otherwise the kind the
            // head recorded, which still gives the direction of "worse". Informational figures have no direction.
            var budget = budgets?.GetValueOrDefault(name);
            var noise = budget is not null && book!.TryGetNoiseThreshold(name, out var threshold) ? threshold : null;
            if (budget is null)
            {
                // An informational figure has no kind; its change is read as a count's, higher being worse.
                var kind = BudgetKind.TryParse(after.Kind, out var recorded) ? recorded : BudgetKind.CountMax;
                budget = new Budget(name, kind, after.Limit ?? double.NaN, after.Unit, after.Profile, string.Empty);
            }

            var comparison = BaselineComparison.Compare(budget, noise ?? new NoiseThreshold(0, 0, "none"), after.Measured, before.Measured);
            rows.Add(new ChangeRow(name, before, after, comparison, noise));
        }

        return new ChangeTable(rows, book is not null);
    }

    /// <summary>The table as Markdown, then one line that counts the rows.</summary>
    public string Render()
    {
        var text = new StringBuilder();
        text.AppendLine("| Budget | Base | Head | Unit | Change | Noise threshold | Flag | Verdict (base → head) |");
        text.AppendLine("|---|---:|---:|---|---:|---:|---|---|");
        foreach (var row in Rows)
        {
            text.AppendLine(CultureInfo.InvariantCulture,
                $"| {row.Budget} | {Figure(row.Base)} | {Figure(row.Head)} | {(row.Head ?? row.Base)!.Unit} | {Change(row.Comparison)} | {Noise(row)} | {(row.Flagged ? "**worse**" : string.Empty)} | {Verdict(row.Base)} → {Verdict(row.Head)} |");
        }

        var compared = Rows.Count(r => r.Comparison is not null);
        var flagged = Rows.Count(r => r.Flagged);
        text.Append(CultureInfo.InvariantCulture,
            $"{compared} compared, {flagged} worse than their noise threshold; {Rows.Count(r => r.Head is null)} only in base, {Rows.Count(r => r.Base is null)} only in head.");
        var withoutThreshold = Rows.Count(r => r.Comparison is not null && r.Noise is null);
        if (HasNoiseThresholds && withoutThreshold > 0)
        {
            text.Append(CultureInfo.InvariantCulture, $" {withoutThreshold} without a noise threshold in budgets.json (—) are not flagged.");
        }

        if (!HasNoiseThresholds)
        {
            text.Append(" Nothing is flagged without --budgets (the noise thresholds are in budgets.json).");
        }

        return text.AppendLine().ToString();
    }

    /// <summary>
    /// A signed change: <c>+31%</c>, <c>-0.4%</c>, <c>+&lt;0.1%</c> (a change too small for one decimal, but not none),
    /// <c>0%</c>, <c>up from 0</c>; <c>—</c> without both figures.
    /// </summary>
    public static string Change(BaselineComparison? comparison) => comparison?.ChangePercent switch
    {
        null => "—",
        0 => "0%",
        double.PositiveInfinity => "up from 0",
        double.NegativeInfinity => "down from 0",
        var c => $"{(c > 0 ? "+" : "-")}{(Math.Abs(c.Value) < 0.05 ? "<0.1%" : Figures.Percent(Math.Abs(c.Value)))}",
    };

    private static string Figure(BudgetResult? result) => result is null ? "—" : Figures.Format(result.Measured);

    private static string Noise(ChangeRow row) => row.Noise switch
    {
        null => "—",
        { Absolute: > 0 } n => $"{Figures.Percent(n.Relative * 100)} and {Figures.Format(n.Absolute)}",
        var n => Figures.Percent(n.Relative * 100),
    };

    private static string Verdict(BudgetResult? result) => result is null ? "—" : result.Verdict switch
    {
        BudgetVerdict.NotMeasured => "not measured",
        var v => v.ToString().ToLowerInvariant(),
    };
}
