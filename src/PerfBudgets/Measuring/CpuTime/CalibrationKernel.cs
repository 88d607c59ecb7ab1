using System.Runtime.CompilerServices;
using System.Text;

namespace PerfBudgets.Measuring;

/// <summary>
/// A fixed piece of ordinary managed work that a CPU cost is expressed in. One unit is 16 rounds of what parsers and
/// serializers spend their time on: UTF-8 encoding and decoding of a short ASCII field, a search in it, formatting
/// and parsing an integer, a dictionary lookup and a string hash. A unit takes about a microsecond on a 2.6 GHz core.
/// </summary>
/// <remarks>
/// <para>
/// A budget is stored as operation CPU time ÷ unit CPU time (a unitless cost, "cal"), measured interleaved on the same
/// thread, so that it carries across machines of different speeds and cancels what slows both.
/// </para>
/// <para>
/// Why library code and not a synthetic loop: on a shared machine the largest disturbance is a busy sibling
/// hyperthread, which slowed the HPACK decoder and the JSON round trips by 1.6-1.9x on the 2-core CI machine. A
/// synthetic xorshift-and-table loop slowed by only 1.25-1.35x under the same disturbance, so its ratio still moved by
/// up to 40%; this mix slowed by 1.5-1.6x and its ratio moved by 5-18%. The cost of that choice: the kernel runs the
/// runtime's own UTF-8, formatting and dictionary code, so a runtime upgrade may shift every cost a little; the
/// budgets are measured on the SDK that <c>global.json</c> pins. The kernel must not change: every cost budget is
/// written in its units. Version: 2.
/// </para>
/// </remarks>
internal static class CalibrationKernel
{
    /// <summary>The kernel's version; a budget file written against another version does not apply.</summary>
    public const int Version = 2;

    private const int RoundsPerUnit = 16;
    private static readonly string Text = string.Concat(Enumerable.Range(0, 8).Select(i => $"name{i}=value-{i * 7919};"));
    private static readonly Dictionary<int, int> Lookup = Enumerable.Range(0, 512).ToDictionary(i => i * 7, i => i);

    /// <summary>Runs <paramref name="units"/> units of work and returns a value that depends on all of it.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public static ulong Run(int units)
    {
        Span<byte> utf8 = stackalloc byte[128];
        Span<char> chars = stackalloc char[128];
        Span<char> number = stackalloc char[16];
        var text = Text.AsSpan(0, 64);
        var lookup = Lookup;
        ulong acc = 0;
        for (var unit = 0; unit < units; unit++)
        {
            for (var round = 0; round < RoundsPerUnit; round++)
            {
                var seed = (unit * RoundsPerUnit) + round;
                var byteCount = Encoding.UTF8.GetBytes(text, utf8);
                var charCount = Encoding.UTF8.GetChars(utf8[..byteCount], chars);
                acc += (ulong)chars[..charCount].IndexOf('=');
                (seed * 7919).TryFormat(number, out var written);
                int.TryParse(number[..written], out var parsed);
                acc += lookup.TryGetValue((parsed & 511) * 7, out var value) ? (ulong)value : 1;
                acc += (ulong)string.GetHashCode(chars[..16]);
            }
        }

        return acc;
    }
}
