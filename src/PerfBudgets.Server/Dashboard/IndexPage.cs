using System.Globalization;
using System.Text;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Dashboard;

/// <summary><c>/</c> and <c>/projects</c>: every project on the server, linking to its page, with its runs and last upload.</summary>
internal static class IndexPage
{
    public static string Render(IReadOnlyList<ProjectSummary> projects)
    {
        ArgumentNullException.ThrowIfNull(projects);
        var body = new StringBuilder("<h1>Projects</h1>");
        if (projects.Count == 0)
        {
            body.Append("<p class=\"summary\">No project yet: <code>perfbudgets-server --add-project NAME</code> creates one.</p>");
            return HtmlPage.Render("Projects", body.ToString());
        }

        body.Append("<table class=\"projects\"><thead><tr><th>project</th><th>runs</th><th>last upload (UTC)</th></tr></thead><tbody>");
        foreach (var p in projects)
        {
            var last = p.LastUploadUtc is { } time ? time.UtcDateTime.ToString("yyyy-MM-dd HH:mm", CultureInfo.InvariantCulture) : "–";
            body.Append(CultureInfo.InvariantCulture,
                $"<tr class=\"project\"><td><a href=\"/projects/{HtmlPage.Encode(HtmlPage.Segment(p.Name))}\">{HtmlPage.Encode(p.Name)}</a></td><td class=\"number\">{p.Runs}</td><td>{last}</td></tr>");
        }

        body.Append("</tbody></table>");
        return HtmlPage.Render("Projects", body.ToString());
    }
}
