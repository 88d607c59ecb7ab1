using PerfBudgets.Diagnostics;

namespace PerfBudgets.Diagnostics.Tests;

// The runtime names a nested type by its own name only (Kept, not GcHeapSnapshotTests+Kept) in its type records.
// The heap snapshot counts live objects only, exactly, by type: a known number kept reachable, a known number dropped.
public sealed class GcHeapSnapshotTests
{
    private static readonly List<Kept> KeptObjects = [];

    [Fact]
    public void A_snapshot_counts_the_reachable_objects_of_a_type_and_none_of_the_garbage()
    {
        KeptObjects.Clear();
        for (var i = 0; i < 1_000; i++)
        {
            KeptObjects.Add(new Kept(i));
        }

        DropGarbage(5_000);

        var reading = GcHeapSnapshot.TakeOwn();

        reading.Instances(nameof(Kept)).Should().Be(1_000, "every kept object is reachable from a static list");
        reading.Instances(nameof(Dropped)).Should().Be(0, "the dropped objects are garbage: the walk comes from the collection's mark");
        reading.ByType![nameof(Kept)].Bytes.Should().Be(1_000 * 24, "a class with one long field is 24 bytes on 64-bit");
        reading.GcHeaps.Should().BeGreaterThan(0);
        reading.CollectorSurvivedBytes.Should().BeGreaterThan(0);
        reading.LiveBytes.Should().BeGreaterThanOrEqualTo(reading.CollectorSurvivedBytes,
            "the walk sees every object the collection kept, plus the never-collected frozen ones (string literals, types)");
        GC.KeepAlive(KeptObjects);
        KeptObjects.Clear();
    }

    [Fact]
    public void A_generic_type_is_named_with_its_arguments()
    {
        var holder = new List<Kept> { new(1) };

        var reading = GcHeapSnapshot.TakeOwn();

        reading.ByType!.Keys.Should().Contain(k => k.StartsWith("System.Collections.Generic.List`1", StringComparison.Ordinal) && k.Contains(nameof(Kept), StringComparison.Ordinal));
        GC.KeepAlive(holder);
    }

    private static void DropGarbage(int count)
    {
        for (var i = 0; i < count; i++)
        {
            GC.KeepAlive(new Dropped(i));
        }
    }

    private sealed class Kept(long value)
    {
        public long Value { get; } = value;
    }

    private sealed class Dropped(long value)
    {
        public long Value { get; } = value;
    }
}
