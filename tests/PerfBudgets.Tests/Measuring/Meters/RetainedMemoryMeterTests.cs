using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

// The in-process meter reads the whole process's live heap, so nothing else may run beside it: tests of other classes
// run in parallel, and one that freed 73 KB during an interval read 124.3 instead of 128 B/op beside two busy loops.
[CollectionDefinition(nameof(LiveHeapReading), DisableParallelization = true)]
public sealed class LiveHeapReading;

// The in-process meter sees what an operation keeps, not what it allocates, and tells a one-time fill from growth.
// The test host's own threads keep or free some memory between two readings (seen: 8.6 KB quiet; on a busy machine
// +72 KB over an interval of 20,000 operations, which read 131.6 instead of 128 B/op, and -51 KB, which read 125.4),
// so every asserted interval is 100,000 operations long: that noise is under a byte per operation.
[Collection(nameof(LiveHeapReading))]
public sealed class RetainedMemoryMeterTests
{
    private static readonly List<byte[]> Kept = new(capacity: 210_000);
    private static byte[]? _oneTimeCache;

    [Fact]
    public void An_operation_that_allocates_and_keeps_nothing_retains_about_nothing()
    {
        var measured = RetainedMemoryMeter.Measure(static () => GC.KeepAlive(new byte[100]), warmUp: 100, first: 2_000, second: 100_000);

        measured.BytesPerOperation.Should().BeInRange(-2, 2, measured.ToString());
    }

    [Fact]
    public void An_operation_that_keeps_a_100_byte_array_retains_its_128_bytes()
    {
        Kept.Clear();

        // A 100-byte array is 24 B of header and length + 100 B, rounded up to 8: 128 B. The list's capacity is set
        // beforehand, so the list itself does not grow.
        var measured = RetainedMemoryMeter.Measure(static () => Kept.Add(new byte[100]), warmUp: 0, first: 100_000, second: 100_000);

        measured.BytesPerOperation.Should().BeApproximately(128, 2, measured.ToString());
        measured.FirstIntervalBytesPerOperation.Should().BeApproximately(128, 2, measured.ToString());
        Kept.Clear();
    }

    [Fact]
    public void A_cache_that_fills_once_grows_the_first_interval_only()
    {
        _oneTimeCache = null;

        var measured = RetainedMemoryMeter.Measure(static () => _oneTimeCache ??= new byte[10_000_000], warmUp: 0, first: 100_000, second: 100_000);

        measured.FirstIntervalBytesPerOperation.Should().BeGreaterThan(90, measured.ToString());
        measured.BytesPerOperation.Should().BeInRange(-2, 2, measured.ToString());
        measured.ToString().Should().Contain("second interval").And.Contain("first");
        _oneTimeCache = null;
    }

    [Fact]
    public void Interval_sizes_below_one_are_refused()
    {
        var act = () => RetainedMemoryMeter.Measure(static () => { }, warmUp: 0, first: 0, second: 10);

        act.Should().Throw<ArgumentOutOfRangeException>();
    }
}
