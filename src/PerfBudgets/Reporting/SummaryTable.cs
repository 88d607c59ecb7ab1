using System.Text;

namespace PerfBudgets.Reporting;

/// <summary>Renders results as the Markdown table of <c>summary.md</c>.</summary>
public static class SummaryTable
{
    /// <summary>One row per result, failures first so a reviewer sees them at the top.</summary>
    public static string Render(IEnumerable<BudgetResult> results)
    {
        ArgumentNullException.ThrowIfNull(results);
        var rows = results
            .OrderBy(r => r.Verdict == BudgetVerdict.Fail ? 0 : 1)
            .ThenBy(r => r.Budget, StringComparer.Ordinal)
            .ToList();
        var text = new StringBuilder();
        text.AppendLine("| Budget | Measured | Limit | Unit | Verdict | Profile | Cores | Measured at (UTC) |");
        text.AppendLine("|---|---:|---:|---|---|---|---:|---|");
        foreach (var r in rows)
        {
            var limit = r.Limit is { } l ? $"{(r.Kind.EndsWith("-min", StringComparison.Ordinal) ? "≥ " : "≤ ")}{Figures.Format(l)}" : "—";
            var verdict = r.Verdict switch
            {
                BudgetVerdict.Pass => "pass",
                BudgetVerdict.Fail => $"**FAIL** {Figures.Overshoot(r.Measured, r.Limit ?? 0)}",
                _ => "info",
            };
            text.Append(System.Globalization.CultureInfo.InvariantCulture,
                $"| {r.Budget} | {Figures.Format(r.Measured)} | {limit} | {r.Unit} | {verdict} | {r.Profile} | {r.Machine.LogicalCores} | {r.TimestampUtc:yyyy-MM-dd HH:mm:ss} |");
            text.AppendLine();
        }

        AppendAttributions(text, rows);
        return text.ToString();
    }

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
}
