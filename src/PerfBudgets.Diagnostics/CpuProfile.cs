using System.Globalization;
using PerfBudgets.Diagnosing;
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
    /// <summary>
    /// The same samples credited to the program's own methods, each with what it called: a sample in framework code goes
    /// to the innermost of the program's methods on its stack (a sample with none, to its innermost frame), most first.
    /// </summary>
    public IReadOnlyList<MethodSamples> OwnCode { get; init; } = [];

    /// <summary>How many operations ran while the samples were taken (0 when unknown): samples per operation are CPU time per operation.</summary>
    public long Operations { get; init; }

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

        var grown = SharesGrown(Methods, baseProfile.Methods, baseProfile.Samples);
        // A sample with no frame of the program's own is kept under its innermost frame (so the whole still adds up),
        // and such a frame is no one's own code: the own-code line names the program's methods alone.
        var ownGrown = SharesGrown(OwnCode, baseProfile.OwnCode, baseProfile.Samples).Where(c => OwnFrames.IsOwn(c.Method.Method)).ToList();
        var ownPerOperation = Operations > 0 && baseProfile.Operations > 0 ? PerOperationGrown(baseProfile) : [];
        var note = string.Create(CultureInfo.InvariantCulture,
            $"EventPipe SampleProfiler, ~1 ms per sample: {baseProfile.Samples:N0} managed samples of the base ({baseProfile.Target}, {baseProfile.Elapsed.TotalSeconds:0.0} s) and {Samples:N0} of the head ({Target}, {Elapsed.TotalSeconds:0.0} s); a method is named when its share grew by more than three times the difference's standard error, √(p(1−p)/n) on each side");
        if (grown.Count == 0 && ownGrown.Count == 0 && ownPerOperation.Count == 0)
        {
            return new Attribution(
                $"no method's share of the managed samples grew beyond its sampling error against the base: the added cost is spread over many methods, or outside managed code (the kernel, the GC, native code); {Describe(top)}",
                [], note);
        }

        static string Named(IEnumerable<(MethodSamples Method, double Was, double Growth)> methods) =>
            string.Join(", ", methods.Select(c => string.Create(CultureInfo.InvariantCulture, $"{c.Method.Method} {c.Was * 100:0.0}% → {c.Method.Share * 100:0.0}%")));
        var entries = grown.Take(25)
            .Select(c => new AttributionEntry(c.Method.Method, c.Growth * 100, "share points", c.Method.Share, c.Method.ExclusiveSamples))
            .ToList();
        // The program's methods first, each with what it called: where a change made through a framework call shows.
        // Per operation where both counts of operations are known: a method that already took nearly every sample
        // (a workload host's one method) grows in time per operation, not in share.
        var own = ownPerOperation.Count > 0
            ? "grew against the base, own code with what it called (samples per operation): " + string.Join(", ", ownPerOperation.Take(top).Select(g => g.Line)) + "; "
            : ownGrown.Count == 0 ? string.Empty
            : $"grew against the base, own code with what it called (share of managed samples, base → head): {Named(ownGrown.Take(top))}; ";
        var exclusive = grown.Count == 0 ? "no single method's exclusive share grew beyond its sampling error"
            : $"grew against the base (share of managed samples, base → head): {Named(grown.Take(top))}";
        // The recorded own code is what the summary named it by: samples per operation where those were compared.
        return new Attribution(own + exclusive, entries, note)
        {
            OwnCode = ownPerOperation.Count > 0
                ? [.. ownPerOperation.Take(25).Select(g => g.Entry)]
                : [.. ownGrown.Take(25).Select(c => new AttributionEntry(c.Method.Method, c.Growth * 100, "share points", c.Method.Share, c.Method.ExclusiveSamples))],
        };
    }

    // The own methods whose samples per operation grew by more than three times the difference's standard error, each
    // with its share of the whole profile's growth per operation, most first. The sampler takes a sample every
    // millisecond, so a profile's count of samples follows its length and only how they split between methods is
    // chance: a method's count errs by √(N·p(1−p)) (binomial), not √n, and a host's one method at p ≈ 1 is nearly exact.
    // Each as its line and as a recorded entry: the growth in samples per 1,000 operations, with its share of the whole.
    private List<(string Line, AttributionEntry Entry)> PerOperationGrown(CpuProfile baseProfile)
    {
        var before = InBaseTerms(OwnCode, baseProfile.OwnCode, m => m.ExclusiveSamples);
        double PerOp(double samples, long operations) => samples / operations;
        var whole = PerOp(Samples, Operations) - PerOp(baseProfile.Samples, baseProfile.Operations);
        return OwnCode
            .Select(m =>
            {
                var was = before(m.Method);
                var growth = PerOp(m.ExclusiveSamples, Operations) - PerOp(was, baseProfile.Operations);
                var error = Math.Sqrt(Variance(m.ExclusiveSamples, Samples, Operations) + Variance(was, baseProfile.Samples, baseProfile.Operations));
                return (m.Method, Was: PerOp(was, baseProfile.Operations), Now: PerOp(m.ExclusiveSamples, Operations), Growth: growth, Error: error, Samples: m.ExclusiveSamples);
            })
            .Where(c => c.Growth > 3 * c.Error && OwnFrames.IsOwn(c.Method))
            .OrderByDescending(c => c.Growth)
            .Select(c => (string.Create(CultureInfo.InvariantCulture,
                $"{c.Method} {(c.Was > 0 ? Figures.Percent(((c.Now / c.Was) - 1) * 100, signed: true) : "new")} per operation ({(whole > 0 ? Figures.Percent(Math.Min(1, c.Growth / whole) * 100, decimals: 0) : "all")} of the profile's growth; {c.Was * 1000:0.#} → {c.Now * 1000:0.#} samples per 1,000 operations)"),
                new AttributionEntry(c.Method, c.Growth * 1000, "samples per 1,000 operations", whole > 0 ? Math.Min(1, c.Growth / whole) : null, c.Samples)))
            .ToList();

        static double Variance(double samples, int of, long operations)
        {
            var p = of > 0 ? samples / of : 0;
            return of * p * (1 - p) / ((double)operations * operations);
        }
    }

    // The methods whose share of the samples grew by more than three times the difference's standard error, most first.
    private List<(MethodSamples Method, double Was, double Growth)> SharesGrown(IReadOnlyList<MethodSamples> now, IReadOnlyList<MethodSamples> then, int thenSamples)
    {
        var before = InBaseTerms(now, then, m => m.Share);
        return now
            .Select(m =>
            {
                var was = before(m.Method);
                var error = Math.Sqrt((was * (1 - was) / thenSamples) + (m.Share * (1 - m.Share) / Samples));
                return (Method: m, Was: was, Growth: m.Share - was, Error: error);
            })
            .Where(c => c.Growth > 3 * c.Error)
            .OrderByDescending(c => c.Growth)
            .Select(c => (c.Method, c.Was, c.Growth))
            .ToList();
    }

    // A head method's figure in the base: under its own name, or under the name the compiler gave it there where it
    // renumbered the method since (an async method added before it, a lambda before another), or the method would read
    // as new and its whole cost as growth (GeneratedNames: the rule the counted budgets' breakdowns match by).
    private static Func<string, double> InBaseTerms(IReadOnlyList<MethodSamples> head, IReadOnlyList<MethodSamples> baseMethods, Func<MethodSamples, double> figure)
    {
        var before = baseMethods.ToDictionary(m => m.Method, figure, StringComparer.Ordinal);
        var renumbered = GeneratedNames.Renumbered(head.Select(m => m.Method), before.Keys);
        return method => before.GetValueOrDefault(renumbered.GetValueOrDefault(method, method));
    }

    /// <inheritdoc />
    public override string ToString() => Describe();
}
