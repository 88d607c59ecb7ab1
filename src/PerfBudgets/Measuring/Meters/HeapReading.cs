using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// What is alive on a process's managed heap right after a full blocking collection: the bytes the collection kept,
/// and, when the reading walked the heap, the live objects by type.
/// </summary>
public sealed record HeapReading
{
    /// <summary>Bytes that survived a full blocking collection.</summary>
    public required long LiveBytes { get; init; }

    /// <summary>Live objects, or -1 when the reading did not count them.</summary>
    public required long LiveObjects { get; init; }

    /// <summary>Live objects and bytes by type name, or null when the reading did not walk the heap.</summary>
    public IReadOnlyDictionary<string, LiveTypeCount>? ByType { get; init; }

    /// <summary>How long the reading took (collection, and the heap walk when there is one).</summary>
    public required TimeSpan Cost { get; init; }

    /// <summary>The collector's heap count (1 for workstation GC, one per core for server GC), or 0 when unknown.</summary>
    public int GcHeaps { get; init; }

    /// <summary>
    /// The bytes the collection itself counted as surviving (all generations), when the reading saw that figure, else
    /// -1: beside <see cref="LiveBytes"/> summed from a heap walk, a check that the walk saw the live heap and no more.
    /// </summary>
    public long CollectorSurvivedBytes { get; init; } = -1;

    /// <summary>Live objects of the type named <paramref name="typeName"/>, or null when the reading has no types.</summary>
    public long? Instances(string typeName) =>
        ByType is null ? null : ByType.TryGetValue(typeName, out var count) ? count.Objects : 0;

    /// <summary>One line: <c>1,234,567 B live in 12,345 objects (snapshot 0.4 s)</c>.</summary>
    public override string ToString() => LiveObjects < 0
        ? string.Create(CultureInfo.InvariantCulture, $"{LiveBytes:N0} B live (read in {Cost.TotalSeconds:0.00} s)")
        : string.Create(CultureInfo.InvariantCulture, $"{LiveBytes:N0} B live in {LiveObjects:N0} objects (read in {Cost.TotalSeconds:0.00} s)");
}
