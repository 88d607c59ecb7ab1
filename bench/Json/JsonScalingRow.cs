namespace PerfGate.Bench.Json;

/// <summary>One cell of the scaling table: a strategy and shape at a thread count.</summary>
/// <param name="Strategy">The strategy's name.</param>
/// <param name="Shape">Single or List9.</param>
/// <param name="Threads">Threads sharing the round trips.</param>
/// <param name="Count">Round trips in total, split evenly over the threads.</param>
/// <param name="UseTime">Wall-clock time from the start signal until the last thread finished.</param>
internal sealed record JsonScalingRow(string Strategy, string Shape, int Threads, int Count, TimeSpan UseTime)
{
    /// <summary>The table's Name column.</summary>
    public string Name => $"{Strategy} {Shape}";

    /// <summary>Round trips per second over all threads.</summary>
    public double OperationsPerSecond => Count / UseTime.TotalSeconds;
}
