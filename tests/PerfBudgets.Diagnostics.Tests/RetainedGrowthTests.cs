using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;

namespace PerfBudgets.Diagnostics.Tests;

// The attribution of a leak: per-type differences of two readings, per operation, largest first.
public sealed class RetainedGrowthTests
{
    private const string ListOfEmployees = "System.Collections.Generic.List`1[SystemUnderTest.Json.Employee]";
    private const string Employee = "SystemUnderTest.Json.Employee";

    [Fact]
    public void The_types_that_grew_are_named_with_objects_and_bytes_per_operation_largest_first()
    {
        var before = Reading(("System.String", 100, 4_000), (Employee, 1_000, 64_000), ("System.Byte[]", 10, 5_000));
        var after = Reading(("System.String", 100, 4_000), (Employee, 10_000, 640_000), (ListOfEmployees, 1_000, 32_000), ("System.Byte[]", 5, 2_500));

        var growth = RetainedGrowth.Between(before, after, 1_000, "request");

        growth.Types.Select(t => t.TypeName).Should().Equal(Employee, ListOfEmployees, "System.Byte[]");
        growth.Types[0].ObjectsPerOperation.Should().Be(9);
        growth.Types[0].BytesPerOperation.Should().Be(576);
        growth.BytesPerOperation.Should().Be(576 + 32 - 2.5);
        growth.Describe().Should().Be(
            $"grew per request: {Employee} +9.00 objects/request +576 B/request, {ListOfEmployees} +1.00 objects/request +32 B/request (+605.5 B/request in all types over 1,000 requests)");
    }

    [Fact]
    public void The_readings_own_bookkeeping_is_never_named()
    {
        const string ReadingsTable = "System.Collections.Generic.Dictionary`2+Entry[System.String,PerfBudgets.Measuring.LiveTypeCount][]";
        var before = Reading((Employee, 1_000, 64_000), (ReadingsTable, 1, 10_000));
        var after = Reading((Employee, 2_000, 128_000), (ReadingsTable, 2, 20_000));

        RetainedGrowth.Between(before, after, 1_000).Types.Select(t => t.TypeName).Should().Equal(Employee);
    }

    [Fact]
    public void The_attribution_lists_only_the_types_that_gained_bytes()
    {
        var before = Reading((Employee, 1, 64), ("System.Byte[]", 10, 5_000));
        var after = Reading((Employee, 3, 192), ("System.Byte[]", 0, 0));

        var attribution = RetainedGrowth.Between(before, after, 2).ToAttribution();

        attribution.Entries.Should().ContainSingle().Which.Name.Should().Be(Employee);
        attribution.Entries[0].Value.Should().Be(64);
        attribution.Entries[0].Unit.Should().Be("B/op");
        attribution.Summary.Should().StartWith($"grew per op: {Employee} +1.00 objects/op +64 B/op");
    }

    [Fact]
    public void Gains_that_other_types_gave_back_are_shown_beside_what_gave_them_back()
    {
        // Over 80 operations, 10 strings per operation rebuilt from char buffers that were let go: String gains
        // 3,916 B/op, Char[] loses 3,808 B/op, and the net (the budget's figure) is 108 B/op.
        var before = Reading(("System.String", 100, 10_000), ("System.Char[]", 400, 314_640));
        var after = Reading(("System.String", 900, 323_280), ("System.Char[]", 80, 10_000));

        var text = RetainedGrowth.Between(before, after, 80).Describe();

        text.Should().Be("grew per op: System.String +10.00 objects/op +3,916 B/op (+108 B/op in all types over 80 ops); offset by types that lost live bytes: "
            + "System.Char[] -3,808 B/op: 97% of the gains above was given back, so they are mostly objects replaced between the readings, not kept; the net is what the budget measures");
    }

    [Fact]
    public void No_growth_says_so()
    {
        var reading = Reading((Employee, 1, 64));

        RetainedGrowth.Between(reading, reading, 10).Describe().Should().Be("grew per op: no type gained live bytes over 10 ops");
    }

    [Fact]
    public void Readings_without_types_are_refused()
    {
        var bare = new HeapReading { LiveBytes = 1_000, LiveObjects = -1, Cost = TimeSpan.Zero };

        var act = () => RetainedGrowth.Between(bare, bare, 1);

        act.Should().Throw<ArgumentException>();
    }

    [Fact]
    public void The_measurement_figure_is_the_second_intervals_growth_per_operation()
    {
        var measurement = new RetainedMemoryMeasurement(Reading((Employee, 0, 1_000)), Reading((Employee, 0, 11_000)), Reading((Employee, 0, 11_400)), 100, 200, "request");

        measurement.FirstIntervalBytesPerOperation.Should().Be(100);
        measurement.BytesPerOperation.Should().Be(2);
        measurement.ToString().Should().StartWith("second interval +400 B over 200 requests (2 B/request); first +10,000 B over 100 (100 B/request)");
    }

    [Fact]
    public void A_note_such_as_earlier_attempts_ends_the_detail()
    {
        var reading = Reading((Employee, 0, 1_000));
        var measurement = new RetainedMemoryMeasurement(reading, reading, reading, 10, 10) { Note = "attempt 1: 81 B/op" };

        measurement.ToString().Should().EndWith("; attempt 1: 81 B/op");
    }

    private static HeapReading Reading(params (string Name, long Objects, long Bytes)[] types) =>
        new()
        {
            LiveBytes = types.Sum(t => t.Bytes),
            LiveObjects = types.Sum(t => t.Objects),
            ByType = types.ToDictionary(t => t.Name, t => new LiveTypeCount(t.Name, t.Objects, t.Bytes)),
            Cost = TimeSpan.Zero,
        };
}
