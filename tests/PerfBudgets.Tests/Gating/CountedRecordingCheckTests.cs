using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tests.Gating;

public sealed class CountedRecordingCheckTests
{
    private static readonly Budget Counted = new("A.Instructions", BudgetKind.InstructionsMax, 1010, "instructions/op", "ci", "")
    {
        Recorded = 1000,
        Margin = 0.01,
        RecordedOn = new RecordedVersions("10.0.12", "3.19.0"),
    };

    private static readonly Attribution Breakdown = new("top: Foo", []);

    [Fact]
    public void Counts_on_the_recordings_runtime_pass_on_and_on_another_fail_recorded_with_the_line_before_the_detail()
    {
        CountedRecordingCheck.OtherRuntime(Counted, "10.0.12", 1005, "detail", Breakdown).Should().BeNull();

        var outcome = CountedRecordingCheck.OtherRuntime(Counted, "10.0.13", 1005, "detail", Breakdown)!;

        (outcome.Cause, outcome.Result.Verdict, outcome.Result.Attribution).Should().Be((FailureCause.OtherVersions, BudgetVerdict.Fail, Breakdown));
        outcome.Message.Should().StartWith("A.Instructions: recorded on .NET 10.0.12, counted on .NET 10.0.13: ");
        outcome.Result.Detail.Should().Be($"{outcome.Message}; detail");
    }

    [Fact]
    public void Another_Valgrind_is_a_note_not_a_failure()
    {
        CountedRecordingCheck.OtherValgrind(Counted, "3.19.0").Should().BeNull();
        CountedRecordingCheck.OtherValgrind(Counted, "3.22.0").Should().Be(
            "recorded with valgrind 3.19.0, counted with valgrind 3.22.0, not shown to count alike; if the code did not change, re-record (perfbudgets record)");
    }

    [Fact]
    public void A_count_more_than_its_margin_below_the_recording_is_stale()
    {
        CountedRecordingCheck.StaleRecording(Counted, 990).Should().BeNull("1% below is within the margin");
        CountedRecordingCheck.StaleRecording(Counted, 989).Should().Be(
            "A.Instructions: counted 989 instructions/op, (-1.1%) against its recording of 1,000 (margin 1%): the recording is stale and the limit 1,010 protects nothing below it; re-record (perfbudgets record)");
        CountedRecordingCheck.StaleRecording(Counted with { Recorded = null }, 1).Should().BeNull("a budget without a recording cannot be stale");
    }
}
