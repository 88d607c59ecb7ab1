using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// The runtime's perf map (<c>/tmp/perf-PID.map</c>, written with <c>DOTNET_PerfMapEnabled=3</c>): start address, size
/// and name of every method the JIT compiled and every stub it made, so that code addresses in a Callgrind profile,
/// which has no symbols for JIT-compiled code, can be named.
/// </summary>
internal sealed class PerfMap
{
    private readonly ulong[] _starts;
    private readonly ulong[] _ends;
    private readonly string[] _names;

    private PerfMap(ulong[] starts, ulong[] ends, string[] names)
    {
        _starts = starts;
        _ends = ends;
        _names = names;
    }

    /// <summary>A map that names nothing (no perf map was written).</summary>
    public static PerfMap Empty { get; } = new([], [], []);

    /// <summary>How many code ranges the map names.</summary>
    public int Count => _names.Length;

    /// <summary>The perf map file of process <paramref name="processId"/>.</summary>
    public static string PathFor(int processId) => Path.Combine("/tmp", string.Create(CultureInfo.InvariantCulture, $"perf-{processId}.map"));

    /// <summary>Reads a perf map; lines that are not "hex-start hex-size name" are skipped.</summary>
    public static PerfMap Read(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        var entries = new List<(ulong Start, ulong End, string Name)>();
        foreach (var line in File.ReadLines(path))
        {
            var first = line.IndexOf(' ', StringComparison.Ordinal);
            var second = first < 0 ? -1 : line.IndexOf(' ', first + 1);
            if (second < 0
                || !ulong.TryParse(Hex(line.AsSpan(0, first)), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out var start)
                || !ulong.TryParse(Hex(line.AsSpan(first + 1, second - first - 1)), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out var size))
            {
                continue;
            }

            entries.Add((start, start + size, Tidy(line[(second + 1)..])));
        }

        entries.Sort((a, b) => a.Start.CompareTo(b.Start));
        return new PerfMap([.. entries.Select(e => e.Start)], [.. entries.Select(e => e.End)], [.. entries.Select(e => e.Name)]);
    }

    /// <summary>
    /// The name of the code at a Callgrind function name such as <c>0x000000005ee72650</c>; a name that is not an
    /// address (a native symbol) is returned as it is, an address the map does not cover as null.
    /// </summary>
    public string? Resolve(string callgrindName)
    {
        ArgumentNullException.ThrowIfNull(callgrindName);
        if (!callgrindName.StartsWith("0x", StringComparison.Ordinal))
        {
            return callgrindName;
        }

        if (!ulong.TryParse(callgrindName.AsSpan(2), NumberStyles.HexNumber, CultureInfo.InvariantCulture, out var address))
        {
            return null;
        }

        var index = Array.BinarySearch(_starts, address);
        if (index < 0)
        {
            index = ~index - 1;
        }

        // Stub blocks enclose the stubs and methods written into them: the innermost range that holds the address
        // wins, so walk back from the nearest start until one does (stub blocks are 64 KiB, so a few entries at most).
        for (var i = index; i >= 0 && i > index - 64; i--)
        {
            if (address < _ends[i])
            {
                return _names[i];
            }
        }

        return null;
    }

    private static ReadOnlySpan<char> Hex(ReadOnlySpan<char> text) =>
        text.StartsWith("0x", StringComparison.OrdinalIgnoreCase) ? text[2..] : text;

    // "instance void [SystemUnderTest] SystemUnderTest.HPack.HPackDecoder::Decode(valuetype ...)[Optimized]" reads
    // as "SystemUnderTest.HPack.HPackDecoder::Decode": the type and method, without signature, module or tier.
    private static string Tidy(string name)
    {
        var open = name.IndexOf('(', StringComparison.Ordinal);
        var head = open < 0 ? name : name[..open];
        var module = head.LastIndexOf("] ", StringComparison.Ordinal);
        if (module >= 0)
        {
            head = head[(module + 2)..];
        }
        else if (head.LastIndexOf(' ') is var space and >= 0 && head.Contains("::", StringComparison.Ordinal))
        {
            head = head[(space + 1)..];
        }

        return head.Trim();
    }
}
