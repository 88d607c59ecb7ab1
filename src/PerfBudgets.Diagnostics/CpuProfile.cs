using System.Globalization;
using PerfBudgets.Reporting;

namespace PerfBudgets.Diagnostics;

/// <summary>Where an operation spends its CPU: exclusive samples per method, from <see cref="CpuProfiler"/>.</summary>
/// <param name="Methods">Every sampled method, most samples first.</param>
/// <param name="Samples">Samples counted (running managed code on a counted thread).</param>
/// <param name="SkippedSamples">Samples left out: other threads, threads outside managed code, known waits.</param>
/// <param name="Target">What was profiled (the calling thread, this process, a server process).</param>
/// <param name="Elapsed">How long the profiled run took.</param>
public sealed record CpuProfile(IReadOnlyList<MethodSamples> Methods, int Samples, int SkippedSamples, string Target, TimeSpan Elapsed)
{
    /// <summary>The hottest methods, as the failure message shows them: <c>hottest methods (exclusive samples of N): A.B.C 41%, …</c>.</summary>
    public string Describe(int top = 5)
    {
        if (Samples == 0)
        {
            return string.Create(CultureInfo.InvariantCulture,
                $"hottest methods: no managed samples of {Target} in {Elapsed.TotalSeconds:0.0} s ({SkippedSamples:N0} samples outside managed code, waiting, or on other threads)");
        }

        var methods = string.Join(", ", Methods.Take(top).Select(m => string.Create(CultureInfo.InvariantCulture, $"{m.Method} {m.Share * 100:0}%")));
        return string.Create(CultureInfo.InvariantCulture, $"hottest methods (exclusive samples of {Samples:N0}, {Target}): {methods}");
    }

    /// <summary>
    /// The profile as a budget result's <see cref="Attribution"/>: the summary names the <paramref name="top"/> hottest
    /// methods; the recorded breakdown keeps the 25 hottest with their samples and shares.
    /// </summary>
    public Attribution ToAttribution(int top = 5)
    {
        var entries = Methods.Take(Math.Max(top, 25)).Select(m => new AttributionEntry(m.Method, m.ExclusiveSamples, "samples", m.Share, m.ExclusiveSamples)).ToList();
        var note = string.Create(CultureInfo.InvariantCulture,
            $"EventPipe SampleProfiler, ~1 ms per sample, {Samples:N0} managed samples of {Target} over {Elapsed.TotalSeconds:0.0} s ({SkippedSamples:N0} left out); a method's share is ±~1/√(its samples)");
        return new Attribution(Describe(top), entries, note);
    }

    /// <inheritdoc />
    public override string ToString() => Describe();
}
