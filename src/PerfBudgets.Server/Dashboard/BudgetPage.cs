using System.Globalization;
using System.Text;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Dashboard;

/// <summary>
/// <c>/projects/{project}/budgets/{budget}</c>: one page of the budget's series (the newest
/// <see cref="ResultsServerOptions.RunsPerPage"/> runs, or those before <c>?before=RUNID</c>) as a chart
/// (<see cref="SeriesChart"/>), the page's runs that failed it, the change points of the whole series (timed kinds
/// only, <see cref="ChangePointMarks"/>; marked on the chart where they fall on the page), and every run of the page
/// with its commit, runtime, Valgrind version, figure, limit and verdict.
/// </summary>
internal static class BudgetPage
{
    public static string Render(string project, string budget, string branch, SeriesPage page, SeriesMarks marks, bool newer, string? commitUrlTemplate)
    {
        ArgumentNullException.ThrowIfNull(page);
        ArgumentNullException.ThrowIfNull(marks);
        var series = page.Points;
        var onPage = series.Select((point, index) => (point.RunId, index)).ToDictionary(p => p.RunId, p => p.index);
        var changePoints = marks.ChangePoints.Select(m => m.Change).ToList();
        var body = new StringBuilder();
        var back = $"/projects/{HtmlPage.Segment(project)}?branch={HtmlPage.Segment(branch)}";
        body.Append(Invariant($"<p><a href=\"{HtmlPage.Encode(back)}\">{HtmlPage.Encode(project)}</a> / {HtmlPage.Encode(branch)}</p>"));
        var latest = series[^1];
        body.Append(Invariant($"<h1>{HtmlPage.Encode(budget)}</h1><p class=\"muted\">{HtmlPage.Encode(latest.Kind)}, {HtmlPage.Encode(latest.Unit)}; {series.Count} runs{(page.HasOlder ? " shown of more" : "")}."));
        if (page.HasOlder || newer)
        {
            var self = $"/projects/{HtmlPage.Segment(project)}/budgets/{HtmlPage.Segment(budget)}?branch={HtmlPage.Segment(branch)}";
            body.Append(Invariant($" Shown: runs {series[0].RunId} to {latest.RunId} ({series.Count})."));
            if (page.HasOlder)
            {
                body.Append(Invariant($" <a class=\"older\" href=\"{HtmlPage.Encode($"{self}&before={series[0].RunId}")}\">Older runs</a>"));
            }

            if (newer)
            {
                body.Append(Invariant($" <a class=\"newest\" href=\"{HtmlPage.Encode(self)}\">Newest runs</a>"));
            }
        }

        body.Append("</p>");
        body.Append(SeriesChart.Render(series, marks.ChangePoints.Where(m => onPage.ContainsKey(m.RunId)).Select(m => onPage[m.RunId]).ToList()));
        body.Append("<p class=\"muted\">Dashed red: the limit. Yellow: limit re-recorded. Purple: runtime changed. Orange: change point (at the first run of its commit). Faint grey: where the commit changes. Red points: runs that failed. The y axis spans the figures and the limit, from 0 only where its foot says 0.</p>");

        var failed = series.Where(p => p.Failed).ToList();
        body.Append(Invariant($"<h2>Runs that failed ({failed.Count})</h2>"));
        if (failed.Count == 0)
        {
            body.Append("<p class=\"summary\">None.</p>");
        }
        else
        {
            Table(body, "failed-runs", failed, commitUrlTemplate);
        }

        body.Append(Invariant($"<h2>Change points ({changePoints.Count})</h2>"));
        body.Append(Invariant($"<p class=\"muted\">Searched in the newest {marks.Runs} runs.</p>"));
        body.Append(changePoints.Count == 0
            ? "<p class=\"muted\">None found.</p>"
            : "<ul class=\"change-points\">" + string.Concat(changePoints.Select(c =>
                Invariant($"<li class=\"change-point\">{HtmlPage.Commit(c.Commit, commitUrlTemplate)}: median {HtmlPage.Number(c.MedianBefore)} to {HtmlPage.Number(c.MedianAfter)} {HtmlPage.Encode(latest.Unit)} ({c.RelativeShift:+0%;-0%})</li>"))) + "</ul>");

        body.Append("<h2>Every run</h2>");
        Table(body, "runs", series.Reverse().ToList(), commitUrlTemplate);
        return HtmlPage.Render($"{budget} – {project}", body.ToString());
    }

    private static void Table(StringBuilder body, string cssClass, IReadOnlyList<SeriesPoint> points, string? commitUrlTemplate)
    {
        // The run's own time (when the figure was measured, from its results.json) where the upload carried it, else the
        // upload's; the header says which, and with both in one table the upload times are marked.
        var measuredTimes = points.Count(p => p.MeasuredUtc is not null);
        var timeHeader = measuredTimes == points.Count ? "measured (UTC)"
            : measuredTimes == 0 ? "uploaded (UTC)"
            : "measured (UTC; * uploaded)";
        body.Append(Invariant($"<table class=\"{cssClass}\"><thead><tr><th>run</th><th>commit</th><th>branch</th><th class=\"time\">{timeHeader}</th><th>runtime</th><th>valgrind</th><th>measured</th><th>limit</th><th>verdict</th></tr></thead><tbody>"));
        foreach (var p in points)
        {
            var notes = (p.LimitChanged ? " re-recorded" : "") + (p.RuntimeChanged ? " runtime-changed" : "");
            var time = p.MeasuredUtc is { } measuredUtc ? Invariant($"{measuredUtc.UtcDateTime:yyyy-MM-dd HH:mm}")
                : Invariant($"{p.UploadedUtc.UtcDateTime:yyyy-MM-dd HH:mm}{(measuredTimes > 0 ? "*" : "")}");
            body.Append(Invariant($"<tr class=\"run{(p.Failed ? " failed" : "")}{notes}\"><td class=\"number\">{p.RunId}</td><td>{HtmlPage.Commit(p.Commit, commitUrlTemplate)}</td>"));
            body.Append(Invariant($"<td>{HtmlPage.Encode(p.Branch)}</td><td class=\"time\">{time}</td><td>{HtmlPage.Encode(p.Runtime)}</td><td>{HtmlPage.Encode(p.ValgrindVersion ?? "–")}</td>"));
            body.Append(Invariant($"<td class=\"number\">{HtmlPage.Figure(p.Measured)}</td><td class=\"number\">{HtmlPage.Number(p.Limit)}{(p.LimitChanged ? " (re-recorded)" : "")}</td>{HtmlPage.VerdictCell(p.Verdict)}</tr>"));
        }

        body.Append("</tbody></table>");
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
