using System.Text.RegularExpressions;

namespace PerfBudgets.Diagnosing;

/// <summary>
/// Matches a method of this run with the same method of a reference (the recording, a baseline run) where the compiler
/// renumbered what it generated: an async method's state machine (<c>&lt;CopyAsync&gt;d__1</c> →
/// <c>&lt;CopyAsync&gt;d__3</c> once another async method is added before it), a lambda (<c>&lt;Build&gt;b__0_0</c>), its
/// closure class (<c>&lt;&gt;c__DisplayClass3_0</c>) and a local function (<c>&lt;Run&gt;g__Step|3_0</c>) are numbered by
/// their order in the type. Compared by name alone, the renumbered method reads as new, its whole cost as growth. A name
/// is matched without its ordinals only where exactly one method of the reference and one of this run have that name,
/// and the reference's own name is not in this run: two lambdas of one method are never taken for each other.
/// </summary>
/// <remarks>
/// The counted budgets' breakdowns match through it, and so does a paired budget's profile against its base
/// (PerfBudgets.Diagnostics): one rule for every comparison of methods by name.
/// </remarks>
public static partial class GeneratedNames
{
    /// <summary><paramref name="name"/> without the ordinals the compiler numbers generated types and methods by.</summary>
    /// <param name="name">A method's or type's full name, as a profile or a breakdown gives it.</param>
    /// <exception cref="ArgumentNullException"><paramref name="name"/> is null.</exception>
    public static string WithoutOrdinals(string name)
    {
        ArgumentNullException.ThrowIfNull(name);
        return Ordinals().Replace(name, "#");
    }

    /// <summary>
    /// For every name of <paramref name="now"/> missing from <paramref name="reference"/>, the reference's name it is
    /// the same as but for the compiler's ordinals, where that match is unique both ways.
    /// </summary>
    /// <param name="now">The names of this run (duplicates are read once).</param>
    /// <param name="reference">The names of the reference it is compared with.</param>
    /// <returns>This run's name → the reference's name; names found in the reference as they are, or matched by no rule, are not in it.</returns>
    /// <exception cref="ArgumentNullException">Either list is null.</exception>
    public static IReadOnlyDictionary<string, string> Renumbered(IEnumerable<string> now, IEnumerable<string> reference)
    {
        ArgumentNullException.ThrowIfNull(now);
        ArgumentNullException.ThrowIfNull(reference);
        var current = now.Distinct(StringComparer.Ordinal).ToList();
        var present = current.ToHashSet(StringComparer.Ordinal);
        var was = reference.Distinct(StringComparer.Ordinal).ToList();
        var known = was.ToHashSet(StringComparer.Ordinal);
        var referenceByStable = was.GroupBy(WithoutOrdinals, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.ToList(), StringComparer.Ordinal);
        var currentByStable = current.GroupBy(WithoutOrdinals, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Count(), StringComparer.Ordinal);
        var matches = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var name in current.Where(n => !known.Contains(n)))
        {
            var stable = WithoutOrdinals(name);
            if (stable != name && currentByStable[stable] == 1
                && referenceByStable.TryGetValue(stable, out var candidates) && candidates is [var only] && !present.Contains(only))
            {
                matches[name] = only;
            }
        }

        return matches;
    }

    // d__3, b__0_0, c__DisplayClass3_0, g__Step|3_0: the digits after a generated name's marker.
    [GeneratedRegex(@"(?<=>[a-z]__)\d+(?:_\d+)?|(?<=c__DisplayClass)\d+(?:_\d+)?|(?<=>g__[^|<>]+\|)\d+(?:_\d+)?")]
    private static partial Regex Ordinals();
}
