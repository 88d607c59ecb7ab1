using System.Diagnostics;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Statistics;

namespace PerfBudgets.Tool.Proposals;

/// <summary>
/// How a budget's limit is set from what its runs measured: the rules of the README ("How limits are set", "How CPU is
/// gated"), kept in one place. <c>perfbudgets propose</c> applies them to the runs in <c>history.jsonl</c>.
/// </summary>
/// <remarks>
/// <list type="bullet">
/// <item><description><b>Allocation</b> (<c>allocated-bytes-per-op</c>): exact where the figure is exact (every run
/// measured the same whole number of bytes: the limit is that figure, so one more allocation breaks it); otherwise at
/// most max(1%, 64 B) above the highest measured value, rounded up to a whole byte. Allocation repeats to within about
/// 1% between runs; 64 B is one small object, so a budget that moves by a few bytes is not broken by a single
/// allocation the runtime makes now and then.</description></item>
/// <item><description><b>Counted</b> (<c>instructions-max</c>, <c>syscalls-max</c>): recorded at the median of the runs
/// (two decimals), and the limit is ceil(recorded × (1 + margin) + marginAbsolute, 2 decimals) with the budget's own margins, exactly as
/// <see cref="CountedLimits.Recording"/> gives them (the recorder of <c>Record.Instructions</c> too). The margin is never changed here: it is the budget's decision,
/// justified by the spread its description gives.</description></item>
/// <item><description><b>Floors</b> (<c>requests-per-second-min</c>, <c>operations-per-second-min</c>,
/// <c>efficiency-min</c>): no more than 1.5× below the slowest run, limit = min ÷ 1.5 rounded down to two decimals, so
/// a neighbour on a shared machine can slow a run by a third without breaking it.</description></item>
/// <item><description><b>Every other kind</b> (latency, errors, sizes, ratios, timed CPU, blocking): no policy. Their
/// limits come from reasoning the budget's description gives (a ratio measured in the same run, a count that must stay
/// 0), which a history of figures cannot replace; they are set by hand.</description></item>
/// </list>
/// </remarks>
internal static class LimitPolicy
{
    /// <summary>Allocation headroom as a fraction of the highest measured value (1%).</summary>
    public const double AllocationHeadroomFraction = 0.01;

    /// <summary>The smallest allocation headroom, in bytes (64 B).</summary>
    public const double AllocationHeadroomBytes = 64;

    /// <summary>How far below the slowest run a floor is set: limit = slowest ÷ 1.5.</summary>
    public const double FloorDivisor = BudgetGateOptions.DefaultFloorFactor;

    /// <summary>What a proposal says for a kind without a policy.</summary>
    public const string NoPolicy = "no policy: set by hand";

    /// <summary>True when the policy sets limits of <paramref name="kind"/>; false for kinds set by hand.</summary>
    public static bool Covers(BudgetKind kind)
    {
        ArgumentNullException.ThrowIfNull(kind);
        return kind == BudgetKind.AllocatedBytesPerOp || kind.IsCounted || kind.IsProposedFloor;
    }

    /// <summary>The rule for <paramref name="kind"/> in a few words, as the proposal listing prints it.</summary>
    public static string Rule(BudgetKind kind)
    {
        ArgumentNullException.ThrowIfNull(kind);
        return kind == BudgetKind.AllocatedBytesPerOp ? "max(1%, 64 B) above the highest run, exact when every run measured the same whole figure"
            : kind == BudgetKind.GrowthExponentMax ? "recorded = median of the runs, limit = recorded + margin (an exponent's margin is in its own units)"
            : kind.IsCounted ? "recorded = median of the runs, limit = ceil(recorded x (1 + margin) + marginAbsolute, 2 decimals)"
            : kind.IsProposedFloor ? "1.5x below the slowest run"
            : NoPolicy;
    }

    /// <summary>
    /// The limit the policy gives <paramref name="budget"/> from what its runs measured (<paramref name="measured"/>, one
    /// figure per run, none of them NaN); <see cref="LimitProposal.ProposedLimit"/> is null for a kind the policy does
    /// not cover.
    /// </summary>
    public static LimitProposal Propose(Budget budget, IReadOnlyList<double> measured)
    {
        ArgumentNullException.ThrowIfNull(budget);
        ArgumentNullException.ThrowIfNull(measured);
        if (measured.Count == 0)
        {
            throw new ArgumentException($"{budget.Name}: a limit is proposed from one run or more.", nameof(measured));
        }

        if (measured.Any(double.IsNaN))
        {
            throw new ArgumentException($"{budget.Name}: a run that measured nothing (NaN) proposes nothing.", nameof(measured));
        }

        var min = measured.Min();
        var max = measured.Max();
        var median = Quantiles.Median(measured);
        var proposal = new LimitProposal(budget.Name, budget.Kind.Name, budget.Unit, budget.Limit, null, budget.Recorded, null,
            measured.Count, min, median, max, Rule(budget.Kind));

        if (budget.Kind == BudgetKind.AllocatedBytesPerOp)
        {
            var exact = min == max && max == Math.Floor(max);
            return proposal with
            {
                ProposedLimit = exact ? max : Math.Ceiling(max + Math.Max(max * AllocationHeadroomFraction, AllocationHeadroomBytes)),
                Rule = exact ? "exact: every run measured the same whole figure" : "max(1%, 64 B) above the highest run",
            };
        }

        if (budget.Kind.IsCounted)
        {
            Debug.Assert(budget.Margin is not null, "BudgetBook refuses a counted budget without a margin.");
            var (recorded, _) = CountedLimits.Recording(budget.Kind, measured, budget.Margin ?? 0.01);
            return proposal with { ProposedLimit = CountedLimits.Limit(budget.Kind, recorded, budget.Margin ?? 0.01, budget.MarginAbsolute), ProposedRecorded = recorded };
        }

        if (budget.Kind.IsProposedFloor)
        {
            return proposal with { ProposedLimit = Math.Floor(min / FloorDivisor * 100) / 100 };
        }

        return proposal;
    }
}
