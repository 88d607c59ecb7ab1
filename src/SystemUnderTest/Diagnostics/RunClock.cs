using System.Diagnostics;

namespace SystemUnderTest.Diagnostics;

/// <summary>
/// Wall time and garbage collections since <see cref="Start"/>: what the seed printed after each loop
/// (<c>Elapsed=… Gen0=… Gen1=… Gen2=…</c>). A struct, so timing a loop allocates nothing.
/// </summary>
internal readonly struct RunClock
{
    private readonly long _started;
    private readonly int _gen0;
    private readonly int _gen1;
    private readonly int _gen2;

    private RunClock(long started, int gen0, int gen1, int gen2) => (_started, _gen0, _gen1, _gen2) = (started, gen0, gen1, gen2);

    /// <summary>Time since <see cref="Start"/>.</summary>
    public TimeSpan Elapsed => Stopwatch.GetElapsedTime(_started);

    /// <summary>Gen-0 collections since <see cref="Start"/>.</summary>
    public int Gen0 => GC.CollectionCount(0) - _gen0;

    /// <summary>Gen-1 collections since <see cref="Start"/>.</summary>
    public int Gen1 => GC.CollectionCount(1) - _gen1;

    /// <summary>Gen-2 collections since <see cref="Start"/>.</summary>
    public int Gen2 => GC.CollectionCount(2) - _gen2;

    /// <summary>Starts timing now.</summary>
    public static RunClock Start() => new(Stopwatch.GetTimestamp(), GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2));
}
