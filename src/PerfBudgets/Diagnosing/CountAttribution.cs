using System.Globalization;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace PerfBudgets.Diagnosing;

/// <summary>
/// What a counted budget's figure is made of, method by method, and which methods grew against a reference (the
/// recorded breakdown, or a baseline run's). Counts, not samples: a method that runs 186 more instructions per
/// operation shows exactly that.
/// </summary>
internal static class CountAttribution
{
    /// <summary>The unit of an instruction breakdown.</summary>
    public const string InstructionsUnit = "instructions/op";

    /// <summary>The unit of a system-call breakdown.</summary>
    public const string SystemCallsUnit = "syscalls/op";

    /// <summary>The unit of an estimated-cycles breakdown.</summary>
    public const string CyclesUnit = "cycles/op";

    /// <summary>How many entries a recorded breakdown keeps.</summary>
    public const int Kept = 40;

    /// <summary>
    /// The breakdown of <paramref name="measurement"/> for a budget of <paramref name="kind"/>: by method for
    /// instructions and for estimated cycles (where a cache regression shows: more misses, the same instructions), by
    /// calling function (the C library's wrappers) for system calls.
    /// </summary>
    public static Attribution From(InstructionMeasurement measurement, BudgetKind kind)
    {
        ArgumentNullException.ThrowIfNull(measurement);
        ArgumentNullException.ThrowIfNull(kind);
        var systemCalls = kind == BudgetKind.SyscallsMax;
        var cycles = kind == BudgetKind.CyclesMax;
        var unit = systemCalls ? SystemCallsUnit : cycles ? CyclesUnit : InstructionsUnit;
        var list = systemCalls ? measurement.SystemCallSites : cycles ? measurement.CycleMethods : measurement.Methods;
        var whole = list.Sum(m => m.PerOperation);
        var entries = list.Take(Kept)
            .Select(m => new AttributionEntry(m.Method, Math.Round(m.PerOperation, 2), unit, whole > 0 ? m.PerOperation / whole : null))
            .ToList();
        var fold = systemCalls || cycles ? null : InclusiveAttribution.Of(measurement);
        var what = systemCalls ? "system calls per op by caller"
            : cycles ? "estimated cycles per op by method (exclusive)"
            : fold is null ? "instructions per op by method (exclusive)"
            : "then by method (exclusive)";
        var summary = $"{what}: " + string.Join(", ", entries.Where(e => fold is null || !fold.IsOwn(e.Name)).Take(5).Select(e => string.Create(CultureInfo.InvariantCulture,
            $"{e.Name} {Figures.Format(e.Value)} ({e.Share:P0})")));
        if (fold is not null)
        {
            // The program's own methods first, with what they called: where a change made through a framework call shows.
            summary = "instructions per op, own code with what it called: " + string.Join(", ", fold.OwnMethods.Take(5).Select(m => string.Create(CultureInfo.InvariantCulture,
                $"{m.Method} {Figures.Format(Math.Round(m.Inclusive, 2))} ({(whole > 0 ? m.Inclusive / whole : 0):P0}, {Figures.Format(Math.Round(m.Exclusive, 2))} its own)"))) + $"; {summary}";
        }

        var ownCode = fold is null ? [] : fold.OwnMethods.Take(Kept)
            .Select(m => new AttributionEntry(m.Method, Math.Round(m.Inclusive, 2), unit, whole > 0 ? m.Inclusive / whole : null))
            .ToList();
        return new Attribution(summary, entries,
            "Counted by Callgrind in the repetition with the fewest; JIT-compiled methods named from the runtime's perf map" +
            (fold is null ? "." : "; own code is the methods of modules other than System.*, Microsoft.* and PerfBudgets, each with the framework, runtime and native code it called folded in from Callgrind's call graph."))
        {
            OwnCode = ownCode,
        };
    }

    /// <summary>
    /// The entries of <paramref name="current"/> that grew against <paramref name="reference"/> (by at least one
    /// instruction, or a hundredth of a system call, per operation), largest first; null when none did. With the
    /// measurement's call graph (<paramref name="fold"/>), the program's own methods whose cost grew, with what they
    /// called folded in, come first.
    /// </summary>
    /// <param name="current">This run's breakdown.</param>
    /// <param name="reference">The breakdown to compare with.</param>
    /// <param name="label">What the reference is, e.g. <c>the recording (budgets.methods.json)</c>.</param>
    /// <param name="fold">This run's instructions folded into the program's own methods, or null.</param>
    /// <param name="referenceOwnCode">
    /// The reference's own methods with what they called (<see cref="Attribution.OwnCode"/>): when there are some, each
    /// own method's growth is its own difference, and its share of <paramref name="grewBy"/> is given. A reference that
    /// kept none (recorded before own code was) leaves the exclusive growth credited in this run's shares.
    /// </param>
    /// <param name="grewBy">How much the figure grew since the reference, when known.</param>
    /// <param name="top">How many to name.</param>
    public static string? Grown(Attribution current, IReadOnlyList<AttributionEntry> reference, string label, InclusiveAttribution? fold = null,
        IReadOnlyList<AttributionEntry>? referenceOwnCode = null, double? grewBy = null, int top = 5)
    {
        ArgumentNullException.ThrowIfNull(current);
        ArgumentNullException.ThrowIfNull(reference);
        var unit = current.Entries.FirstOrDefault()?.Unit ?? InstructionsUnit;
        var threshold = unit == SystemCallsUnit ? 0.01 : 1;
        var before = reference.GroupBy(e => e.Name, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Sum(e => e.Value), StringComparer.Ordinal);
        // A method the compiler renumbered since the reference is compared with itself there, not taken for new.
        foreach (var (name, was) in GeneratedNames.Renumbered(current.Entries.Select(e => e.Name).Concat(fold?.Exclusive.Keys ?? []), before.Keys))
        {
            before[name] = before[was];
            before.Remove(was);
        }

        // An entry missing from a reference that keeps only its largest entries was at most the smallest one kept.
        var floor = reference.Count >= Kept ? reference.Min(e => e.Value) : 0;
        // Such an entry's "before" is that bound, not its own count: the message says so rather than print it as one.
        var grown = current.Entries
            .Select(e => (e.Name, Now: e.Value, Was: before.TryGetValue(e.Name, out var was) ? was : floor, Bound: !before.ContainsKey(e.Name) && floor > 0))
            .Where(c => c.Now - c.Was >= threshold)
            .OrderByDescending(c => c.Now - c.Was)
            .Take(top)
            .ToList();
        if (grown.Count == 0)
        {
            return null;
        }

        var byMethod = string.Join(", ", grown.Select(c => c.Bound
            ? string.Create(CultureInfo.InvariantCulture,
                $"{c.Name} at least +{Figures.Format(c.Now - c.Was)} {unit} (not among the {Kept} recorded, so at most {Figures.Format(c.Was)} then → {Figures.Format(c.Now)})")
            : string.Create(CultureInfo.InvariantCulture,
                $"{c.Name} +{Figures.Format(c.Now - c.Was)} {unit} ({Figures.Format(c.Was)} → {Figures.Format(c.Now)})")));
        if (unit == InstructionsUnit && referenceOwnCode is { Count: > 0 }
            && OwnCodeGrowth.Describe(current.OwnCode, referenceOwnCode, grewBy, label, threshold, Kept) is { } ownGrowth)
        {
            return $"{ownGrowth}; then by method (exclusive): {byMethod}";
        }

        var own = unit == InstructionsUnit && fold is not null ? OwnGrown(fold, before, floor, threshold, top) : [];
        return own.Count == 0
            ? $"grew since {label}: {byMethod}"
            : $"grew since {label}, own code with what it called: " + string.Join(", ", own.Select(m => string.Create(CultureInfo.InvariantCulture,
                $"{m.Method} +{Figures.Format(Math.Round(m.Growth))} {unit} (now {Figures.Format(Math.Round(m.Now))})"))) + $"; then by method (exclusive): {byMethod}";
    }

    // The program's methods whose folded cost grew: every name's exclusive growth (a name the reference left out grew
    // by at least its count above the reference's smallest), credited in the shares the fold gives it now.
    private static List<(string Method, double Growth, double Now)> OwnGrown(InclusiveAttribution fold, Dictionary<string, double> before, double floor, double threshold, int top)
    {
        var growth = fold.Exclusive.Keys.Union(before.Keys, StringComparer.Ordinal).ToDictionary(
            name => name,
            name =>
            {
                var now = fold.Exclusive.GetValueOrDefault(name);
                return before.TryGetValue(name, out var was) ? now - was : Math.Max(0, now - floor);
            },
            StringComparer.Ordinal);
        var now = fold.OwnMethods.ToDictionary(m => m.Method, m => m.Inclusive, StringComparer.Ordinal);
        return fold.Grown(growth).Where(m => m.Growth >= threshold).Take(top).Select(m => (m.Method, m.Growth, now[m.Method])).ToList();
    }
}
