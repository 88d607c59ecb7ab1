using PerfBudgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using SystemUnderTest.Json;

namespace Alloc.Json;

/// <summary>
/// The JSON pools keep a bounded number of buffers by design: once warm, a round trip through a pooled strategy
/// leaves nothing alive behind it. Live bytes per round trip of the 9-employee list over a second interval
/// (<see cref="RetainedMemoryMeter"/>, a full blocking compacting collection before each reading); a broken budget
/// names the types that grew from two heap snapshots of this process.
/// </summary>
public sealed class JsonPoolRetainedMemoryTests
{
    private readonly BudgetGate _gate = SuiteGate.Current;

    [Theory]
    [InlineData("StackPool")]
    [InlineData("Recyclable")]
    [InlineData("BufferWriter")]
    public void Json_Pool_RetainedBytesPerRoundTrip(string strategyName)
    {
        var strategies = new JsonStrategies(new JsonPoolOptions());
        var strategy = strategies.All.Single(s => s.Name == strategyName);
        var list = EmployeeData.List(9);
        void RoundTrip() => strategy.RoundTrip(list, strategies.Json.List).Count.Should().Be(9);
        var (warmUp, first, second) = Intervals();

        var measured = RetainedMemoryMeter.Measure(RoundTrip, warmUp, first, second);

        strategy.Counters.Outstanding.Should().Be(0, "every rented buffer went back");
        _gate.Check($"Json.Pool.{strategyName}.RetainedBytesPerRoundTrip", measured.BytesPerOperation, measured.ToString(),
            () => RetainedGrowth.OfSecondInterval(RetainedMemoryMeter.Measure(RoundTrip, warmUp, first, second, GcHeapSnapshot.TakeOwn)).ToAttribution());
    }

    private (int WarmUp, int First, int Second) Intervals() => (
        _gate.Book.IntParameter("Alloc.Retained.WarmUpOperations"),
        _gate.Book.IntParameter("Alloc.Retained.FirstIntervalOperations"),
        _gate.Book.IntParameter("Alloc.Retained.SecondIntervalOperations"));
}
