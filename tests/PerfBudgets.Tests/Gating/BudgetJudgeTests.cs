using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Gating;

public sealed class BudgetJudgeTests : IDisposable
{
    private readonly TestBudgets _budgets = new("baseline-comparison");

    public void Dispose() => _budgets.Dispose();

    private BudgetJudge Judge(bool baseline = false, bool strict = false)
    {
        BaselineResults? earlier = null;
        if (baseline)
        {
            // The earlier run, written by a gate as a real run writes results.json.
            var gate = _budgets.Gate("earlier");
            gate.Check("Base.Decode.CpuCost", 94);
            earlier = BaselineResults.Load(gate.Store.ResultsPath);
        }

        return new BudgetJudge(_budgets.Book, earlier, new BudgetGateOptions { BaselineStrict = strict });
    }

    [Fact]
    public void A_figure_within_its_limit_passes_with_no_failure_and_no_warning()
    {
        var budget = _budgets.Book.Get("Base.Decode.CpuCost");
        var judgement = Judge().Weigh(budget, 100);

        judgement.Should().Be(new Judgement(Met: true, Comparison: null, Flagged: false, BudgetVerdict.Pass));
        var outcome = BudgetJudge.Outcome(budget, 100, "detail", null, judgement);
        (outcome.Cause, outcome.Warnings.Count, outcome.Result.Verdict, outcome.Result.Detail).Should().Be((null, 0, BudgetVerdict.Pass, "detail"));
    }

    [Fact]
    public void A_figure_over_its_limit_fails_with_its_failure_line()
    {
        var budget = _budgets.Book.Get("Base.Decode.CpuCost");
        var judge = Judge();

        var outcome = BudgetJudge.Outcome(budget, 300, null, null, judge.Weigh(budget, 300));

        (outcome.Cause, outcome.Message, outcome.Result.Verdict).Should().Be((FailureCause.OverLimit, GateMessages.FailureLine(budget, 300), BudgetVerdict.Fail));
    }

    [Fact]
    public void Worse_than_the_baseline_is_judged_a_warning_or_under_a_strict_baseline_a_failure()
    {
        var budget = _budgets.Book.Get("Base.Decode.CpuCost");

        var lenient = Judge(baseline: true).Weigh(budget, 123);
        (lenient.Met, lenient.Flagged, lenient.Verdict).Should().Be((true, true, BudgetVerdict.Warn));
        Judge(baseline: true, strict: true).Weigh(budget, 123).Verdict.Should().Be(BudgetVerdict.Fail);
    }

    [Fact]
    public void The_baseline_rule_says_the_warning_or_under_a_strict_baseline_fails_through_the_composite()
    {
        var budget = _budgets.Book.Get("Base.Decode.CpuCost");
        const string Line = "Base.Decode.CpuCost: 123 cal/op is 31% worse than the baseline 94 (noise threshold 15%)";

        var lenient = Judge(baseline: true).Weigh(budget, 123);
        var warned = new GateRules([new BaselineRule(strict: false)]).Apply(BudgetJudge.Outcome(budget, 123, null, null, lenient), new GateFacts(budget, 123, lenient));
        (warned.Cause, warned.Result.Verdict).Should().Be((null, BudgetVerdict.Warn));
        warned.Warnings.Should().Equal(Line);

        var strict = Judge(baseline: true, strict: true).Weigh(budget, 123);
        var failed = new GateRules([new BaselineRule(strict: true)]).Apply(BudgetJudge.Outcome(budget, 123, "detail", null, strict), new GateFacts(budget, 123, strict));
        (failed.Cause, failed.Result.Verdict, failed.Warnings.Count).Should().Be((FailureCause.WorseThanBaseline, BudgetVerdict.Fail, 0));
        failed.Message.Should().Be($"{Line} [strict baseline]");
        failed.Result.Detail.Should().Be($"{Line} [strict baseline]; detail");
        failed.Result.Baseline.Should().NotBeNull("the comparison is recorded with the failure");
    }
}
