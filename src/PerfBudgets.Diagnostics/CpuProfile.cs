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

    /// <summary>
    /// What grew against the base: the methods whose share of this profile's samples exceeds their share of
    /// <paramref name="baseProfile"/>'s (the base commit's build profiled the same way) by more than three times the
    /// difference's sampling error, most grown first, as a failing paired budget (<c>.VsBase</c>) names them:
    /// <c>grew against the base (share of managed samples, base → head): A.B.C 0.4% → 15.2%, …</c>.
    /// </summary>
    /// <remarks>
    /// Shares are compared, not samples, so profiles of different lengths and rates compare: work added in one method
    /// raises its share and lowers every other's a little. A share p of n samples has a standard error of √(p(1−p)/n);
    /// of a hundred methods in a profile, twice the combined error would name about two for noise alone (2.3% each, one
    /// side), three times names one in about seven comparisons (0.13% each).
    /// </remarks>
    /// <param name="baseProfile">The base's profile, taken the same way (same target, same load, same length).</param>
    /// <param name="top">How many methods the summary names; the breakdown keeps up to 25.</param>
    public Attribution ComparedWithBase(CpuProfile baseProfile, int top = 5)
    {
        ArgumentNullException.ThrowIfNull(baseProfile);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(top);
        if (Samples == 0 || baseProfile.Samples == 0)
        {
            return Attribution.Unavailable(string.Create(CultureInfo.InvariantCulture,
                $"no managed samples to compare ({baseProfile.Samples:N0} of the base, {baseProfile.Target}; {Samples:N0} of the head, {Target})"));
        }

        var before = baseProfile.Methods.ToDictionary(m => m.Method, m => m.Share, StringComparer.Ordinal);
        var after = Methods.ToDictionary(m => m.Method, StringComparer.Ordinal);
        var grown = after.Values
            .Select(m =>
            {
                var was = before.GetValueOrDefault(m.Method);
                var error = Math.Sqrt((was * (1 - was) / baseProfile.Samples) + (m.Share * (1 - m.Share) / Samples));
                return (Method: m, Was: was, Growth: m.Share - was, Error: error);
            })
            .Where(c => c.Growth > 3 * c.Error)
            .OrderByDescending(c => c.Growth)
            .ToList();
        var note = string.Create(CultureInfo.InvariantCulture,
            $"EventPipe SampleProfiler, ~1 ms per sample: {baseProfile.Samples:N0} managed samples of the base ({baseProfile.Target}, {baseProfile.Elapsed.TotalSeconds:0.0} s) and {Samples:N0} of the head ({Target}, {Elapsed.TotalSeconds:0.0} s); a method is named when its share grew by more than three times the difference's standard error, √(p(1−p)/n) on each side");
        if (grown.Count == 0)
        {
            return new Attribution(
                $"no method's share of the managed samples grew beyond its sampling error against the base: the added cost is spread over many methods, or outside managed code (the kernel, the GC, native code); {Describe(top)}",
                [], note);
        }

        var named = string.Join(", ", grown.Take(top).Select(c => string.Create(CultureInfo.InvariantCulture, $"{c.Method.Method} {c.Was * 100:0.0}% → {c.Method.Share * 100:0.0}%")));
        var entries = grown.Take(25)
            .Select(c => new AttributionEntry(c.Method.Method, c.Growth * 100, "share points", c.Method.Share, c.Method.ExclusiveSamples))
            .ToList();
        return new Attribution($"grew against the base (share of managed samples, base → head): {named}", entries, note);
    }

    /// <inheritdoc />
    public override string ToString() => Describe();
}
