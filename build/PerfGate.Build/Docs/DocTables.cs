using System.Globalization;
using System.Text.Json;
using System.Text.RegularExpressions;
using System.Text;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Reporting;

namespace PerfGate.Build.Docs;

/// <summary>
/// Fills the measured tables of markdown files from a run's <c>results.json</c> (and <c>history.jsonl</c> beside it),
/// so that no figure in the documentation is typed by hand.
/// </summary>
/// <remarks>
/// <para>
/// A table is a marker block; everything between its two lines is replaced on every run, and nothing outside them is
/// touched. Running twice on the same results changes nothing.
/// </para>
/// <code>
/// &lt;!-- table: budgets PATTERN[,PATTERN...] [COLUMN...] --&gt;
/// ...generated...
/// &lt;!-- /table --&gt;
/// </code>
/// <para>
/// PATTERN is a glob over budget names (<c>*</c> any run of characters, dots included; <c>?</c> one character), e.g.
/// <c>Json.RoundTrip.*.BytesPerOp</c>; several patterns are separated by commas, and the rows keep the patterns'
/// order (names sorted within each). A pattern that matches no budget is an error. A budget is taken from
/// <c>results.json</c>; one that is absent there (its suite has not run since the results were cleared) but recorded
/// in <c>history.jsonl</c> is taken from its latest history entry, and its verdict is marked <c>†</c>.
/// </para>
/// <para>
/// COLUMNs, in the order given (default <c>budget measured limit unit headroom verdict</c>, followed by
/// <c>runs min median max spread</c> when <c>history.jsonl</c> exists):
/// <c>budget</c> (the name), <c>kind</c>, <c>measured</c>, <c>limit</c> (with ≤ or ≥ from the kind's direction),
/// <c>unit</c>, <c>headroom</c> (how far the figure is inside its limit, as a percentage of the limit; negative when
/// broken, <c>exact</c> for 0 against a 0 limit), <c>verdict</c>; and from the history: <c>runs</c> (runs that
/// measured the budget against its current limit, counting each run's last entry), <c>failed</c> (those of them that failed), <c>min</c>,
/// <c>median</c>, <c>max</c> (over the runs that did not fail, so a deliberate break does not set the range) and
/// <c>spread</c> (max ÷ min − 1). Runs recorded under another profile than the result's, and not-measured entries,
/// are left out.
/// </para>
/// <para>
/// Markers inside fenced code blocks (<c>```</c>, <c>~~~</c>) are examples and are left alone.
/// </para>
/// <para>
/// A data table renders a CSV file kept beside the documents, for one-off measurements that no run records:
/// <c>&lt;!-- table: csv PATH [COLUMN...] --&gt;</c>, PATH relative to the markdown file, COLUMNs by header name
/// (default all). Lines before the header that start with <c>#</c> are the file's provenance, printed under the
/// table; numeric cells are formatted like every other figure, and <c>_</c> in a header reads as a space.
/// <c>&lt;!-- table: csv PATH [COLUMN...] join OTHER COLUMN... --&gt;</c> adds columns of a second file to each row
/// of the first, matched on the first column of each (a dash where the second has no such row).
/// </para>
/// <para>
/// Under each table one line names the command that generated it and, for budget tables, the machine of the run
/// (cores, operating system, runtime) and its date, read from the results' machine information.
/// </para>
/// </remarks>
internal partial class DocTables
{
    /// <summary>The command the generated line names by default: the package's own (a repository that runs it from its build script names that instead).</summary>
    public const string DefaultGeneratedBy = "dotnet cake --target=Docs";

    /// <summary>The columns a budget table may ask for.</summary>
    public static IReadOnlyList<string> BudgetColumns { get; } =
        ["budget", "kind", "measured", "limit", "unit", "headroom", "verdict", "runs", "failed", "min", "median", "max", "spread"];

    private static readonly string[] DefaultColumns = ["budget", "measured", "limit", "unit", "headroom", "verdict"];
    private static readonly string[] DefaultHistoryColumns = ["runs", "min", "median", "max", "spread"];
    private static readonly HashSet<string> NumericColumns = new(StringComparer.Ordinal)
    {
        "measured", "limit", "headroom", "runs", "failed", "min", "median", "max", "spread",
    };

    /// <summary>
    /// Rewrites every table marker in the markdown files under <paramref name="docsDirectory"/> from the
    /// <c>results.json</c> (and <c>history.jsonl</c>) in <paramref name="resultsDirectory"/>, writing only the files
    /// whose text changes.
    /// </summary>
    /// <returns>The files rewritten (full paths); empty when every table was already up to date. Nothing is written when any marker is in error.</returns>
    /// <exception cref="FileNotFoundException">There is no <c>results.json</c> in <paramref name="resultsDirectory"/>.</exception>
    /// <exception cref="DocTablesException">A marker is malformed, or its pattern matches no budget.</exception>
    public static IReadOnlyList<string> UpdateDirectory(string resultsDirectory, string docsDirectory, string generatedBy = DefaultGeneratedBy)
    {
        return UpdateFiles(resultsDirectory, MarkdownFiles(docsDirectory), generatedBy);
    }

    /// <summary>The markdown files under <paramref name="docsDirectory"/>, in a stable order.</summary>
    public static IEnumerable<string> MarkdownFiles(string docsDirectory)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(docsDirectory);
        return Directory.EnumerateFiles(docsDirectory, "*.md", SearchOption.AllDirectories).Order(StringComparer.Ordinal);
    }

    /// <summary>
    /// As <see cref="UpdateDirectory"/>, for the markdown files <paramref name="markdownFiles"/> (a README beside the
    /// docs, say).
    /// </summary>
    public static IReadOnlyList<string> UpdateFiles(string resultsDirectory, IEnumerable<string> markdownFiles, string generatedBy = DefaultGeneratedBy)
    {
        ArgumentNullException.ThrowIfNull(markdownFiles);
        var data = DocTableData.Load(resultsDirectory);
        // Every file is rewritten in memory first, so a bad marker in one leaves all of them as they were.
        var changed = new List<(string Path, string Text)>();
        foreach (var file in markdownFiles)
        {
            var text = File.ReadAllText(file);
            var rewritten = Rewrite(text, file, data, generatedBy);
            if (!string.Equals(text, rewritten, StringComparison.Ordinal))
            {
                changed.Add((Path.GetFullPath(file), rewritten));
            }
        }

        foreach (var (path, text) in changed)
        {
            File.WriteAllText(path, text, new UTF8Encoding(false));
        }

        return changed.Select(c => c.Path).ToList();
    }

    /// <summary>
    /// Returns <paramref name="markdown"/> with every marker block filled from <paramref name="data"/>;
    /// <paramref name="path"/> names the file in errors, and its folder is where a CSV table's path starts.
    /// </summary>
    public static string Rewrite(string markdown, string path, DocTableData data, string generatedBy = DefaultGeneratedBy)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        ArgumentNullException.ThrowIfNull(path);
        ArgumentNullException.ThrowIfNull(data);
        var newline = markdown.Contains("\r\n", StringComparison.Ordinal) ? "\r\n" : "\n";
        var lines = markdown.Split('\n');
        var output = new StringBuilder(markdown.Length);
        var openedAt = 0;
        var inFence = false;
        for (var i = 0; i < lines.Length; i++)
        {
            var line = lines[i].TrimEnd('\r');
            var lineNumber = i + 1;
            if (openedAt == 0 && IsFence(line))
            {
                inFence = !inFence;
            }

            if (inFence || (openedAt == 0 && IsFence(line)))
            {
                // A marker shown in a code block is an example, not a table.
                output.Append(lines[i]);
                if (i < lines.Length - 1)
                {
                    output.Append('\n');
                }

                continue;
            }

            var open = OpenMarker().Match(line);
            var isClose = CloseMarker().IsMatch(line);
            if (!open.Success && !isClose && line.TrimStart().StartsWith("<!-- table", StringComparison.Ordinal))
            {
                throw new DocTablesException($"{path}:{lineNumber}: malformed table marker '{line.Trim()}': expected '<!-- table: budgets PATTERN [COLUMN...] -->', '<!-- table: csv PATH [COLUMN...] -->' or '<!-- /table -->'");
            }

            if (open.Success)
            {
                if (openedAt != 0)
                {
                    throw new DocTablesException($"{path}:{lineNumber}: a table marker opens inside the table opened at line {openedAt}; close that one first with '<!-- /table -->'");
                }

                openedAt = lineNumber;
                output.Append(line).Append(newline);
                var body = Render(open.Groups["spec"].Value, path, lineNumber, data, generatedBy);
                output.Append(newline);
                foreach (var bodyLine in body)
                {
                    output.Append(bodyLine).Append(newline);
                }

                output.Append(newline);
                continue;
            }

            if (isClose)
            {
                if (openedAt == 0)
                {
                    throw new DocTablesException($"{path}:{lineNumber}: '<!-- /table -->' closes no table");
                }

                openedAt = 0;
                output.Append(line);
                if (i < lines.Length - 1)
                {
                    output.Append(newline);
                }

                continue;
            }

            if (openedAt != 0)
            {
                continue; // the previous generated text, replaced
            }

            output.Append(lines[i]);
            if (i < lines.Length - 1)
            {
                output.Append('\n');
            }
        }

        if (openedAt != 0)
        {
            throw new DocTablesException($"{path}:{openedAt}: the table opened here is never closed with '<!-- /table -->'");
        }

        return output.ToString();
    }

    /// <summary>True when <paramref name="name"/> matches the glob <paramref name="pattern"/> (<c>*</c>, <c>?</c>).</summary>
    public static bool Matches(string pattern, string name)
    {
        ArgumentNullException.ThrowIfNull(pattern);
        ArgumentNullException.ThrowIfNull(name);
        var regex = "^" + Regex.Escape(pattern).Replace(@"\*", ".*", StringComparison.Ordinal).Replace(@"\?", ".", StringComparison.Ordinal) + "$";
        return Regex.IsMatch(name, regex, RegexOptions.CultureInvariant, TimeSpan.FromSeconds(1));
    }

    private static List<string> Render(string spec, string path, int lineNumber, DocTableData data, string generatedBy)
    {
        var words = spec.Split(' ', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
        return words switch
        {
            ["budgets", var patterns, .. var columns] => RenderBudgets(patterns, columns, path, lineNumber, data, generatedBy),
            ["csv", _, ..] => RenderCsv(words[1..], path, lineNumber, generatedBy),
            _ => throw new DocTablesException($"{path}:{lineNumber}: malformed table marker '{spec.Trim()}': expected 'budgets PATTERN [COLUMN...]' or 'csv PATH [COLUMN...]'"),
        };
    }

    private static List<string> RenderBudgets(string patterns, string[] requested, string path, int lineNumber, DocTableData data, string generatedBy)
    {
        var columns = requested.Length > 0 ? requested : data.HasHistory ? [.. DefaultColumns, .. DefaultHistoryColumns] : DefaultColumns;
        foreach (var column in columns)
        {
            if (!BudgetColumns.Contains(column))
            {
                throw new DocTablesException($"{path}:{lineNumber}: unknown column '{column}'; a budget table's columns are {string.Join(", ", BudgetColumns)}");
            }
        }

        var rows = new List<Row>();
        var seen = new HashSet<string>(StringComparer.Ordinal);
        foreach (var pattern in patterns.Split(',', StringSplitOptions.RemoveEmptyEntries))
        {
            var names = data.BudgetNames.Where(n => Matches(pattern, n)).ToList();
            if (names.Count == 0)
            {
                throw new DocTablesException($"{path}:{lineNumber}: the pattern '{pattern}' matches no budget in results.json or history.jsonl");
            }

            rows.AddRange(names.Where(seen.Add).Select(data.RowOf));
        }

        var lines = new List<string>
        {
            "| " + string.Join(" | ", columns) + " |",
            "|" + string.Join("|", columns.Select(c => NumericColumns.Contains(c) ? "---:" : "---")) + "|",
        };
        lines.AddRange(rows.Select(row => "| " + string.Join(" | ", columns.Select(c => Escape(Cell(row, c)))) + " |"));
        lines.Add(string.Empty);
        lines.Add(GeneratedLine(rows, data, generatedBy));
        return lines;
    }

    private static string GeneratedLine(List<Row> rows, DocTableData data, string generatedBy)
    {
        var fromResults = rows.Where(r => r.Result is not null).Select(r => r.Result!).ToList();
        var machines = (fromResults.Count > 0 ? fromResults : data.Results).Select(r => r.Machine).Distinct().ToList();
        var runs = machines.Count == 0
            ? "a run"
            : string.Join("; ", machines.Select(m => $"{m.LogicalCores} cores, {m.OperatingSystem}, {m.Runtime}"));
        var dates = fromResults.Select(r => r.TimestampUtc).Concat(rows.Where(r => r.Result is null).Select(r => r.Latest!.TimestampUtc)).ToList();
        var date = dates.Count == 0 ? string.Empty : $" ({dates.Max().UtcDateTime.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture)})";
        var text = new StringBuilder($"Generated by `{generatedBy}` from a run on {runs}{date}");
        if (rows.Any(r => r.Result is null))
        {
            text.Append("; † not in results.json: the latest entry in history.jsonl");
        }

        if (data.HasHistory)
        {
            text.Append("; history: every run in history.jsonl that measured the budget against its current limit, failed runs counted but left out of min–max");
        }

        return text.Append('.').ToString();
    }

    private static string Cell(Row row, string column)
    {
        var direction = BudgetKind.TryParse(row.Kind, out var kind) ? kind.Direction : (BudgetDirection?)null;
        return column switch
        {
            "budget" => $"`{row.Budget}`",
            "kind" => row.Kind,
            "measured" => Format(row.Measured),
            "limit" => row.Limit is { } limit && direction is { } dir ? (dir == BudgetDirection.AtMost ? "≤ " : "≥ ") + Format(limit) : "—",
            "unit" => row.Unit,
            "headroom" => Headroom(row.Measured, row.Limit, direction),
            "verdict" => (row.Verdict is BudgetVerdict.Fail ? "**fail**" : VerdictText(row.Verdict)) + (row.Result is null ? "†" : string.Empty),
            "runs" => row.History.Count.ToString(CultureInfo.InvariantCulture),
            "failed" => row.History.Count(h => h.Verdict is BudgetVerdict.Fail).ToString(CultureInfo.InvariantCulture),
            "min" => HistoryFigure(row, v => v.Min()),
            "median" => HistoryFigure(row, Median),
            "max" => HistoryFigure(row, v => v.Max()),
            "spread" => Spread(row),
            _ => throw new InvalidOperationException($"column '{column}' is validated before rendering"),
        };
    }

    private static string VerdictText(BudgetVerdict verdict) => verdict switch
    {
        BudgetVerdict.NotMeasured => "not measured",
        _ => verdict.ToString().ToLowerInvariant(),
    };

    private static string Headroom(double measured, double? limit, BudgetDirection? direction)
    {
        if (limit is not { } l || direction is not { } d)
        {
            return "—";
        }

        if (l == 0)
        {
            return measured == 0 ? "exact" : "over a zero limit";
        }

        var fraction = d == BudgetDirection.AtMost ? (l - measured) / Math.Abs(l) : (measured - l) / Math.Abs(l);
        return Figures.Percent(fraction * 100);
    }

    // The middle value, or the mean of the two middle ones.
    private static double Median(List<double> values)
    {
        var sorted = values.Order().ToArray();
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }

    private static string HistoryFigure(Row row, Func<List<double>, double> figure)
    {
        var values = row.HistoryValues;
        return values.Count == 0 ? "—" : Format(figure(values));
    }

    private static string Spread(Row row)
    {
        var values = row.HistoryValues;
        if (values.Count == 0)
        {
            return "—";
        }

        var (min, max) = (values.Min(), values.Max());
        return min == max ? "0%" : min > 0 ? Figures.Percent((max / min - 1) * 100) : "—";
    }

    /// <summary><see cref="Figures.Format"/>, with two significant digits for figures below 0.01 (which it would print as 0).</summary>
    internal static string Format(double value)
    {
        if (value != 0 && Math.Abs(value) < 0.01 && double.IsFinite(value))
        {
            var digits = Math.Min(15, 1 - (int)Math.Floor(Math.Log10(Math.Abs(value))));
            return Math.Round(value, digits).ToString("0.###############", CultureInfo.InvariantCulture);
        }

        return Figures.Format(value);
    }

    private static bool IsFence(string line)
    {
        var trimmed = line.TrimStart();
        return trimmed.StartsWith("```", StringComparison.Ordinal) || trimmed.StartsWith("~~~", StringComparison.Ordinal);
    }

    private static string Escape(string cell) => cell.Replace("|", "\\|", StringComparison.Ordinal);

    [GeneratedRegex(@"^\s*<!--\s*table:(?<spec>.*?)-->\s*$", RegexOptions.CultureInvariant)]
    private static partial Regex OpenMarker();

    [GeneratedRegex(@"^\s*<!--\s*/table\s*-->\s*$", RegexOptions.CultureInvariant)]
    private static partial Regex CloseMarker();

    /// <summary>One budget's row: its result (null when only the history has it) and its history entries.</summary>
    internal sealed record Row(string Budget, string Kind, double Measured, double? Limit, string Unit, BudgetVerdict Verdict,
        BudgetResult? Result, HistoryEntry? Latest, IReadOnlyList<HistoryEntry> History)
    {
        /// <summary>The figures of the runs that did not fail.</summary>
        public List<double> HistoryValues { get; } = History.Where(h => h.Verdict is not BudgetVerdict.Fail).Select(h => h.Measured).ToList();
    }
}
