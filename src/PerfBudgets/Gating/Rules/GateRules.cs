using PerfBudgets.Budgets;
using PerfBudgets.Reporting;

namespace PerfBudgets.Gating;

/// <summary>
/// The one composite that runs a check's <see cref="IGateRule"/>s over its judged outcome, in order: a failure that
/// overrides the limit (counts that do not compare) ends it; another failure fails a figure within its limit; warnings
/// go with a figure within its limit, after the result is recorded (a figure over its limit has its failure line to
/// say). Which rules run is said once, here, per kind of check.
/// </summary>
internal sealed class GateRules(IReadOnlyList<IGateRule> rules)
{
    /// <summary>Every figure: worse than the baseline run, a stale floor.</summary>
    public static GateRules ForFigures(BudgetBook book, BudgetGateOptions options) =>
        new([new BaselineRule(options.BaselineStrict), new StaleFloorRule(book, options.FloorFactor)]);

    /// <summary>
    /// A count (<c>CheckCount</c>): another runtime than the recording's first, then another Valgrind and a stale
    /// recording, then every figure's rules.
    /// </summary>
    public static GateRules ForCounts(BudgetBook book, BudgetGateOptions options) =>
        new([new OtherRuntimeRule(), new OtherValgrindRule(), new StaleRecordingRule(options.RecordingStrict), .. ForFigures(book, options).Rules]);

    /// <summary>
    /// A growth exponent (<c>CheckGrowth</c>): another runtime, then every figure's rules. Its recording is a recorded
    /// exponent near 0 or 1, where a figure below it is not a stale recording, and it is counted at two sizes.
    /// </summary>
    public static GateRules ForGrowth(BudgetBook book, BudgetGateOptions options) =>
        new([new OtherRuntimeRule(), .. ForFigures(book, options).Rules]);

    /// <summary>The rules, in the order they run.</summary>
    public IReadOnlyList<IGateRule> Rules { get; } = rules;

    /// <summary><paramref name="judged"/> with what the rules concluded about <paramref name="facts"/>.</summary>
    public GateOutcome Apply(GateOutcome judged, GateFacts facts)
    {
        var warnings = new List<string>();
        foreach (var rule in Rules)
        {
            if (rule.Apply(facts) is not { } conclusion)
            {
                continue;
            }

            if (conclusion.Failure is { } cause && (conclusion.Overrides || judged.Cause is null))
            {
                // The rule's line says why, in the failure and in front of what was measured.
                var result = judged.Result with { Verdict = BudgetVerdict.Fail, Detail = judged.Result.Detail is { } detail ? $"{conclusion.Line}; {detail}" : conclusion.Line };
                return judged with { Result = result, Cause = cause, Message = conclusion.Line, Warnings = [.. judged.Warnings, .. warnings] };
            }

            if (conclusion.Failure is null && judged.Cause is null)
            {
                warnings.Add(conclusion.Line);
            }
        }

        return warnings.Count == 0 ? judged : judged with { Warnings = [.. judged.Warnings, .. warnings] };
    }
}
