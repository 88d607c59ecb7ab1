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
        || name.Any(IsBidiControl)
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
    /// <remarks>
    /// GitHub also turns text into things no markdown mark asks for, and those are broken too: a bare URL
    /// (<c>https://…</c>, <c>www.…</c>) or an e-mail address would be a link, <c>$…$</c> math, an <c>@name</c> a
    /// mention that notifies that user or team. A zero-width space goes after each <c>://</c>, <c>www</c> and <c>@</c>,
    /// which the reader does not see and the autolinker and the mentions do not match; a dollar is escaped. A
    /// bidirectional control (U+202E, right-to-left override, and its kin), which would make the text read other than
    /// it is, is written as its code point (<c>[U+202E]</c>).
    /// </remarks>
    public static string Text(string text)
    {
        var escaped = new StringBuilder(text.Length);
        if (text.Length > 0 && text[0] is '-' or '+' or '=')
        {
            escaped.Append('\\');
        }

        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            _ = c switch
            {
                '\\' or '`' or '*' or '_' or '[' or ']' or '|' or '~' or '#' or '!' or '$' => escaped.Append('\\').Append(c),
                '<' => escaped.Append("&lt;"),
                '>' => escaped.Append("&gt;"),
                '&' => escaped.Append("&amp;"),
                '\r' or '\n' => escaped.Append(' '),
                '@' => escaped.Append('@').Append(ZeroWidthSpace),
                ':' when text.AsSpan(i + 1).StartsWith("//", StringComparison.Ordinal) => escaped.Append(':').Append(ZeroWidthSpace),
                'w' or 'W' when text.AsSpan(i).StartsWith("www.", StringComparison.OrdinalIgnoreCase) => escaped.Append(c).Append(ZeroWidthSpace),
                _ when IsBidiControl(c) => escaped.Append(System.Globalization.CultureInfo.InvariantCulture, $"\\[U+{(int)c:X4}\\]"),
                _ => escaped.Append(c),
            };
        }

        return escaped.ToString();
    }

    /// <summary>
    /// A budget's detail as escaped <see cref="Text"/>, its first <see cref="MaxDetailLength"/> characters: a detail is
    /// a reason (the tool that was missing), and a run or a server could hand the summary megabytes of one.
    /// </summary>
    public static string Detail(string detail) =>
        Text(detail.Length <= MaxDetailLength ? detail : string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{detail[..MaxDetailLength].TrimEnd()}… ({detail.Length:N0} characters)"));

    /// <summary>The longest detail the summary prints whole: 300 characters, a few lines of a reason.</summary>
    public const int MaxDetailLength = 300;

    private const char ZeroWidthSpace = '\u200B';

    // The marks that reorder the text around them: ALM, LRM, RLM, the embeddings and overrides, the isolates.
    private static bool IsBidiControl(char c) => c is '\u061C' or '\u200E' or '\u200F' or (>= '\u202A' and <= '\u202E') or (>= '\u2066' and <= '\u2069');
}
