namespace PerfBudgets.Measuring;

/// <summary>How <see cref="CpuMeter"/> warms up and samples. The defaults suit operations from 100 ns to 10 ms.</summary>
public sealed record CpuMeterOptions
{
    /// <summary>Measured pairs of (operation batch, calibration batch). More pairs make the low quantile steadier.</summary>
    public int Batches { get; init; } = 31;

    /// <summary>CPU time each measured batch aims at; short enough that many batches run without being preempted.</summary>
    public TimeSpan TargetBatchTime { get; init; } = TimeSpan.FromMilliseconds(4);

    /// <summary>Warm-up lasts at least this long, however soon the JIT falls quiet.</summary>
    public TimeSpan MinimumWarmUp { get; init; } = TimeSpan.FromMilliseconds(500);

    /// <summary>
    /// Warm-up ends once the JIT has compiled nothing new for this long: tiered compilation promotes a method after a
    /// 100 ms quiet delay and compiles it in the background, so a quiet stretch well past that means steady code.
    /// </summary>
    public TimeSpan QuietJitWindow { get; init; } = TimeSpan.FromMilliseconds(400);

    /// <summary>Warm-up gives up waiting for a quiet JIT after this long (the measurement notes it).</summary>
    public TimeSpan MaximumWarmUp { get; init; } = TimeSpan.FromSeconds(8);

    /// <summary>The defaults.</summary>
    public static CpuMeterOptions Default { get; } = new();

    internal void Validate()
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(Batches, 3, nameof(Batches));
        ArgumentOutOfRangeException.ThrowIfLessThanOrEqual(TargetBatchTime, TimeSpan.Zero, nameof(TargetBatchTime));
        ArgumentOutOfRangeException.ThrowIfNegative(MinimumWarmUp.Ticks, nameof(MinimumWarmUp));
        ArgumentOutOfRangeException.ThrowIfNegative(QuietJitWindow.Ticks, nameof(QuietJitWindow));
        ArgumentOutOfRangeException.ThrowIfLessThan(MaximumWarmUp, MinimumWarmUp, nameof(MaximumWarmUp));
    }
}
