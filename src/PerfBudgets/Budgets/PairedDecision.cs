using PerfBudgets.Reporting;

namespace PerfBudgets.Budgets;

/// <summary>
/// A paired budget's verdict on an interval of head ÷ base: the figure its limit is checked against, and whether an
/// adaptive comparison may stop there.
/// </summary>
/// <param name="Kind">A ceiling (<c>vs-base-ratio-max</c>) or a floor (<c>vs-base-ratio-min</c>).</param>
/// <param name="Limit">The budget's limit on head ÷ base.</param>
/// <param name="Rule">How the interval is judged against it.</param>
internal sealed record PairedDecision(BudgetKind Kind, double Limit, PairedRule Rule)
{
    /// <summary>The decision of a paired budget.</summary>
    public static PairedDecision Of(Budget budget) => new(budget.Kind, budget.Limit, budget.PairedRule);

    /// <summary>
    /// The decision of <paramref name="budget"/> for a comparison run until decided (<paramref name="what"/>, as the
    /// refusal says it); an <see cref="ArgumentException"/> on <paramref name="parameterName"/> when it is not paired.
    /// </summary>
    public static PairedDecision OfPaired(Budget budget, string what, string parameterName) => budget.Kind.IsPaired
        ? Of(budget)
        : throw new ArgumentException($"{budget.Name} is a {budget.Kind} budget; {what} run until decided judge paired ones (vs-base-ratio-max, vs-base-ratio-min).", parameterName);

    private bool Ceiling => Kind.Direction == BudgetDirection.AtMost;

    /// <summary>
    /// The figure checked against the limit: the interval's far end when it shows a change toward the limit under
    /// <see cref="PairedRule.Catch"/>, else its end nearest to passing (the lower end of a ceiling, the upper of a floor),
    /// so the verdict is the rule's.
    /// </summary>
    public double Judged(double lower, double upper) => Ceiling
        ? (ShowsChange(lower, upper) ? upper : lower)
        : (ShowsChange(lower, upper) ? lower : upper);

    /// <summary>True when the interval fails the budget.</summary>
    public bool Fails(double lower, double upper) => !Kind.IsMet(Judged(lower, upper), Limit);

    /// <summary>
    /// Why an adaptive comparison may stop at this interval, or null when it should run on: the whole interval lies on
    /// the passing side of the limit (more pairs would only narrow it), or the budget fails under its rule. Stopping on
    /// a failure keeps the rule's error rates, since the interval holds at its confidence wherever the comparison stops.
    /// </summary>
    public string? Decided(double lower, double upper)
    {
        if (Fails(lower, upper))
        {
            return ShowsChange(lower, upper) && (Ceiling ? lower <= Limit : upper >= Limit)
                ? $"the interval lies wholly {Toward} 1 (a change shown) and its {FarEnd} end is {Toward} {Figures.Format(Limit)}"
                : $"the interval lies wholly {Toward} {Figures.Format(Limit)}";
        }

        return (Ceiling ? upper < Limit : lower > Limit) ? $"the interval lies wholly {Away} {Figures.Format(Limit)}" : null;
    }

    /// <summary>What the interval still holds when the cap stopped an undecided comparison.</summary>
    public string Undecided() => Rule == PairedRule.Catch
        ? $"the interval holds {Figures.Format(Limit)} and does not lie wholly {Toward} 1"
        : $"the interval still holds {Figures.Format(Limit)}";

    /// <summary>How the figure was judged, for the check's detail.</summary>
    public string Describe(double lower, double upper)
    {
        var end = Judged(lower, upper) == lower ? "lower" : "upper";
        return Rule == PairedRule.Catch
            ? $"the interval's {end} end: it fails when the whole interval lies {Toward} 1 (a change shown) and its {FarEnd} end is {Toward} {Figures.Format(Limit)} (the limit not ruled out), or when it lies wholly {Toward} {Figures.Format(Limit)}"
            : $"the interval's {end} end: it fails only when the whole interval is {Toward} {Figures.Format(Limit)}";
    }

    private string Toward => Ceiling ? "above" : "below";

    private string Away => Ceiling ? "below" : "above";

    private string FarEnd => Ceiling ? "upper" : "lower";

    private bool ShowsChange(double lower, double upper) =>
        Rule == PairedRule.Catch && (Ceiling ? lower > 1 : upper < 1);
}
