using PerfBudgets.Budgets;

namespace PerfBudgets.Gating;

/// <summary>What the rules look at: the budget, its figure, how the figure was judged, and the versions it was counted with.</summary>
/// <param name="Budget">The budget judged.</param>
/// <param name="Measured">The figure, in the budget's unit.</param>
/// <param name="Judgement">How it stands against its limit and the baseline run.</param>
/// <param name="CountedWith">The runtime and Valgrind a counted figure was counted with; null for any other figure.</param>
internal sealed record GateFacts(Budget Budget, double Measured, Judgement Judgement, RecordedVersions? CountedWith = null);
