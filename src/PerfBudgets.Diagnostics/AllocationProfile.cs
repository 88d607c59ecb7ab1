using System.Globalization;
using PerfBudgets.Reporting;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// Which types an operation allocates, in estimated bytes per operation, from the runtime's allocation sampling events
/// (<see cref="AllocationProfiler"/>).
/// </summary>
/// <param name="Types">Every sampled type, most bytes per operation first.</param>
/// <param name="Operations">How many operations ran while the events were collected.</param>
/// <param name="Samples">How many sampling events were counted (after the thread filter).</param>
/// <param name="EventName">The event the estimate comes from: <c>AllocationSampled</c> or, on older runtimes, <c>GCAllocationTick</c>.</param>
/// <param name="Elapsed">How long the profiled run took.</param>
public sealed record AllocationProfile(IReadOnlyList<TypeAllocation> Types, long Operations, int Samples, string EventName, TimeSpan Elapsed)
{
    /// <summary>
    /// The methods the operation allocates in, most bytes per operation first, from a second run with each sample's
    /// stack (empty where the runtime's events carry none, or EventPipe is unavailable).
    /// </summary>
    public IReadOnlyList<MethodAllocation> Methods { get; init; } = [];

    /// <summary>
    /// The innermost frames of the same samples' stacks, whatever their assembly (<c>System.Linq.Enumerable.ToList</c>
    /// where <see cref="Methods"/> names the program's method that called it), most bytes per operation first.
    /// </summary>
    public IReadOnlyList<MethodAllocation> AllocatingFrames { get; init; } = [];

    /// <summary>The estimated total bytes per operation, all types.</summary>
    public double BytesPerOperation => Types.Sum(t => t.BytesPerOperation);

    /// <summary>
    /// The expected relative standard error of <see cref="BytesPerOperation"/>: 1/√samples. Each sample stands for about
    /// 100 KB, so the count of samples is close to Poisson and its relative spread is 1/√n (per type, 1/√ of that type's
    /// samples).
    /// </summary>
    public double RelativeStandardError => Samples == 0 ? double.PositiveInfinity : 1 / Math.Sqrt(Samples);

    /// <summary>
    /// What the failure message shows: the program's own methods that allocated, with what they called, first; then
    /// the frames that allocated and the largest types:
    /// <c>allocated in, own code with what it called: TextStats.WordCounter.Add ≈ 1,242 B; innermost frames: …; top types per op: System.String[] ≈ 785 B, …</c>.
    /// </summary>
    public string Describe(int top = 5)
    {
        if (Samples == 0)
        {
            return string.Create(CultureInfo.InvariantCulture,
                $"top types per op: none sampled ({EventName}, {Operations:N0} ops in {Elapsed.TotalSeconds:0.0} s: at this many operations, under ~{Figures.Format(102_400.0 / Math.Max(Operations, 1))} B/op is expected to give no sample)");
        }

        var types = string.Join(", ", Types.Take(top).Select(t => string.Create(CultureInfo.InvariantCulture, $"{t.TypeName} ≈ {Figures.Format(Math.Round(t.BytesPerOperation))} B")));
        var more = Types.Count > top ? ", …" : string.Empty;
        // The program's methods first: a regression made through a framework call (a string.Format per item) is the
        // caller's change, and the framework frame that did the allocating follows it.
        var methods = Methods.Count == 0 ? string.Empty : $"allocated in, own code with what it called: {List(Methods, top)}; ";
        var frames = AllocatingFrames.Count == 0 || AllocatingFrames.Select(f => f.Method).SequenceEqual(Methods.Select(m => m.Method))
            ? string.Empty
            : $"innermost frames: {List(AllocatingFrames, top)}; ";
        return string.Create(CultureInfo.InvariantCulture,
            $"{methods}{frames}top types per op: {types}{more} (≈ {Figures.Format(Math.Round(BytesPerOperation))} B/op in all from {Samples:N0} {EventName} samples over {Operations:N0} ops, ±{RelativeStandardError * 100:0.#}% standard error)");
    }

    private static string List(IReadOnlyList<MethodAllocation> methods, int top) =>
        string.Join(", ", methods.Take(top).Select(m => string.Create(CultureInfo.InvariantCulture, $"{m.Method} ≈ {Figures.Format(Math.Round(m.BytesPerOperation))} B")))
        + (methods.Count > top ? ", …" : string.Empty);

    /// <summary>
    /// The profile as a budget result's <see cref="Attribution"/>: the summary names the <paramref name="top"/> types;
    /// the breakdown keeps every sampled type with its samples, so a later run can be compared with this one type by
    /// type (<see cref="BaselineComparison"/>; a type cut from a shortened list would read as a change).
    /// </summary>
    public Attribution ToAttribution(int top = 5)
    {
        var total = BytesPerOperation;
        var entries = Types
            .Select(t => new AttributionEntry(t.TypeName, Math.Round(t.BytesPerOperation, 1), "B/op", total > 0 ? t.BytesPerOperation / total : null, t.Samples))
            .ToList();
        var note = string.Create(CultureInfo.InvariantCulture,
            $"{EventName} events, {Samples:N0} samples over {Operations:N0} operations in {Elapsed.TotalSeconds:0.0} s; estimated, not exact");
        // The program's methods with what they called, kept with their samples, so a later failure can say which grew.
        var ownCode = Methods
            .Select(m => new AttributionEntry(m.Method, Math.Round(m.BytesPerOperation, 1), "B/op", total > 0 ? m.BytesPerOperation / total : null, m.Samples))
            .ToList();
        return new Attribution(Describe(top), entries, note) { OwnCode = ownCode };
    }

    /// <inheritdoc />
    public override string ToString() => Describe();
}
