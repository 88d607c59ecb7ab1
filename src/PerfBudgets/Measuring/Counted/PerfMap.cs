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
    private readonly string?[] _modules;

    private PerfMap(ulong[] starts, ulong[] ends, string[] names, string?[] modules)
    {
        _starts = starts;
        _ends = ends;
        _names = names;
        _modules = modules;
    }

    /// <summary>A map that names nothing (no perf map was written).</summary>
    public static PerfMap Empty { get; } = new([], [], [], []);

    /// <summary>How many code ranges the map names.</summary>
    public int Count => _names.Length;

    /// <summary>The perf map file of process <paramref name="processId"/>.</summary>
    public static string PathFor(int processId) => Path.Combine("/tmp", string.Create(CultureInfo.InvariantCulture, $"perf-{processId}.map"));

    /// <summary>Reads a perf map; lines that are not "hex-start hex-size name" are skipped.</summary>
    public static PerfMap Read(string path)
    {
        ArgumentException.ThrowIfNullOrEmpty(path);
        var entries = new List<(ulong Start, ulong End, string Name, string? Module)>();
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

            var name = line[(second + 1)..];
            entries.Add((start, start + size, Label(Tidy(name)), Module(name)));
        }

        entries.Sort((a, b) => a.Start.CompareTo(b.Start));
        return new PerfMap([.. entries.Select(e => e.Start)], [.. entries.Select(e => e.End)], [.. entries.Select(e => e.Name)], [.. entries.Select(e => e.Module)]);
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

        return IndexOf(callgrindName) is { } index ? _names[index] : null;
    }

    /// <summary>
    /// The assembly of the method at a Callgrind function name (<c>TextStats</c> for
    /// <c>[TextStats] TextStats.WordCounter::Add</c>), or null for a stub, a native symbol or an address the map does
    /// not cover.
    /// </summary>
    public string? ModuleOf(string callgrindName)
    {
        ArgumentNullException.ThrowIfNull(callgrindName);
        return callgrindName.StartsWith("0x", StringComparison.Ordinal) && IndexOf(callgrindName) is { } index ? _modules[index] : null;
    }

    private int? IndexOf(string callgrindName)
    {
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
                return i;
            }
        }

        return null;
    }

    /// <summary>What the perf map calls the block of write barriers the runtime copies at startup, after the function that writes the entry.</summary>
    internal const string CopiedWriteBarriers = "stub InitThreadManagerPerfMapData<JIT_CopiedWriteBarriers>";

    /// <summary>The label of the GC's write barriers (every store of a reference into the heap runs one).</summary>
    internal const string WriteBarrierLabel = "stub GC write barrier (JIT_CopiedWriteBarriers)";

    // A name the runtime gives after the code that reported it rather than what it is, read as what it is.
    private static string Label(string name) => name == CopiedWriteBarriers ? WriteBarrierLabel : name;

    // The module of a method's entry: "[TextStats]" in "instance int32 [TextStats] TextStats.WordCounter::Add(...)", the
    // last bracketed name before the signature (earlier ones name the return type's assembly); stubs have none.
    private static string? Module(string name)
    {
        var open = name.IndexOf('(', StringComparison.Ordinal);
        var head = open < 0 ? name : name[..open];
        var end = head.LastIndexOf("] ", StringComparison.Ordinal);
        var start = end < 0 ? -1 : head.LastIndexOf('[', end);
        return start < 0 ? null : head[(start + 1)..end];
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
