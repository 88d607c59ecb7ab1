using System.Globalization;
using System.Text;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Tool.Proposals;

namespace PerfBudgets.Tool;

/// <summary>
/// The proposals as a unified-diff-style listing of <c>budgets.json</c>: a hunk header per budget (kind, unit, the runs
/// and their min / median / max, the rule), then <c>-</c> the field in force and <c>+</c> the proposed one, or the field
/// unchanged behind a space.
/// </summary>
/// <example>
/// <code>
/// @@ Api.Echo.BytesPerRequest (allocated-bytes-per-op, B/request): 3 runs, min 1,000, median 1,010, max 1,020; max(1%, 64 B) above the highest run
/// -      "limit": 1200
/// +      "limit": 1084
/// </code>
/// </example>
internal static class ProposalListing
{
    private const string Indent = "      ";

    /// <summary>The listing of <paramref name="proposals"/> for the file at <paramref name="budgetsPath"/>.</summary>
    public static string Render(IReadOnlyList<LimitProposal> proposals, BudgetsFile file, string budgetsPath, string historyPath, string profile)
    {
        ArgumentNullException.ThrowIfNull(proposals);
        ArgumentNullException.ThrowIfNull(file);
        var text = new StringBuilder();
        text.AppendLine(CultureInfo.InvariantCulture, $"--- {budgetsPath}");
        text.AppendLine(CultureInfo.InvariantCulture, $"+++ {budgetsPath} (proposed from {historyPath}, profile {profile})");
        foreach (var p in proposals)
        {
            // The history holds no versions: a counted budget's recordedOn stays what Record.Instructions last wrote.
            var outcome = !p.HasPolicy ? p.Rule
                : !p.IsChange ? $"{p.Rule}; unchanged"
                : p.ProposedRecorded is not null ? $"{p.Rule}; recordedOn left as it was"
                : p.Rule;
            text.AppendLine(CultureInfo.InvariantCulture,
                $"@@ {p.Budget} ({p.Kind}, {p.Unit}): {p.Runs} run{(p.Runs == 1 ? string.Empty : "s")}, min {Figures.Format(p.Min)}, median {Figures.Format(p.Median)}, max {Figures.Format(p.Max)}; {outcome}");
            var limitField = file.LimitField(p.Budget, profile);
            Field(text, limitField, p.CurrentLimit, p.IsChange ? p.ProposedLimit : null);
            if (p.CurrentRecorded is { } recorded)
            {
                Field(text, "recorded", recorded, p.IsChange ? p.ProposedRecorded : null);
            }
        }

        var changes = proposals.Count(p => p.IsChange);
        text.AppendLine(CultureInfo.InvariantCulture,
            $"{changes} of {proposals.Count} budgets with runs would change; {proposals.Count(p => !p.HasPolicy)} have no policy and are set by hand.");
        return text.ToString();
    }

    private static void Field(StringBuilder text, string name, double current, double? proposed)
    {
        if (proposed is { } value && value != current)
        {
            text.AppendLine(CultureInfo.InvariantCulture, $"-{Indent}\"{name}\": {BudgetsFile.Number(current)}");
            text.AppendLine(CultureInfo.InvariantCulture, $"+{Indent}\"{name}\": {BudgetsFile.Number(value)}");
        }
        else
        {
            text.AppendLine(CultureInfo.InvariantCulture, $" {Indent}\"{name}\": {BudgetsFile.Number(current)}");
        }
    }
}
