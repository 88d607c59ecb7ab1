using System.Globalization;
using System.Text;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Dashboard;

/// <summary>
/// <c>/projects/{project}</c>: every budget of the branch's latest run, its figure against its limit and the verdict;
/// a failed budget's row has the class <c>failed</c> and says FAILED. Each budget links to its series.
/// </summary>
internal static class ProjectPage
{
    public static string Render(string project, string branch, IReadOnlyList<BudgetLatest> budgets, string? commitUrlTemplate)
    {
        ArgumentNullException.ThrowIfNull(budgets);
        var body = new StringBuilder();
        body.Append(Invariant($"<h1>{HtmlPage.Encode(project)} <span class=\"muted\">on {HtmlPage.Encode(branch)}</span></h1>"));
        if (budgets.Count == 0)
        {
            body.Append(Invariant($"<p class=\"summary\">No run uploaded on branch {HtmlPage.Encode(branch)} yet.</p>"));
            return HtmlPage.Render($"{project} on {branch}", body.ToString());
        }

        var run = budgets[0];
        var failed = budgets.Count(b => b.Failed);
        body.Append(Invariant($"<p class=\"muted\">Latest run {run.RunId}: commit {HtmlPage.Commit(run.Commit, commitUrlTemplate)}, uploaded {run.UploadedUtc.UtcDateTime:yyyy-MM-dd HH:mm} UTC.</p>"));
        body.Append(failed > 0
            ? Invariant($"<p class=\"summary failed\">FAILED: {failed} of {budgets.Count} budgets.</p>")
            : Invariant($"<p class=\"summary\">No budget failed ({budgets.Count} budgets).</p>"));
        body.Append("<table class=\"budgets\"><thead><tr><th>budget</th><th>kind</th><th>measured</th><th>limit</th><th>unit</th><th>of limit</th><th>verdict</th></tr></thead><tbody>");
        foreach (var b in budgets)
        {
            var share = b.Limit is > 0 and var limit && b.Measured is { } measured ? (measured / limit).ToString("0%", CultureInfo.InvariantCulture) : "";
            var link = $"/projects/{HtmlPage.Segment(project)}/budgets/{HtmlPage.Segment(b.Budget)}?branch={HtmlPage.Segment(branch)}";
            body.Append(Invariant($"<tr class=\"budget{(b.Failed ? " failed" : "")}\" data-budget=\"{HtmlPage.Encode(b.Budget)}\">"));
            body.Append(Invariant($"<td><a href=\"{HtmlPage.Encode(link)}\">{HtmlPage.Encode(b.Budget)}</a></td><td>{HtmlPage.Encode(b.Kind)}</td>"));
            body.Append(Invariant($"<td class=\"number\">{HtmlPage.Figure(b.Measured)}</td><td class=\"number\">{HtmlPage.Number(b.Limit)}</td>"));
            body.Append(Invariant($"<td>{HtmlPage.Encode(b.Unit)}</td><td class=\"number\">{share}</td>{HtmlPage.VerdictCell(b.Verdict)}</tr>"));
        }

        body.Append("</tbody></table>");
        return HtmlPage.Render($"{project} on {branch}", body.ToString());
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
