using PerfBudgets.Reporting;

namespace PerfBudgets.Tool.Summary;

/// <summary>
/// How large a budget's change between two runs is for the summary's "largest changes": none when it is no larger than
/// the budget's absolute noise floor; its relative change when the base figure is far from zero; else its change in the
/// budget's own unit, ranked by its share of the limit. A relative change from a figure that wanders around zero says
/// nothing (<c>Sockets.Echo.Growth</c> 0 → 0.008 is +851,235%, and well within its spread).
/// </summary>
/// <param name="Rank">What the changes are ordered by, in %: the relative change, or the change's share of the limit (0 for a figure near zero without one).</param>
/// <param name="InUnit">True when the change is shown in the budget's unit (the base is near zero).</param>
/// <param name="WithinNoiseFloor">True when the change is no larger than the budget's absolute noise floor: not listed.</param>
internal sealed record ChangeSize(double Rank, bool InUnit, bool WithinNoiseFloor)
{
    /// <summary>
    /// A base figure is near zero when it is under this share of its budget's limit (in the budget's unit), or of the
    /// larger of the two figures for an informational figure that has no limit: a relative change from it is mostly
    /// the base's own smallness.
    /// </summary>
    public const double NearZeroShare = 0.05;

    /// <summary>
    /// The size of <paramref name="head"/> against <paramref name="base"/>; <paramref name="noiseFloor"/> is the budget's
    /// absolute noise floor in its unit (budgets.json's <c>noiseAbsolute</c>, 0 for none).
    /// </summary>
    public static ChangeSize Of(BudgetResult @base, BudgetResult head, double noiseFloor)
    {
        ArgumentNullException.ThrowIfNull(@base);
        ArgumentNullException.ThrowIfNull(head);
        var change = head.Measured - @base.Measured;
        if (noiseFloor > 0 && Math.Abs(change) <= noiseFloor)
        {
            return new ChangeSize(0, InUnit: false, WithinNoiseFloor: true);
        }

        var scale = Scale(@base, head);
        if (Math.Abs(@base.Measured) >= NearZeroShare * scale && @base.Measured != 0)
        {
            return new ChangeSize(Math.Abs(change) / Math.Abs(@base.Measured) * 100, InUnit: false, WithinNoiseFloor: false);
        }

        // Without a limit there is no scale in the unit to judge a move from near zero by (against the larger figure
        // every such move is about 100%): such a change is shown, after the ranked ones.
        return new ChangeSize(HasLimit(@base, head) ? Math.Abs(change) / scale * 100 : 0, InUnit: true, WithinNoiseFloor: false);
    }

    private static bool HasLimit(BudgetResult @base, BudgetResult head) =>
        (head.Limit ?? @base.Limit) is { } limit && limit != 0 && double.IsFinite(limit);

    /// <summary>The figure's scale in its unit: the limit's size, else (no limit, or a limit of 0) the larger figure's.</summary>
    public static double Scale(BudgetResult @base, BudgetResult head)
    {
        ArgumentNullException.ThrowIfNull(@base);
        ArgumentNullException.ThrowIfNull(head);
        return HasLimit(@base, head)
            ? Math.Abs((head.Limit ?? @base.Limit)!.Value)
            : Math.Max(Math.Abs(@base.Measured), Math.Abs(head.Measured));
    }
}
