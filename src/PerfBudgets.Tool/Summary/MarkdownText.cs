using System.Text;

namespace PerfBudgets.Tool.Summary;

/// <summary>
/// Text from a run or a results server written into the pull-request summary's markdown as the characters it is:
/// escaped text, or code where nothing in it can end the code span.
/// </summary>
internal static class MarkdownText
{
    /// <summary>
    /// A method name as code, where nothing in it can end the code span (a backtick) or the line; a pipe would still
    /// end the table's cell, even inside backticks, and is escaped as GitHub reads it. Any other name is escaped text.
    /// </summary>
    public static string MethodName(string name) =>
        name.Contains('`', StringComparison.Ordinal) || name.Contains('\n', StringComparison.Ordinal) || name.Contains('\r', StringComparison.Ordinal)
            ? Text(name)
            : $"`{name.Replace("|", "\\|", StringComparison.Ordinal)}`";

    // Enough of a SHA to find it; a name that is not a SHA is left whole.
    private static string Short(string commit) => commit.Length == 40 ? commit[..10] : commit;

    /// <summary>
    /// A commit as code; one the server named that is not a plain ref (a backtick would end the code span, a newline
    /// the line) is escaped text instead.
    /// </summary>
    public static string CommitCode(string commit) =>
        commit.Length > 0 && commit.All(c => char.IsAsciiLetterOrDigit(c) || c is '.' or '_' or '-' or '/') ? $"`{Short(commit)}`" : Text(commit);

    /// <summary>
    /// Text from a results file or the server (budget names, units, commits, a branch, either run's attribution: its
    /// method names, units, summary and change, a budget's detail) made inert in markdown: GitHub renders some HTML and
    /// every emphasis, link, image, heading and table mark, so whatever a run or the server holds reaches the pull
    /// request as the characters it is. Line breaks become spaces (one would end a table row or a list item), and a
    /// text that starts a line cannot start a list, a quote or a heading's underline.
    /// </summary>
    public static string Text(string text)
    {
        var escaped = new StringBuilder(text.Length);
        if (text.Length > 0 && text[0] is '-' or '+' or '=')
        {
            escaped.Append('\\');
        }

        foreach (var c in text)
        {
            _ = c switch
            {
                '\\' or '`' or '*' or '_' or '[' or ']' or '|' or '~' or '#' or '!' => escaped.Append('\\').Append(c),
                '<' => escaped.Append("&lt;"),
                '>' => escaped.Append("&gt;"),
                '&' => escaped.Append("&amp;"),
                '\r' or '\n' => escaped.Append(' '),
                _ => escaped.Append(c),
            };
        }

        return escaped.ToString();
    }
}
