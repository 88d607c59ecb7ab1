using System.Text;
using PerfBudgets.Budgets;

namespace PerfBudgets.Reporting.Exporters;

/// <summary>
/// Renders results as a Markdown table: the text of <c>summary.md</c> (<see cref="SummaryExporter"/>) and of the CI step
/// summary (<see cref="StepSummaryExporter"/>); the HTML report shows its limits with the same sign (<see cref="BudgetResult.ComparisonSign"/>).
/// </summary>
internal static class SummaryTable
{
    /// <summary>
    /// One row per result, failures first (then baseline warnings) so a reviewer sees them at the top. When any result
    /// was compared with a baseline (<c>PERF_BASELINE</c>), a column after the verdict gives the baseline figure and the
    /// signed change, <c>—</c> where the baseline has no such figure. Given the run the table is written for
    /// (<paramref name="runId"/>), a row another run recorded says so beside its verdict: a filtered run
    /// (<c>dotnet test --filter</c>) measures some budgets, and the others' rows, a failure included, are that other
    /// run's figures, not this one's. Only this run's failures are explained under the table.
    /// </summary>
    public static string Render(IEnumerable<BudgetResult> results, string? runId = null)
    {
        ArgumentNullException.ThrowIfNull(results);
        var rows = results
            .OrderBy(r => r.Verdict switch { BudgetVerdict.Fail => 0, BudgetVerdict.Warn => 1, _ => 2 })
            .ThenBy(r => r.Budget, StringComparer.Ordinal)
            .ToList();
        var withBaseline = rows.Any(r => r.Baseline is not null);
        var text = new StringBuilder();
        text.AppendLine(withBaseline
            ? "| Budget | Measured | Limit | Unit | Verdict | Baseline (change) | Profile | Cores | Measured at (UTC) |"
            : "| Budget | Measured | Limit | Unit | Verdict | Profile | Cores | Measured at (UTC) |");
        text.AppendLine(withBaseline ? "|---|---:|---:|---|---|---:|---|---:|---|" : "|---|---:|---:|---|---|---|---:|---|");
        foreach (var r in rows)
        {
            var limit = r.Limit is { } l ? $"{r.ComparisonSign} {Figures.Format(l)}" : "—";
            var verdict = r.Verdict switch
            {
                BudgetVerdict.Pass => "pass",
                BudgetVerdict.Fail when r.Baseline is { Flagged: true } && r.IsWithinLimit =>
                    $"**FAIL** ({Figures.Percent(r.Baseline.WorsePercent ?? 0)} worse than baseline, strict)",
                BudgetVerdict.Fail => $"**FAIL** {Figures.Overshoot(r.Measured, r.Limit ?? 0)}",
                BudgetVerdict.Warn => $"**warn** ({WorseText(r.Baseline)} than baseline, noise {Figures.Percent(r.Baseline?.NoisePercent ?? 0)})",
                BudgetVerdict.NotMeasured => $"**not measured** ({r.Detail})",
                _ => "info",
            };
            verdict += NotThisRun(r, runId);
            var delta = withBaseline ? $" {r.Baseline?.DeltaCell() ?? "—"} |" : string.Empty;
            text.Append(System.Globalization.CultureInfo.InvariantCulture,
                $"| {r.Budget} | {Figures.Format(r.Measured)} | {limit} | {r.Unit} | {verdict} |{delta} {r.Profile} | {r.Machine.LogicalCores} | {r.TimestampUtc:yyyy-MM-dd HH:mm:ss} |");
            text.AppendLine();
        }

        AppendAttributions(text, rows.Where(r => NotThisRun(r, runId).Length == 0).ToList());
        return text.ToString();
    }

    // Beside the verdict of a row another run recorded (results.json keeps every budget's newest row): whose it is.
    private static string NotThisRun(BudgetResult result, string? runId) => (runId, result.RunId) switch
    {
        (null, _) => string.Empty,
        (_, null) => " (recorded by an earlier run, not this one)",
        ({ } current, { } other) when other != current => $" (recorded by run {other}, not this one)",
        _ => string.Empty,
    };

    // Under the table: what broke each failing budget that was diagnosed (top types, hottest methods).
    private static void AppendAttributions(StringBuilder text, List<BudgetResult> rows)
    {
        var diagnosed = rows.Where(r => r.Verdict == BudgetVerdict.Fail && r.Attribution is not null).ToList();
        if (diagnosed.Count == 0)
        {
            return;
        }

        text.AppendLine();
        text.AppendLine("#### What broke the failing budgets");
        foreach (var r in diagnosed)
        {
            text.AppendLine();
            text.AppendLine(System.Globalization.CultureInfo.InvariantCulture, $"**{r.Budget}**: {r.Attribution!.Summary}");
            foreach (var entry in r.Attribution.Entries.Take(5))
            {
                var share = entry.Share is { } s ? string.Create(System.Globalization.CultureInfo.InvariantCulture, $" ({s * 100:0.#}%)") : string.Empty;
                text.AppendLine(System.Globalization.CultureInfo.InvariantCulture, $"- `{entry.Name}`: {Figures.Format(entry.Value)} {entry.Unit}{share}");
            }

            if (!string.IsNullOrEmpty(r.Attribution.Change))
            {
                text.AppendLine(System.Globalization.CultureInfo.InvariantCulture, $"- {r.Attribution.Change}");
            }

            if (!string.IsNullOrEmpty(r.Attribution.Note))
            {
                text.AppendLine(System.Globalization.CultureInfo.InvariantCulture, $"- _{r.Attribution.Note}_");
            }
        }
    }

    private static string WorseText(BaselineComparison? c) =>
        c?.WorsePercent is { } w && !double.IsInfinity(w) ? $"{Figures.Percent(w)} worse" : "worse";
}
