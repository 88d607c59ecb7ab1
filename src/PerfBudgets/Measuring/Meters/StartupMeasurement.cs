using System.Globalization;
using PerfBudgets.Statistics;

namespace PerfBudgets.Measuring;

/// <summary>
/// Times to a first 2xx answer of an app and of a reference app launched alternately in the same run
/// (<see cref="StartupMeter.CompareAsync"/>), on the wall clock and in the processes' CPU time.
/// </summary>
/// <param name="Subject">The app's measured launches, in order.</param>
/// <param name="Reference">The reference app's, in order.</param>
public sealed record StartupMeasurement(IReadOnlyList<StartupTime> Subject, IReadOnlyList<StartupTime> Reference)
{
    /// <summary>The app's median wall-clock time to a first 2xx answer.</summary>
    public TimeSpan SubjectWall => Quantiles.Median(Subject.Select(t => t.Wall));

    /// <summary>The reference app's.</summary>
    public TimeSpan ReferenceWall => Quantiles.Median(Reference.Select(t => t.Wall));

    /// <summary>The app's median CPU time to a first 2xx answer.</summary>
    public TimeSpan SubjectCpu => Quantiles.Median(Subject.Select(t => t.Cpu));

    /// <summary>The reference app's.</summary>
    public TimeSpan ReferenceCpu => Quantiles.Median(Reference.Select(t => t.Cpu));

    /// <summary>The app's largest resident set at its first 2xx answer over its launches, in bytes (0 where unread).</summary>
    public long SubjectWorkingSetBytes => Subject.Count == 0 ? 0 : Subject.Max(t => t.WorkingSetBytes);

    /// <summary>The reference app's.</summary>
    public long ReferenceWorkingSetBytes => Reference.Count == 0 ? 0 : Reference.Max(t => t.WorkingSetBytes);

    /// <summary>The app's median wall-clock time over the reference's.</summary>
    public double WallRatio => SubjectWall / ReferenceWall;

    /// <summary>The app's median CPU time over the reference's.</summary>
    public double CpuRatio => SubjectCpu / ReferenceCpu;

    /// <summary>
    /// <c>wall: median 348 ms (312 / 271 / 362 ms) against the reference's 240 ms (303 / 169 / 187 ms), 1.45x; CPU: ...</c>.
    /// </summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture,
        $"wall: median {SubjectWall.TotalMilliseconds:0} ms ({Join(Subject, t => t.Wall)} ms) against the reference's {ReferenceWall.TotalMilliseconds:0} ms ({Join(Reference, t => t.Wall)} ms), {WallRatio:0.00}x; " +
        $"CPU: median {SubjectCpu.TotalMilliseconds:0} ms ({Join(Subject, t => t.Cpu)} ms) against {ReferenceCpu.TotalMilliseconds:0} ms ({Join(Reference, t => t.Cpu)} ms), {CpuRatio:0.00}x; " +
        $"working set at the answer: at most {SubjectWorkingSetBytes / 1048576.0:0.0} MiB ({string.Join(" / ", Subject.Select(t => (t.WorkingSetBytes / 1048576.0).ToString("0.0", CultureInfo.InvariantCulture)))}) against {ReferenceWorkingSetBytes / 1048576.0:0.0} MiB");

    private static string Join(IReadOnlyList<StartupTime> times, Func<StartupTime, TimeSpan> part) =>
        string.Join(" / ", times.Select(t => part(t).TotalMilliseconds.ToString("0", CultureInfo.InvariantCulture)));
}
