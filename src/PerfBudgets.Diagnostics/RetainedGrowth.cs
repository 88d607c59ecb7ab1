using System.Globalization;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// What grew on the live heap between two readings that walked it, by type and per operation: the attribution of a
/// broken <c>retained-bytes-per-op-max</c> budget (<c>List`1[Employee] +1.00 objects/op +56 B/op, …</c>).
/// </summary>
/// <param name="Types">Every type whose live count or bytes changed, most bytes gained per operation first.</param>
/// <param name="Operations">The operations between the two readings.</param>
/// <param name="Operation">What one operation is (<c>request</c>, <c>op</c>).</param>
public sealed record RetainedGrowth(IReadOnlyList<RetainedTypeGrowth> Types, int Operations, string Operation)
{
    /// <summary>
    /// The growth from <paramref name="before"/> to <paramref name="after"/> over <paramref name="operations"/>
    /// operations; throws when either reading did not walk the heap (no types).
    /// </summary>
    public static RetainedGrowth Between(HeapReading before, HeapReading after, int operations, string operation = "op")
    {
        ArgumentNullException.ThrowIfNull(before);
        ArgumentNullException.ThrowIfNull(after);
        ArgumentOutOfRangeException.ThrowIfLessThan(operations, 1);
        if (before.ByType is null || after.ByType is null)
        {
            throw new ArgumentException("Both readings must name their live types (a heap walk, e.g. GcHeapSnapshot).");
        }

        var types = new List<RetainedTypeGrowth>();
        foreach (var name in before.ByType.Keys.Union(after.ByType.Keys, StringComparer.Ordinal))
        {
            before.ByType.TryGetValue(name, out var was);
            after.ByType.TryGetValue(name, out var now);
            if ((now.Objects != was.Objects || now.Bytes != was.Bytes) && !IsReadingsOwn(name))
            {
                types.Add(new RetainedTypeGrowth(name, (double)(now.Objects - was.Objects) / operations, (double)(now.Bytes - was.Bytes) / operations));
            }
        }

        types.Sort((a, b) => b.BytesPerOperation.CompareTo(a.BytesPerOperation) is var byBytes and not 0
            ? byBytes
            : string.CompareOrdinal(a.TypeName, b.TypeName));
        return new RetainedGrowth(types, operations, operation);
    }

    // The readings themselves live in the measured process while it is read (a dictionary of LiveTypeCount per reading
    // kept for the next): the meter's own bookkeeping, not the operation's, so it is never named as what grew.
    private static bool IsReadingsOwn(string typeName) =>
        typeName.Contains("PerfBudgets.Measuring.LiveTypeCount", StringComparison.Ordinal) || typeName.Contains("PerfBudgets.Measuring.HeapReading", StringComparison.Ordinal);

    /// <summary>The growth of a measurement's second interval (the budget's figure), when its readings walked the heap.</summary>
    public static RetainedGrowth OfSecondInterval(RetainedMemoryMeasurement measurement)
    {
        ArgumentNullException.ThrowIfNull(measurement);
        return Between(measurement.AfterFirst, measurement.AfterSecond, measurement.SecondOperations, measurement.Operation);
    }

    /// <summary>Live bytes gained per operation, all types.</summary>
    public double BytesPerOperation => Types.Sum(t => t.BytesPerOperation);

    /// <summary>
    /// The types that gained the most, as a failure shows them:
    /// <c>grew per request: System.Collections.Generic.List`1[SystemUnderTest.Json.Employee] +1.00 objects/request +32 B/request, …</c>.
    /// Only types that gained bytes are named.
    /// </summary>
    public string Describe(int top = 5)
    {
        var grown = Types.Where(t => t.BytesPerOperation > 0).ToList();
        if (grown.Count == 0)
        {
            return string.Create(CultureInfo.InvariantCulture, $"grew per {Operation}: no type gained live bytes over {Operations:N0} {Operation}s");
        }

        var named = string.Join(", ", grown.Take(top).Select(t => string.Create(CultureInfo.InvariantCulture,
            $"{t.TypeName} {t.ObjectsPerOperation:+0.00;-0.00;0.00} objects/{Operation} +{Figures.Format(Math.Round(t.BytesPerOperation, 1))} B/{Operation}")));
        var more = grown.Count > top ? ", …" : string.Empty;
        return string.Create(CultureInfo.InvariantCulture,
            $"grew per {Operation}: {named}{more} ({BytesPerOperation:+#,0.#;-#,0.#;0} B/{Operation} in all types over {Operations:N0} {Operation}s){Offset(grown, top)}");
    }

    // When types that lost live bytes gave back most of what the named types gained, the gains are objects replaced
    // between the readings (a buffer swapped for a larger one, strings rebuilt), not what the operation keeps: a
    // reader who saw only "System.String +3,916 B/op" beside a budget of 64 B/op would chase the wrong type. The
    // shrinking types are named so that the gross moves and the net add up.
    private string Offset(List<RetainedTypeGrowth> grown, int top)
    {
        var gained = grown.Sum(t => t.BytesPerOperation);
        var lost = Types.Where(t => t.BytesPerOperation < 0).OrderBy(t => t.BytesPerOperation).ThenBy(t => t.TypeName, StringComparer.Ordinal).ToList();
        var given = -lost.Sum(t => t.BytesPerOperation);
        if (given < gained / 2)
        {
            return string.Empty;
        }

        var named = string.Join(", ", lost.Take(top).Select(t => string.Create(CultureInfo.InvariantCulture,
            $"{t.TypeName} -{Figures.Format(Math.Round(-t.BytesPerOperation, 1))} B/{Operation}")));
        var more = lost.Count > top ? ", …" : string.Empty;
        return string.Create(CultureInfo.InvariantCulture,
            $"; offset by types that lost live bytes: {named}{more}: {given / gained:0%} of the gains above was given back, so they are mostly objects replaced between the readings, not kept; the net is what the budget measures");
    }

    /// <summary>The growth as a budget result's <see cref="Attribution"/>: every type that gained bytes, largest first.</summary>
    public Attribution ToAttribution(int top = 5)
    {
        var gained = Types.Where(t => t.BytesPerOperation > 0).ToList();
        var total = gained.Sum(t => t.BytesPerOperation);
        var entries = gained
            .Select(t => new AttributionEntry(t.TypeName, Math.Round(t.BytesPerOperation, 1), $"B/{Operation}", total > 0 ? t.BytesPerOperation / total : null))
            .ToList();
        var note = string.Create(CultureInfo.InvariantCulture,
            $"live objects by type in two heap snapshots {Operations:N0} {Operation}s apart, each after a full blocking collection; exact counts, not samples");
        return new Attribution(Describe(top), entries, note);
    }

    /// <inheritdoc />
    public override string ToString() => Describe();
}
