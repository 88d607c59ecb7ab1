using System.Globalization;
using System.Text;
using System.Text.Encodings.Web;

namespace PerfBudgets.Server.Dashboard;

/// <summary>
/// The dashboard's page frame and its few helpers. Pages are rendered on the server into one self-contained HTML
/// document: the style sheet is inline, charts are inline SVG, there is no script and no remote asset, so a page works
/// offline and under a Content-Security-Policy that allows nothing else. Every text that came from an upload goes
/// through <see cref="Encode"/>.
/// </summary>
internal static class HtmlPage
{
    /// <summary>
    /// The policy every page is served with: inline styles and nothing else, and no other site may frame the page
    /// (<c>frame-ancestors</c>: a framed sign-in form or page could be clicked through by another site).
    /// </summary>
    public const string ContentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private const string Style = """
        body { font-family: system-ui, sans-serif; margin: 1.5rem; color: #1f2328; }
        h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
        table { border-collapse: collapse; margin: 0.5rem 0; }
        th, td { border-bottom: 1px solid #d0d7de; padding: 0.25rem 0.6rem; text-align: left; }
        td.number { text-align: right; font-variant-numeric: tabular-nums; }
        tr.failed td { background: #ffebe9; }
        .verdict-fail { color: #cf222e; font-weight: bold; }
        .verdict-pass { color: #1a7f37; }
        .verdict-warn { color: #9a6700; }
        .verdict-not-measured, .verdict-info { color: #57606a; }
        .summary.failed { color: #cf222e; font-weight: bold; }
        .muted { color: #57606a; font-size: 0.9rem; }
        svg.series { border: 1px solid #d0d7de; background: #fff; }
        svg.series .figure { fill: none; stroke: #0969da; stroke-width: 1.5; }
        svg.series .point { fill: #0969da; }
        svg.series .point.failed { fill: #cf222e; }
        svg.series .limit { fill: none; stroke: #cf222e; stroke-dasharray: 6 3; }
        svg.series .re-recording { stroke: #9a6700; stroke-dasharray: 2 2; }
        svg.series .runtime-change { stroke: #8250df; stroke-dasharray: 4 2; }
        svg.series .change-point { stroke: #bc4c00; stroke-width: 2; }
        svg.series text { font-size: 11px; fill: #57606a; }
        svg.series .commit-boundary { stroke: #8c959f; stroke-opacity: 0.3; stroke-dasharray: 1 3; }
        svg.series .axis-break { fill: none; stroke: #57606a; }
        svg.series .y-origin { font-weight: bold; }
        svg.series .y-origin-note { font-style: italic; }
        """;

    /// <summary>A whole HTML document titled <paramref name="title"/> (plain text) around <paramref name="body"/> (HTML).</summary>
    public static string Render(string title, string body) => $"""
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{Encode(title)}</title>
        <style>
        {Style}
        </style>
        </head>
        <body>
        {body}
        </body>
        </html>
        """;

    /// <summary>Text made safe for HTML content and attribute values.</summary>
    public static string Encode(string? text) => HtmlEncoder.Default.Encode(text ?? "");

    /// <summary>A figure as the tables show it: invariant, up to three decimals, no grouping.</summary>
    public static string Number(double? value) =>
        value is { } v ? v.ToString("0.###", CultureInfo.InvariantCulture) : "–";

    /// <summary>A measured figure as the tables show it; one the gate could not measure (stored as null) says so.</summary>
    public static string Figure(double? measured) => measured is null ? "not measured" : Number(measured);

    /// <summary>The verdict as a cell: FAILED in capitals for a failure, so it reads without colour too.</summary>
    public static string VerdictCell(string verdict) =>
        $"<td class=\"verdict verdict-{Encode(verdict)}\">{(verdict == "fail" ? "FAILED" : Encode(verdict))}</td>";

    /// <summary>
    /// The commit as a link when the server has a commit URL template (<c>{commit}</c> replaced by the escaped hash),
    /// else the hash as text.
    /// </summary>
    public static string Commit(string commit, string? urlTemplate)
    {
        var shortHash = Encode(commit.Length > 12 ? commit[..12] : commit);
        if (urlTemplate is null)
        {
            return $"<code title=\"{Encode(commit)}\">{shortHash}</code>";
        }

        var url = urlTemplate.Replace("{commit}", Uri.EscapeDataString(commit), StringComparison.Ordinal);
        return $"<a class=\"commit\" href=\"{Encode(url)}\" title=\"{Encode(commit)}\"><code>{shortHash}</code></a>";
    }

    /// <summary>A path segment of a dashboard link, escaped.</summary>
    public static string Segment(string value) => Uri.EscapeDataString(value);

    /// <summary>An HTML error page for a refused or missing page, with a link to <paramref name="signIn"/> when given.</summary>
    public static string Error(int status, string message, string? signIn = null)
    {
        var body = new StringBuilder();
        body.Append(CultureInfo.InvariantCulture, $"<h1>{status}</h1><p class=\"error\">{Encode(message)}</p>");
        if (signIn is not null)
        {
            body.Append(CultureInfo.InvariantCulture, $"<p><a class=\"sign-in\" href=\"{Encode(signIn)}\">Sign in with the project's token</a></p>");
        }

        return Render($"{status}", body.ToString());
    }
}
