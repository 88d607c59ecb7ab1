using System.Collections.Frozen;
using PerfBudgets.Budgets;

namespace PerfBudgets.Server.Changes;

/// <summary>
/// The smallest lasting shift of a timed budget's series that <see cref="ChangePointFinder"/> reports, per budget: the
/// smaller of the budget's noise threshold (from the server's <c>budgets.json</c> when it was given one, else as the
/// budget's latest run recorded it) and its kind's <see cref="DefaultByKind"/>; the default alone without either.
/// </summary>
/// <remarks>
/// <para>
/// Why the smaller: a noise threshold says how far one run may stray from another (worst ÷ best − 1 over unchanged
/// runs), while a change point compares the medians of levels of at least five runs each, which move far less. The
/// kind's default is the largest move of such a median that the machine alone made on the real runs (busy against
/// quiet). A threshold wider than that would hide what the medians show: <c>p99-cpu-ms-per-request-max</c>'s noise of
/// 2.0 asked for a threefold level, and a 150 µs spin in a request path, which doubled that figure from its commit
/// on, went unmarked (docs/results-server.md, "A spin in a request path, across real uploads"). A threshold tighter than
/// the default is the project's word that the figure is steadier than this machine's worst, and is kept.
/// </para>
/// <para>
/// A noise threshold is written as <c>budgets.json</c> writes it: for an at-most kind the rise that is still noise
/// (worst ÷ best − 1), for an at-least kind the drop (1 − worst ÷ best). The finder measures a step direction-free, as
/// the larger median over the smaller − 1, so an at-least kind's drop <c>d</c> is <c>1 ÷ (1 − d) − 1</c> of that
/// measure, and a drop of 1.0 (<c>Api.AsyncVsBlocking.RpsRatio</c>'s "1.0 never warns") is one no step can exceed: such
/// a budget is never a change-point candidate (<see cref="double.PositiveInfinity"/>), whatever its kind's default.
/// That is the way to keep a figure out of the finder, such as that ratio, whose series has two modes.
/// </para>
/// </remarks>
internal sealed class ShiftThresholds
{
    /// <summary>
    /// The default per timed kind, in <c>budgets.json</c>'s convention: the largest shift between the median of the
    /// quiet runs and the median of the runs beside two busy loops that the machine alone made among the 51 real gate
    /// runs of docs/results-server.md ("Real gate runs": 33 quiet, 18 busy, no measured code changed), per budget of the
    /// kind, rounded up (to 0.05 below 1, to 0.1 above). A level of one commit whose runs all ran busy moves this far.
    /// </summary>
    public static FrozenDictionary<string, double> DefaultByKind { get; } = new Dictionary<string, double>(StringComparer.Ordinal)
    {
        // Sockets.Echo.P99Ms 1.021 ms quiet → 5.237 ms busy: +413% (Employees9.P99Ms +136%, Api.DelayAsync.P99Ms +48%).
        [BudgetKind.P99MillisecondsMax.Name] = 4.2,
        // Api.DelayAsync.P99CpuMsPerRequest 0.3788 → 0.6023 ms: +59% (Json.Endpoint.Echo9 +39%, Sockets.Echo +22%).
        [BudgetKind.P99CpuMillisecondsPerRequestMax.Name] = 0.6,
        // Not among those runs (the kind is newer): Json.Endpoint.Echo9.P99ToP50CpuPerRequest median 1.59 over seven
        // quiet runs → 1.46 over seven beside busy loops (docs/data/tail-ratio-unchanged.csv): 8%, rounded up.
        [BudgetKind.P99ToP50CpuPerRequestMax.Name] = 0.1,
        // Json.Endpoint.Employees9.RequestsPerSecond 30,430 → 13,790 req/s: −54.7%.
        [BudgetKind.RequestsPerSecondMin.Name] = 0.55,
        // Sockets.Echo.FramesPerSecond 84,310 → 45,380 frames/s: −46.2%.
        [BudgetKind.OperationsPerSecondMin.Name] = 0.5,
        // Api.DelayAsync.LittleEfficiency 0.8104 → 0.6354: −21.6%.
        [BudgetKind.EfficiencyMin.Name] = 0.25,
        // Api.InProcess.AsyncVsBlockingRatio 47.48 → 42.93x: −9.6% (Sockets.SaeaVsBlocking 0.1%; the two-mode
        // Api.AsyncVsBlocking.RpsRatio is left to its budget's noise of 1.0).
        [BudgetKind.RatioMin.Name] = 0.1,
        // Not among those runs (the kind is newer): Startup.FirstResponse.CpuRatioToMinimalApp median 1.61x over five
        // quiet runs → 1.59x over four beside two busy loops (docs/data/startup-runs.csv): 1.3%, rounded up.
        [BudgetKind.TimeRatioMax.Name] = 0.05,
        // HPack.Encode.RawData.CpuCost: busy runs +2.2%, but 5,463 (15871cf runs 1-3) → 5,985 cal/corpus (runs 4-30,
        // a second clone of the same commit): +9.6%.
        [BudgetKind.CpuCostMax.Name] = 0.1,
    }.ToFrozenDictionary(StringComparer.Ordinal);

    private readonly BudgetBook? _budgets;
    private readonly IReadOnlyDictionary<string, double> _defaults;

    /// <summary>
    /// Thresholds from <paramref name="budgets"/> where it names the budget or its kind, else the defaults:
    /// <paramref name="defaults"/> by kind name where it names the kind (a server's setting,
    /// <see cref="ResultsServerOptions.ShiftDefaults"/>), else <see cref="DefaultByKind"/>.
    /// </summary>
    public ShiftThresholds(BudgetBook? budgets = null, IReadOnlyDictionary<string, double>? defaults = null)
    {
        _budgets = budgets;
        _defaults = defaults ?? DefaultByKind;
    }

    /// <summary>The defaults alone: a server that was not given the project's budgets.json.</summary>
    public static ShiftThresholds Defaults { get; } = new();

    /// <summary>
    /// The smallest step (larger median ÷ smaller − 1) reported for <paramref name="budget"/> of kind
    /// <paramref name="kind"/> by the server's budgets.json or the defaults, and where it comes from (<c>budget</c>,
    /// <c>kind</c> or <c>default</c>); <see cref="double.PositiveInfinity"/> when no step counts.
    /// </summary>
    public (double MinShift, string Source) For(string budget, string kind)
    {
        var step = For(budget, kind, recorded: null);
        return (step.MinShift, step.Source);
    }

    /// <summary>
    /// The smallest step reported for <paramref name="budget"/> of kind <paramref name="kind"/>, relative (larger median
    /// ÷ smaller − 1) and absolute (the medians' difference, in the budget's unit), and where it comes from. The noise
    /// threshold is the server's budgets.json's where it defines the budget (<c>budget</c> or <c>kind</c>: the override),
    /// else the one <paramref name="recorded"/> with the budget's latest run (<c>run</c>: the project's own budgets.json,
    /// whatever the server was given), else the server's budgets.json's of the kind (<c>kind</c>); the relative step is
    /// the smaller of that threshold and <see cref="DefaultByKind"/> (<c>default</c> where the default is smaller or
    /// there is no threshold), except that a threshold no step can exceed keeps the budget out.
    /// </summary>
    public MinimumStep For(string budget, string kind, RecordedNoise? recorded)
    {
        ArgumentNullException.ThrowIfNull(budget);
        if (!BudgetKind.TryParse(kind, out var parsed))
        {
            return new MinimumStep(ChangePointSettings.FallbackMinRelativeShift, 0, "default");
        }

        var step = _defaults.TryGetValue(parsed.Name, out var set) ? set : DefaultByKind.GetValueOrDefault(parsed.Name, ChangePointSettings.FallbackMinRelativeShift);
        var byDefault = new MinimumStep(AsStep(parsed, step), 0, "default");
        return NoiseThreshold(budget, parsed, recorded) is { } noise ? Smaller(noise, byDefault) : byDefault;
    }

    private MinimumStep? NoiseThreshold(string budget, BudgetKind kind, RecordedNoise? recorded)
    {
        // The file's entry counts only while it is the same budget: one redefined as another kind is not.
        if (_budgets is not null && _budgets.Budgets.Any(b => b.Name == budget && b.Kind == kind)
            && _budgets.TryGetNoiseThreshold(budget, out var noise))
        {
            return new MinimumStep(AsStep(kind, noise.Relative), noise.Absolute, noise.Source);
        }

        if (recorded is not null)
        {
            return new MinimumStep(AsStep(kind, recorded.Relative), recorded.Absolute, "run");
        }

        return _budgets is not null && _budgets.KindNoise(kind.Name) is { } byKind
            ? new MinimumStep(AsStep(kind, byKind), _budgets.KindNoiseAbsolute(kind.Name), "kind")
            : null;
    }

    // The default caps a noise threshold's relative step but keeps its absolute floor (a figure near zero is no change
    // at any percentage), and never lets in a budget whose threshold keeps it out.
    private static MinimumStep Smaller(MinimumStep noise, MinimumStep byDefault) =>
        double.IsPositiveInfinity(noise.MinShift) || noise.MinShift <= byDefault.MinShift
            ? noise
            : noise with { MinShift = byDefault.MinShift, Source = byDefault.Source };

    /// <summary>The noise threshold a run recorded with a budget's figure (results.json's <c>noise</c>, <c>noiseAbsolute</c>), or null without one.</summary>
    public static RecordedNoise? Recorded(double? noise, double? noiseAbsolute) =>
        noise is { } relative ? new RecordedNoise(relative, noiseAbsolute ?? 0) : null;

    /// <summary>A noise threshold in budgets.json's convention as a direction-free step (larger ÷ smaller − 1).</summary>
    public static double AsStep(BudgetKind kind, double noise)
    {
        ArgumentNullException.ThrowIfNull(kind);
        return kind.Direction == BudgetDirection.AtMost ? noise
            : noise >= 1 ? double.PositiveInfinity
            : 1 / (1 - noise) - 1;
    }
}
