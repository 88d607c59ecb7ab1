using PerfBudgets.Budgets;

namespace PerfBudgets.Tool.Proposals;

/// <summary>The limit <see cref="LimitPolicy"/> gives one budget from its runs, beside the limit in force.</summary>
/// <param name="Budget">Budget name.</param>
/// <param name="Kind">Budget kind.</param>
/// <param name="Unit">Unit of the limits and the figures.</param>
/// <param name="CurrentLimit">The limit in force for the profile the runs were measured in.</param>
/// <param name="ProposedLimit">The limit the policy gives, or null when the kind has no policy (set by hand).</param>
/// <param name="CurrentRecorded">A counted budget's <c>recorded</c> in force; null for other kinds.</param>
/// <param name="ProposedRecorded">A counted budget's proposed <c>recorded</c> (the median of the runs); null for other kinds.</param>
/// <param name="Runs">How many runs the proposal was made from.</param>
/// <param name="Min">The lowest figure of those runs.</param>
/// <param name="Median">Their median.</param>
/// <param name="Max">The highest.</param>
/// <param name="Rule">The rule applied, in a few words (<see cref="LimitPolicy.Rule"/>).</param>
internal sealed record LimitProposal(
    string Budget,
    string Kind,
    string Unit,
    double CurrentLimit,
    double? ProposedLimit,
    double? CurrentRecorded,
    double? ProposedRecorded,
    int Runs,
    double Min,
    double Median,
    double Max,
    string Rule)
{
    /// <summary>True when the policy covers the kind, so there is a proposed limit.</summary>
    public bool HasPolicy => ProposedLimit is not null;

    /// <summary>True when the proposal differs from what is in force (the limit, or a counted budget's recorded count).</summary>
    public bool IsChange =>
        ProposedLimit is { } limit && (limit != CurrentLimit || (ProposedRecorded is { } recorded && recorded != CurrentRecorded));
}
