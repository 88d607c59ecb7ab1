using PerfBudgets.Budgets;

namespace PerfBudgets.Reporting;

/// <summary>One budget's figure compared with the same budget's figure in a baseline run.</summary>
/// <param name="Baseline">What the baseline measured, or null when the baseline has no such budget.</param>
/// <param name="ChangePercent">Signed change from the baseline in % of it (+ is up, whatever the budget's direction); null without a baseline figure; ±infinity from a baseline of 0.</param>
/// <param name="WorsePercent">How much worse, in % of the baseline, in the budget's bad direction (up for at-most kinds, down for at-least kinds); negative when better.</param>
/// <param name="NoisePercent">The relative noise threshold in %, or null without a baseline figure.</param>
/// <param name="NoiseAbsolute">The absolute noise floor in the budget's unit (0 for most budgets).</param>
/// <param name="Flagged">True when the figure is worse than the baseline by more than both noise thresholds.</param>
public sealed record BaselineComparison(
    double? Baseline,
    double? ChangePercent,
    double? WorsePercent,
    double? NoisePercent,
    double NoiseAbsolute,
    bool Flagged)
{
    /// <summary>A comparison with a baseline that has no figure for the budget.</summary>
    public static BaselineComparison Missing { get; } = new(null, null, null, null, 0, false);

    /// <summary>Compares <paramref name="measured"/> with <paramref name="baseline"/> for <paramref name="budget"/>.</summary>
    public static BaselineComparison Compare(Budget budget, NoiseThreshold noise, double measured, double baseline)
    {
        ArgumentNullException.ThrowIfNull(budget);
        ArgumentNullException.ThrowIfNull(noise);
        var change = Relative(measured - baseline, baseline);
        var worseBy = budget.Direction == BudgetDirection.AtMost ? measured - baseline : baseline - measured;
        var worse = Relative(worseBy, baseline);
        var flagged = worseBy > noise.Absolute && worse > noise.Relative;
        return new BaselineComparison(baseline, change * 100, worse * 100, noise.Relative * 100, noise.Absolute, flagged);
    }

    /// <summary>
    /// The one-line warning: <c>X: 123 cal/op is 31% worse than the baseline 94 (noise threshold 15%)</c>.
    /// </summary>
    public string WarningLine(string budgetName, double measured, string unit)
    {
        var worse = WorsePercent is { } w && !double.IsInfinity(w) ? $"{Figures.Percent(w)} worse" : "worse";
        var floor = NoiseAbsolute > 0 ? $", and at least {Figures.Format(NoiseAbsolute)} {unit}" : string.Empty;
        return $"{budgetName}: {Figures.Format(measured)} {unit} is {worse} than the baseline {Figures.Format(Baseline ?? double.NaN)} (noise threshold {Figures.Percent(NoisePercent ?? 0)}{floor})";
    }

    /// <summary>The delta cell of the summary table: <c>94 (+31%)</c>, or <c>—</c> without a baseline figure.</summary>
    public string DeltaCell()
    {
        if (Baseline is not { } b || ChangePercent is not { } c)
        {
            return "—";
        }

        var change = double.IsInfinity(c) ? (c > 0 ? "up from 0" : "down from 0") : $"{(c >= 0 ? "+" : "-")}{Figures.Percent(Math.Abs(c))}";
        return $"{Figures.Format(b)} ({change})";
    }

    private static double Relative(double difference, double baseline) =>
        baseline != 0 ? difference / Math.Abs(baseline)
        : difference > 0 ? double.PositiveInfinity
        : difference < 0 ? double.NegativeInfinity
        : 0;
}
