using PerfBudgets.Budgets;

namespace PerfBudgets.Gating;

/// <summary>What a <see cref="IGateRule"/> concluded: a warning line, or a failure with its cause and line.</summary>
/// <param name="Line">The warning, or the failure's message (also put in front of the recorded detail).</param>
/// <param name="Failure">Why the figure fails; null for a warning.</param>
internal sealed record RuleConclusion(string Line, FailureCause? Failure)
{
    /// <summary>
    /// The failure stands whatever the limit says, before it: the figure does not compare with its budget at all (counts
    /// from another runtime). Any other failure applies only to a figure within its limit.
    /// </summary>
    public bool Overrides { get; init; }

    /// <summary>A warning: written after the result is recorded, for a figure within its limit.</summary>
    public static RuleConclusion Warning(string line) => new(line, null);

    /// <summary>A failure of a figure within its limit, for <paramref name="cause"/>.</summary>
    public static RuleConclusion Fails(FailureCause cause, string line) => new(line, cause);
}
