using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tests.Gating.Rules;

// The three rules that read how a counted budget was recorded: its runtime, its Valgrind, its recorded count.
public sealed class CountedRecordingRulesTests
{
    private static readonly Budget Counted = new("A.Instructions", BudgetKind.InstructionsMax, 1010, "instructions/op", "ci", "")
    {
        Recorded = 1000,
        Margin = 0.01,
        RecordedOn = new RecordedVersions("10.0.12", "3.19.0"),
    };

    private static readonly Judgement Met = new(Met: true, Comparison: null, Flagged: false, BudgetVerdict.Pass);

    private static GateFacts Facts(double measured, string runtime = "10.0.12", string valgrind = "3.19.0", Budget? budget = null) =>
        new(budget ?? Counted, measured, Met, new RecordedVersions(runtime, valgrind));

    [Fact]
    public void Counts_on_another_runtime_fail_whatever_the_limit_says()
    {
        var rule = new OtherRuntimeRule();

        rule.Apply(Facts(1005)).Should().BeNull();
        rule.Apply(Facts(1005) with { CountedWith = null }).Should().BeNull("a figure that was not counted has no versions");
        rule.Apply(Facts(1005, budget: Counted with { RecordedOn = null })).Should().BeNull("a budget never recorded has nothing to differ from");

        var failure = rule.Apply(Facts(1005, runtime: "10.0.13"))!;
        (failure.Failure, failure.Overrides).Should().Be((FailureCause.OtherVersions, true));
        failure.Line.Should().StartWith("A.Instructions: recorded on .NET 10.0.12, counted on .NET 10.0.13: ");
    }

    [Fact]
    public void Another_Valgrind_is_a_warning_not_a_failure()
    {
        var rule = new OtherValgrindRule();

        rule.Apply(Facts(1005)).Should().BeNull();
        rule.Apply(Facts(1005, valgrind: "3.22.0")).Should().Be(RuleConclusion.Warning(
            "A.Instructions: recorded with valgrind 3.19.0, counted with valgrind 3.22.0, not shown to count alike; if the code did not change, re-record (perfbudgets record)"));
    }

    [Fact]
    public void A_count_more_than_its_margin_below_the_recording_is_stale_and_under_strict_fails()
    {
        var lenient = new StaleRecordingRule(strict: false);
        const string Stale = "A.Instructions: counted 989 instructions/op, (-1.1%) against its recording of 1,000 (margin 1%): the recording is stale and the limit 1,010 protects nothing below it; re-record (perfbudgets record)";

        lenient.Apply(Facts(990)).Should().BeNull("1% below is within the margin");
        lenient.Apply(Facts(989)).Should().Be(RuleConclusion.Warning(Stale));
        lenient.Apply(Facts(1, budget: Counted with { Recorded = null })).Should().BeNull("a budget without a recording cannot be stale");
        new StaleRecordingRule(strict: true).Apply(Facts(989)).Should().Be(RuleConclusion.Fails(FailureCause.StaleRecording, $"{Stale} [strict recording]"));
    }
}
