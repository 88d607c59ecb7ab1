using System.Globalization;
using PerfBudgets.Tool.Formats;

namespace PerfBudgets.Tool.Locust;

/// <summary>
/// One CSV file as Locust writes it (Python's <c>csv.writer</c>, RFC 4180: comma-separated, a field with a comma, quote
/// or line break is quoted and its quotes doubled, records end in CRLF or LF): a header row and data rows, each field
/// looked up by its column's name, so the reader does not depend on which percentile columns a Locust version writes.
/// </summary>
internal sealed class LocustCsv
{
    private readonly Dictionary<string, int> _columns;

    private LocustCsv(string source, IReadOnlyList<string> header, IReadOnlyList<IReadOnlyList<string>> rows)
    {
        Source = source;
        Header = header;
        Rows = rows;
        _columns = new Dictionary<string, int>(StringComparer.Ordinal);
        for (var i = 0; i < header.Count; i++)
        {
            _columns.TryAdd(header[i], i);
        }
    }

    /// <summary>Where the text came from, for messages.</summary>
    public string Source { get; }

    /// <summary>The column names.</summary>
    public IReadOnlyList<string> Header { get; }

    /// <summary>The data rows, each as long as the header.</summary>
    public IReadOnlyList<IReadOnlyList<string>> Rows { get; }

    /// <summary>Reads the file at <paramref name="path"/>.</summary>
    public static LocustCsv Read(string path)
    {
        if (!File.Exists(path))
        {
            throw new LocustStatsException($"{path} does not exist: run Locust with --csv PREFIX --csv-full-history (load/locust/run_locust.py) and give the same PREFIX.");
        }

        return Parse(File.ReadAllText(path), path);
    }

    /// <summary>Parses <paramref name="text"/>; <paramref name="source"/> names it in messages.</summary>
    public static LocustCsv Parse(string text, string source)
    {
        ArgumentNullException.ThrowIfNull(text);
        var records = CsvRecords.Records(text, source, message => new LocustStatsException(message));
        if (records.Count == 0)
        {
            throw new LocustStatsException($"{source} is empty: it has no header row.");
        }

        var header = records[0].Fields;
        for (var i = 1; i < records.Count; i++)
        {
            if (records[i].Fields.Count != header.Count)
            {
                throw new LocustStatsException(string.Create(CultureInfo.InvariantCulture,
                    $"{source}, line {records[i].Line}: {records[i].Fields.Count} fields where the header has {header.Count}."));
            }
        }

        return new LocustCsv(source, header, records.Skip(1).Select(r => r.Fields).ToArray());
    }

    /// <summary>The index of column <paramref name="name"/>.</summary>
    public int Column(string name) =>
        _columns.TryGetValue(name, out var index)
            ? index
            : throw new LocustStatsException($"{Source} has no column '{name}' (columns: {string.Join(", ", Header)}).");

    /// <summary>Whether the file has column <paramref name="name"/>.</summary>
    public bool HasColumn(string name) => _columns.ContainsKey(name);

    /// <summary>The number in column <paramref name="name"/> of <paramref name="row"/>; Locust's <c>N/A</c> (no requests yet) reads as 0.</summary>
    public double Number(IReadOnlyList<string> row, string name)
    {
        var text = row[Column(name)];
        if (text is "N/A" or "")
        {
            return 0;
        }

        return double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) && double.IsFinite(value)
            ? value
            : throw new LocustStatsException($"{Source}: column '{name}' holds '{text}', not a number.");
    }

    /// <summary>The text in column <paramref name="name"/> of <paramref name="row"/>.</summary>
    public string Text(IReadOnlyList<string> row, string name) => row[Column(name)];
}
