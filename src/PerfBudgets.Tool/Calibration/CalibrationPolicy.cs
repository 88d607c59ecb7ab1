using System.Globalization;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tool.Calibration;

/// <summary>
/// How <c>perfbudgets calibrate</c> sets a budget's room from the spread of unchanged runs and the resolution of its
/// kind, kept in one place. Each rule returns what it chose and a sentence saying why.
/// </summary>
/// <remarks>
/// <list type="bullet">
/// <item><description><b>System calls</b> (<c>syscalls-max</c>) come in whole calls per repetition of R operations, so
/// the noise is stray calls (a runtime thread's read, a timer), each worth 1/R per operation, at any recording, 0
/// included. The change the budget must catch is one more call per operation (+1/op). The room is absolute
/// (<c>marginAbsolute</c>, the fraction 0): half a call per operation, so a run with up to R/2 stray calls per repetition
/// passes and one more call per operation fails, whatever was recorded; more when the runs saw more (the highest run's
/// excess over the median and one stray call besides). Room of a whole call per operation or more cannot tell a
/// regression from noise: it is said as a warning, with the fix (more operations per repetition).</description></item>
/// <item><description><b>Instructions and cycles</b>: one instruction per repetition is far below any margin, so the
/// spread decides: twice the largest distance of a run from the median, as a fraction, rounded up to 0.5%, at least
/// 1%. An in-process count repeats exactly and gets 1%; a server's moves by a percent or two and gets more.</description></item>
/// <item><description><b>Growth exponents</b>: the same in exponent units, at least 0.01.</description></item>
/// <item><description><b>Retained memory</b> (<c>retained-bytes-per-op-max</c>): the heap readings leave a few KB per
/// interval whatever the operation, so the noise per operation is that divided by the interval's operations. The limit
/// stays (it says what a leak is); the interval is made long enough that the largest figure of unchanged runs is at most
/// half the limit: operations × largest |figure| ÷ (limit ÷ 2), rounded up to 1, 2 or 5 × 10^k.</description></item>
/// </list>
/// </remarks>
internal static class CalibrationPolicy
{
    /// <summary>The smallest room of a system-call budget above its recording: half a call per operation.</summary>
    public const double SyscallRoomPerOperation = 0.5;

    /// <summary>The smallest margin of an instruction or cycle count (1%), and of a growth exponent (0.01).</summary>
    public const double SmallestMargin = 0.01;

    /// <summary>The share of a retained-memory limit the noise of unchanged runs may take (half).</summary>
    public const double RetainedNoiseShare = 0.5;

    /// <summary>
    /// The margins of a counted budget of <paramref name="kind"/> from its figures (<paramref name="figures"/>, one per
    /// run) recorded at <paramref name="recorded"/>; <paramref name="operationsPerRepetition"/> is R of a count per
    /// operation, when the results say it.
    /// </summary>
    public static CountedChoice Counted(BudgetKind kind, double recorded, IReadOnlyList<double> figures, int? operationsPerRepetition)
    {
        ArgumentNullException.ThrowIfNull(kind);
        ArgumentNullException.ThrowIfNull(figures);
        var farthest = figures.Max(f => Math.Abs(f - recorded));
        if (kind == BudgetKind.SyscallsMax)
        {
            var quantum = operationsPerRepetition is > 0 ? 1.0 / operationsPerRepetition.Value : 0;
            var excess = Math.Max(0, figures.Max() - recorded);
            var room = Math.Max(SyscallRoomPerOperation, Math.Ceiling(Math.Round((excess + quantum) * 100, 6)) / 100);
            var repetition = operationsPerRepetition is > 0
                ? Invariant($"a stray call in a repetition of {operationsPerRepetition} operations is {Figures.Format(quantum)}/op, so up to {Math.Floor(Math.Round(room * operationsPerRepetition.Value, 6))} stray calls in a repetition pass; ")
                : string.Empty;
            var reason = Invariant($"system calls come in whole calls: {repetition}runs {Figures.Format(figures.Min())} to {Figures.Format(figures.Max())}; room {Figures.Format(room)}/op above {Figures.Format(recorded)} (at least half a call per operation), and one more call per operation ({Figures.Format(recorded + 1)}) fails");
            return room >= 1
                ? new CountedChoice(0, room, Invariant($"{reason}; WARNING: noise of {Figures.Format(room)} calls per operation hides a call per operation: count more operations per repetition"), Warning: true)
                : new CountedChoice(0, room, reason, Warning: false);
        }

        if (kind == BudgetKind.GrowthExponentMax)
        {
            var exponentMargin = Math.Max(SmallestMargin, RoundUp(2 * farthest, 0.005));
            return new CountedChoice(exponentMargin, 0,
                Invariant($"runs within ±{Figures.Format(farthest)} of the median exponent; margin twice that, at least {SmallestMargin}"), Warning: false);
        }

        var relative = recorded == 0 ? 0 : farthest / recorded;
        var margin = Math.Max(SmallestMargin, RoundUp(2 * relative, 0.005));
        return new CountedChoice(margin, 0,
            Invariant($"runs within ±{Figures.Percent(relative * 100, decimals: 2)} of the median; margin twice that, at least 1% (one {kind.Name.Split('-')[0].TrimEnd('s')} per repetition is far below it)"), Warning: false);
    }

    /// <summary>
    /// The interval (operations of the measured interval) a retained-memory budget of <paramref name="limit"/> needs for
    /// the largest of <paramref name="figures"/>, measured over <paramref name="operations"/>, to be at most half of it;
    /// <paramref name="operations"/> itself when it already is.
    /// </summary>
    public static RetainedChoice Retained(double limit, IReadOnlyList<double> figures, int operations)
    {
        ArgumentNullException.ThrowIfNull(figures);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(operations);
        var noise = figures.Max(Math.Abs);
        var bytes = noise * operations;
        var allowed = limit * RetainedNoiseShare;
        if (noise <= allowed)
        {
            return new RetainedChoice(operations, Invariant(
                $"unchanged runs read at most {Figures.Format(noise)} B/op over {operations:N0} operations, within half the limit {Figures.Format(limit)}: interval kept"), Warning: false);
        }

        if (allowed <= 0)
        {
            return new RetainedChoice(operations, Invariant(
                $"unchanged runs read up to {Figures.Format(noise)} B/op, and a limit of {Figures.Format(limit)} leaves no room for the heap readings' own bytes: give it a limit above 0"), Warning: true);
        }

        var needed = NiceAtLeast(bytes / allowed);
        return new RetainedChoice(needed, Invariant(
            $"unchanged runs read up to {Figures.Format(noise)} B/op over {operations:N0} operations (about {Figures.Format(bytes)} B an interval, the readings' own); {needed:N0} operations bring that to at most {Figures.Format(bytes / needed)} B/op, under half the limit {Figures.Format(limit)}"), Warning: false);
    }

    // The smallest of 1, 2 and 5 × 10^k at least value.
    internal static int NiceAtLeast(double value)
    {
        for (var scale = 1L; scale < int.MaxValue; scale *= 10)
        {
            foreach (var step in new[] { 1, 2, 5 })
            {
                if (step * scale >= value)
                {
                    return (int)Math.Min(int.MaxValue, step * scale);
                }
            }
        }

        return int.MaxValue;
    }

    private static double RoundUp(double value, double step) => Math.Round(Math.Ceiling(Math.Round(value / step, 6)) * step, 6);

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
