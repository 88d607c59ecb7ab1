using PerfBudgets.Reporting;

namespace PerfBudgets.Gating;

/// <summary>How a figure stands against its budget and, with a baseline, against the baseline run.</summary>
/// <param name="Met">Within the limit.</param>
/// <param name="Comparison">The comparison with the baseline run; null without a baseline.</param>
/// <param name="Flagged">Within the limit, but worse than the baseline beyond its noise.</param>
/// <param name="Verdict">Fail when broken (or flagged under a strict baseline), warn when flagged, else pass.</param>
internal readonly record struct Judgement(bool Met, BaselineComparison? Comparison, bool Flagged, BudgetVerdict Verdict);
