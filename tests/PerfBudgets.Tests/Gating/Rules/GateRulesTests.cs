using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Reporting;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Gating.Rules;

public sealed class GateRulesTests
{
    private static readonly Budget Cost = new("A.Cost", BudgetKind.InstructionsMax, 1000, "instructions/op", "ci", "");

    private sealed class Says(RuleConclusion? conclusion) : IGateRule
    {
        public int Asked { get; private set; }

        public RuleConclusion? Apply(GateFacts facts)
        {
            Asked++;
            return conclusion;
        }
    }

    private static (GateOutcome Outcome, GateFacts Facts) Judged(double measured)
    {
        var judgement = new Judgement(Cost.IsMet(measured), null, false, Cost.IsMet(measured) ? BudgetVerdict.Pass : BudgetVerdict.Fail);
        return (BudgetJudge.Outcome(Cost, measured, "counts", null, judgement), new GateFacts(Cost, measured, judgement));
    }

    [Fact]
    public void Warnings_of_a_figure_within_its_limit_come_in_the_rules_order_and_leave_it_passing()
    {
        var (outcome, facts) = Judged(900);

        var concluded = new GateRules([new Says(RuleConclusion.Warning("first")), new Says(null), new Says(RuleConclusion.Warning("second"))]).Apply(outcome, facts);

        (concluded.Cause, concluded.Result.Verdict, concluded.Result.Detail).Should().Be((null, BudgetVerdict.Pass, "counts"));
        concluded.Warnings.Should().Equal("first", "second");
    }

    [Fact]
    public void A_failing_rule_fails_a_figure_within_its_limit_says_why_first_and_ends_the_rules()
    {
        var (outcome, facts) = Judged(900);
        var after = new Says(RuleConclusion.Warning("after"));

        var concluded = new GateRules([new Says(RuleConclusion.Warning("before")), new Says(RuleConclusion.Fails(FailureCause.StaleRecording, "stale")), after]).Apply(outcome, facts);

        (concluded.Cause, concluded.Message, concluded.Result.Verdict, concluded.Result.Detail).Should().Be((FailureCause.StaleRecording, "stale", BudgetVerdict.Fail, "stale; counts"));
        concluded.Warnings.Should().Equal("before");
        after.Asked.Should().Be(0);
    }

    [Fact]
    public void A_figure_over_its_limit_keeps_its_failure_and_gets_no_warnings_unless_a_rule_overrides_the_limit()
    {
        var (outcome, facts) = Judged(1100);

        var kept = new GateRules([new Says(RuleConclusion.Warning("noise")), new Says(RuleConclusion.Fails(FailureCause.StaleRecording, "stale"))]).Apply(outcome, facts);
        (kept.Cause, kept.Message, kept.Warnings.Count).Should().Be((FailureCause.OverLimit, outcome.Message, 0));

        var overridden = new GateRules([new Says(new RuleConclusion("other runtime", FailureCause.OtherVersions) { Overrides = true })]).Apply(outcome, facts);
        (overridden.Cause, overridden.Message, overridden.Result.Detail).Should().Be((FailureCause.OtherVersions, "other runtime", "other runtime; counts"));
    }

    [Fact]
    public void Each_kind_of_check_runs_its_rules_in_their_order()
    {
        var book = TestBudgets.Read("baseline-comparison");
        var options = new BudgetGateOptions();

        GateRules.ForFigures(book, options).Rules.Select(r => r.GetType().Name).Should().Equal("BaselineRule", "StaleFloorRule");
        GateRules.ForCounts(book, options).Rules.Select(r => r.GetType().Name).Should().Equal(
            "OtherRuntimeRule", "OtherValgrindRule", "StaleRecordingRule", "BaselineRule", "StaleFloorRule");
        GateRules.ForGrowth(book, options).Rules.Select(r => r.GetType().Name).Should().Equal("OtherRuntimeRule", "BaselineRule", "StaleFloorRule");
    }
}
