using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// Live-heap growth over two intervals of operations (<see cref="RetainedMemoryMeter"/>): three readings, after the
/// warm-up, after <see cref="FirstOperations"/> and after <see cref="SecondOperations"/> more.
/// </summary>
/// <remarks>
/// The budget figure is the growth per operation over the <em>second</em> interval. A cache or pool that fills once
/// (during the warm-up or the first interval) grows the first interval and not the second; state kept per operation
/// grows both by the same amount per operation.
/// </remarks>
/// <param name="Warm">The reading after the warm-up.</param>
/// <param name="AfterFirst">The reading after the first interval.</param>
/// <param name="AfterSecond">The reading after the second interval.</param>
/// <param name="FirstOperations">Operations in the first interval.</param>
/// <param name="SecondOperations">Operations in the second interval.</param>
/// <param name="Operation">What one operation is, for the detail: <c>request</c>, <c>frame</c>, <c>op</c>.</param>
public sealed record RetainedMemoryMeasurement(HeapReading Warm, HeapReading AfterFirst, HeapReading AfterSecond,
    int FirstOperations, int SecondOperations, string Operation = "op")
{
    /// <summary>What else the detail should say, e.g. the earlier attempts of a measurement that was repeated; or null.</summary>
    public string? Note { get; init; }

    /// <summary>Live bytes gained per operation over the second interval: the budget figure.</summary>
    public double BytesPerOperation => PerOperation(AfterSecond.LiveBytes - AfterFirst.LiveBytes, SecondOperations);

    /// <summary>Live bytes gained per operation over the first interval (a one-time fill shows here only).</summary>
    public double FirstIntervalBytesPerOperation => PerOperation(AfterFirst.LiveBytes - Warm.LiveBytes, FirstOperations);

    /// <summary>The readings' own cost, all three.</summary>
    public TimeSpan ReadingCost => Warm.Cost + AfterFirst.Cost + AfterSecond.Cost;

    /// <summary>
    /// Both intervals and the readings: <c>second interval +2,048 B over 2,000 requests (1.02 B/request); first +9,120 B
    /// over 1,000 (9.12 B/request); live after warm-up 3,456,789 B; 3 readings 1.2 s</c>.
    /// </summary>
    public override string ToString()
    {
        var text = string.Create(CultureInfo.InvariantCulture,
            $"second interval {Signed(AfterSecond.LiveBytes - AfterFirst.LiveBytes)} B over {SecondOperations:N0} {Operation}s ({BytesPerOperation:0.##} B/{Operation}); " +
            $"first {Signed(AfterFirst.LiveBytes - Warm.LiveBytes)} B over {FirstOperations:N0} ({FirstIntervalBytesPerOperation:0.##} B/{Operation}); " +
            $"live after warm-up {Warm.LiveBytes:N0} B{Objects(Warm)}; 3 readings {ReadingCost.TotalSeconds:0.00} s");
        return Note is null ? text : $"{text}; {Note}";
    }

    private static double PerOperation(long bytes, int operations) => operations <= 0 ? 0 : (double)bytes / operations;

    private static string Signed(long value) => value.ToString("+#,0;-#,0;0", CultureInfo.InvariantCulture);

    private static string Objects(HeapReading reading) =>
        reading.LiveObjects < 0 ? string.Empty : string.Create(CultureInfo.InvariantCulture, $" in {reading.LiveObjects:N0} objects");
}
