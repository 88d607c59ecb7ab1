using System.Globalization;
using System.Text;
using PerfBudgets.Load;
using PerfBudgets.Reporting.Exporters;
using PerfBudgets.Reporting.Storage;
using static System.Net.WebUtility;

namespace PerfBudgets.Reporting.Html;

/// <summary>
/// Renders <c>report.html</c>: one self-contained file (inline SVG drawn with OxyPlot's managed SvgExporter, inline CSS,
/// no script, nothing fetched) with every budget as a bar against its limit grouped by component, each budget's history
/// over the recorded runs with its limit, and each load scenario's latency percentiles and requests per second.
/// </summary>
public static class HtmlReport
{
    /// <summary>The file name written beside <c>results.json</c>.</summary>
    public const string FileName = "report.html";

    /// <summary>
    /// Reads <c>results.json</c> and <c>history.jsonl</c> in <paramref name="directory"/> and writes <c>report.html</c>
    /// there (<see cref="HtmlReportExporter"/>); returns its path. Throws <see cref="FileNotFoundException"/> when there
    /// is no results.json.
    /// </summary>
    public static string Write(string directory)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(directory);
        var store = new ResultStore(directory);
        if (!File.Exists(store.ResultsPath))
        {
            throw new FileNotFoundException($"No {store.ResultsPath}: run the budget suites first.", store.ResultsPath);
        }

        IRunExporter report = new HtmlReportExporter(DateTimeOffset.UtcNow);
        return report.Export(RunResults.Read(store), ExportTarget.InFolder(store.Directory, FileName));
    }

    /// <summary>The whole page.</summary>
    internal static string Render(
        IReadOnlyList<BudgetResult> results,
        IReadOnlyList<LoadResult> loads,
        IReadOnlyList<HistoryEntry> history,
        DateTimeOffset generatedUtc,
        IReadOnlyList<string>? notes = null)
    {
        ArgumentNullException.ThrowIfNull(results);
        ArgumentNullException.ThrowIfNull(loads);
        ArgumentNullException.ThrowIfNull(history);
        var html = new StringBuilder();
        html.Append("""
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>Performance budgets</title>
            <style>
            body { font-family: system-ui, sans-serif; margin: 24px; color: #222; max-width: 1300px; }
            h1 { margin-bottom: 4px; } h2 { margin-top: 32px; border-bottom: 1px solid #ccc; } h3 { margin: 20px 0 4px; }
            .meta { color: #555; } .legend span { display: inline-block; margin-right: 14px; }
            .swatch { display: inline-block; width: 12px; height: 12px; margin-right: 4px; vertical-align: -1px; }
            .grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(400px, 1fr)); gap: 8px; }
            .pair { display: grid; grid-template-columns: 1fr 2fr; gap: 8px; }
            table { border-collapse: collapse; font-size: 13px; margin: 6px 0; }
            td, th { border: 1px solid #ddd; padding: 3px 8px; } td.n { text-align: right; }
            .fail { color: #c62828; font-weight: bold; } .warn { color: #b26a00; font-weight: bold; }
            figure { margin: 0; } .note { color: #8a4b00; } summary { cursor: pointer; color: #555; font-size: 13px; }
            </style></head><body>
            <h1>Performance budgets</h1>

            """);
        var first = results.FirstOrDefault();
        html.Append(CultureInfo.InvariantCulture, $"<p class=\"meta\">{results.Count(r => r.Limit is not null)} budgets, {results.Count(r => r.Limit is null)} informational figures");
        if (first is not null)
        {
            html.Append(CultureInfo.InvariantCulture, $"; profile {HtmlEncode(first.Profile)}; {first.Machine.LogicalCores} cores, {HtmlEncode(first.Machine.OperatingSystem)}, {HtmlEncode(first.Machine.Runtime)}");
        }

        html.Append(CultureInfo.InvariantCulture, $"; generated {generatedUtc:yyyy-MM-dd HH:mm:ss} UTC.</p>\n");
        var counts = string.Join(", ", Enum.GetValues<BudgetVerdict>().Select(v => (v, n: results.Count(r => r.Verdict == v))).Where(c => c.n > 0).Select(c => $"{c.n} {VerdictStyle.Name(c.v)}"));
        html.Append(CultureInfo.InvariantCulture, $"<p class=\"legend\">{HtmlEncode(counts)}. ");
        foreach (var verdict in new[] { BudgetVerdict.Pass, BudgetVerdict.Warn, BudgetVerdict.Fail, BudgetVerdict.Info })
        {
            html.Append(CultureInfo.InvariantCulture, $"<span><span class=\"swatch\" style=\"background:{VerdictStyle.Css(VerdictStyle.Color(verdict))}\"></span>{VerdictStyle.Name(verdict)}</span>");
        }

        html.Append("</p>\n");
        foreach (var note in notes ?? [])
        {
            html.Append(CultureInfo.InvariantCulture, $"<p class=\"note\">{HtmlEncode(note)}</p>\n");
        }

        BudgetSection.Append(html, results);
        HistorySection.Append(html, history);
        LoadSection.Append(html, loads);
        html.Append("</body></html>\n");
        return html.ToString();
    }
}
