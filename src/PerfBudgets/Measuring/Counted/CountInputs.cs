using System.Security.Cryptography;
using System.Text;

namespace PerfBudgets.Measuring;

/// <summary>
/// What a counted run depends on, one line each (<see cref="CountKey.Inputs"/>: Valgrind, the kernel, the start, the
/// keyed variables, every file of the host's folder, what the meter tells the running host), and their digest, the
/// key a store finds the run by. The lines are kept with the stored run, so that a run that finds no entry can say
/// which of its inputs differ from the nearest stored run's (<see cref="Differences"/>).
/// </summary>
internal sealed class CountInputs
{
    public CountInputs(IReadOnlyList<string> lines)
    {
        Lines = lines;
        using var hash = IncrementalHash.CreateHash(HashAlgorithmName.SHA256);
        foreach (var line in lines)
        {
            hash.AppendData(Encoding.UTF8.GetBytes(line + "\n"));
        }

        Key = Convert.ToHexStringLower(hash.GetHashAndReset());
    }

    /// <summary>The inputs, one per line, in a fixed order.</summary>
    public IReadOnlyList<string> Lines { get; }

    /// <summary>The SHA-256 of the lines, in hexadecimal.</summary>
    public string Key { get; }

    /// <summary>
    /// What differs between <paramref name="stored"/> (an earlier run's lines) and these, as short phrases, the most
    /// telling first: Valgrind, the kernel and the program, then variables (with both values), arguments, steering lines,
    /// and the files of the host's folder (changed, added or gone) last, the code a process loads before its symbols and
    /// documentation (a rebuild changes both, and the assembly is the news). Empty when the lines are the same.
    /// </summary>
    public IReadOnlyList<string> Differences(IReadOnlyList<string> stored)
    {
        var before = Keyed(stored);
        var now = Keyed(Lines);
        var phrases = new List<(int Order, string Text)>();
        foreach (var name in before.Keys.Union(now.Keys).Order(StringComparer.Ordinal))
        {
            var was = before.GetValueOrDefault(name) ?? [];
            var @is = now.GetValueOrDefault(name) ?? [];
            if (was.SequenceEqual(@is, StringComparer.Ordinal))
            {
                continue;
            }

            var space = name.IndexOf(' ', StringComparison.Ordinal);
            var (kind, what) = space < 0 ? (name, string.Empty) : (name[..space], name[(space + 1)..]);
            // The first place the two differ: for a file or a variable its one value, for the arguments the first
            // argument that is not the same.
            var at = Enumerable.Range(0, Math.Max(was.Count, @is.Count)).First(i => i >= was.Count || i >= @is.Count || was[i] != @is[i]);
            var (from, to) = (Shown(was.ElementAtOrDefault(at)), Shown(@is.ElementAtOrDefault(at)));
            phrases.Add(kind switch
            {
                "file" or "driverfile" => (IsCode(what) ? 4 : 5, $"{(kind == "file" ? "file" : "the driving code's file")} {what} {(was.Count == 0 ? "is new" : @is.Count == 0 ? "is gone" : "changed")}"),
                "variable" => (1, $"{what} {from} → {to}"),
                "argument" or "steering" => (2, $"{kind} {at + 1} {from} → {to}"),
                _ => (0, $"{kind} {from} → {to}"),
            });
        }

        return phrases.OrderBy(p => p.Order).Select(p => p.Text).ToList();
    }

    // Each line by what it is about, with its values in order: a file by its path, a variable by its name, the other
    // kinds (the arguments repeat) by kind alone.
    private static Dictionary<string, List<string>> Keyed(IReadOnlyList<string> lines)
    {
        var keyed = new Dictionary<string, List<string>>(StringComparer.Ordinal);
        foreach (var line in lines)
        {
            var space = line.IndexOf(' ', StringComparison.Ordinal);
            var (kind, rest) = space < 0 ? ("format", line) : (line[..space], line[(space + 1)..]);
            var (name, value) = kind switch
            {
                "file" or "driverfile" when rest.LastIndexOf(' ') is var at and > 0 => ($"{kind} {rest[..at]}", rest[(at + 1)..]),
                "variable" when rest.IndexOf('=', StringComparison.Ordinal) is var at and > 0 => ($"variable {rest[..at]}", rest[(at + 1)..]),
                _ => (kind, rest),
            };
            if (!keyed.TryGetValue(name, out var values))
            {
                keyed[name] = values = [];
            }

            values.Add(value);
        }

        return keyed;
    }

    // Symbols and documentation files are never loaded as code.
    private static bool IsCode(string path) =>
        !path.EndsWith(".pdb", StringComparison.OrdinalIgnoreCase) && !path.EndsWith(".xml", StringComparison.OrdinalIgnoreCase);

    private static string Shown(string? value) => value switch
    {
        null => "(none)",
        "" => "(empty)",
        { Length: <= 60 } => value,
        _ => value[..57] + "...",
    };

    /// <summary>
    /// What kind of counted run these are the inputs of: the first line the meter told the running host (a served
    /// workload and its name, a server's session), or null for a run that needs none (a workload host's own regions).
    /// </summary>
    public string? Kind => KindOf(Lines);

    /// <summary>The kind of counted run <paramref name="lines"/> are the inputs of (<see cref="Kind"/>).</summary>
    public static string? KindOf(IReadOnlyList<string> lines) => lines.FirstOrDefault(line => line.StartsWith("steering ", StringComparison.Ordinal));
}
