namespace PerfBudgets.Gating;

/// <summary>
/// One thing the gate says about a judged figure beyond its limit (a stale floor, a recording that no longer fits, a
/// figure worse than the baseline, counts from other versions): a warning, or a failure under a strict option. Rules
/// only conclude; <see cref="GateRules"/> runs them in order and <see cref="ResultRecorder"/> records the result before
/// it gives any warning or throws. The shape is BenchmarkDotNet's analysers: small, each with its tests.
/// </summary>
internal interface IGateRule
{
    /// <summary>What the rule concludes about <paramref name="facts"/>; null when it has nothing to say.</summary>
    RuleConclusion? Apply(GateFacts facts);
}
