using System.Globalization;
using System.Text;

namespace PerfBudgets.Tool.Formats;

/// <summary>
/// The records of a CSV text (RFC 4180, as Python's <c>csv.writer</c> writes it: comma-separated, a field with a comma,
/// quote or line break is quoted and its quotes doubled, records end in CRLF or LF). One reader for every CSV the
/// harness reads: Locust's statistics and the data tables of the documentation.
/// </summary>
internal static class CsvRecords
{
    /// <summary>
    /// Splits <paramref name="text"/> into records, each with the line it starts on; <paramref name="source"/> names the
    /// text in messages, and <paramref name="error"/> makes the caller's exception for malformed text.
    /// </summary>
    // One pass over the text, character by character; a record ends at an unquoted line break. A blank line is no record.
    public static List<(int Line, IReadOnlyList<string> Fields)> Records(string text, string source, Func<string, Exception> error)
    {
        var records = new List<(int, IReadOnlyList<string>)>();
        var fields = new List<string>();
        var field = new StringBuilder();
        var line = 1;
        var recordLine = 1;
        var quoted = false;       // inside a quoted field
        var fieldQuoted = false;  // the current field began with a quote
        var afterQuote = false;   // its closing quote was read: only a comma or a line break may follow
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (quoted)
            {
                if (c == '"' && i + 1 < text.Length && text[i + 1] == '"')
                {
                    field.Append('"');
                    i++;
                }
                else if (c == '"')
                {
                    quoted = false;
                    afterQuote = true;
                }
                else
                {
                    line += c == '\n' ? 1 : 0;
                    field.Append(c);
                }

                continue;
            }

            switch (c)
            {
                case '"' when field.Length == 0 && !fieldQuoted:
                    quoted = true;
                    fieldQuoted = true;
                    break;
                case ',':
                    fields.Add(field.ToString());
                    field.Clear();
                    fieldQuoted = false;
                    afterQuote = false;
                    break;
                case '\r' when i + 1 < text.Length && text[i + 1] == '\n':
                    break;
                case '\n' or '\r':
                    EndRecord();
                    line++;
                    recordLine = line;
                    break;
                default:
                    if (afterQuote || c == '"')
                    {
                        throw error(string.Create(CultureInfo.InvariantCulture,
                            $"{source}, line {line}: {(afterQuote ? "text after a closing quote" : "a quote inside an unquoted field")}."));
                    }

                    field.Append(c);
                    break;
            }
        }

        if (quoted)
        {
            throw error(string.Create(CultureInfo.InvariantCulture, $"{source}, line {recordLine}: a quoted field is not closed before the end of the file."));
        }

        EndRecord();
        return records;

        void EndRecord()
        {
            if (fields.Count > 0 || field.Length > 0 || fieldQuoted)
            {
                fields.Add(field.ToString());
                records.Add((recordLine, fields.ToArray()));
            }

            fields.Clear();
            field.Clear();
            fieldQuoted = false;
            afterQuote = false;
        }
    }
}
