using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tests.Gating;

public sealed class GateMessagesTests
{
    private static readonly Budget Ceiling = new("A.Bytes", BudgetKind.AllocatedBytesPerOp, 1500, "B/op", "ci", "");
    private static readonly Budget Counted = new("A.Instructions", BudgetKind.InstructionsMax, 1010, "instructions/op", "ci", "");

    [Fact]
    public void A_failure_line_names_the_figure_the_limit_and_the_overshoot_then_the_detail()
    {
        GateMessages.FailureLine(Ceiling, 2312).Should().Be("A.Bytes: 2,312 B/op > budget 1,500 (+54%)");
        GateMessages.FailureLine(Ceiling, 2312, "100 ops").Should().Be("A.Bytes: 2,312 B/op > budget 1,500 (+54%) [100 ops]");
    }

    [Fact]
    public void What_grew_comes_first_after_the_failure_line_then_what_the_figure_is_made_of()
    {
        var attribution = new Attribution("top: Foo 90%", []) { Change = "since the baseline: Foo +10%" };
        var nl = Environment.NewLine;

        GateMessages.OverLimit(Ceiling, 2312, null, attribution).Should().Be(
            $"A.Bytes: 2,312 B/op > budget 1,500 (+54%){nl}  since the baseline: Foo +10%{nl}  top: Foo 90%");
        GateMessages.OverLimit(Ceiling, 2312, null, attribution with { Change = null }).Should().Be($"A.Bytes: 2,312 B/op > budget 1,500 (+54%){nl}  top: Foo 90%");
    }

    [Fact]
    public void Counts_on_another_runtime_say_both_runtimes_the_figures_and_the_record_command()
    {
        var line = GateMessages.OtherRuntime(Counted, "8.0.1", "10.0.2", 1009);

        line.Should().StartWith("A.Instructions: recorded on .NET 8.0.1, counted on .NET 10.0.2: counts do not compare across runtime versions; ")
            .And.Contain("(perfbudgets record)").And.EndWith(" [measured 1,009 instructions/op, limit 1,010]");
    }

    [Fact]
    public void An_unmeasured_budget_under_CI_says_how_to_turn_its_kind_off_on_purpose()
    {
        GateMessages.NotMeasuredUnderCi(Counted, "valgrind not found").Should().Be(
            $"A.Instructions: not measured (valgrind not found); under CI=true an unmeasured budget fails: install what it needs, or set {HarnessEnvironment.InstructionsVariable}=off to turn the counted budgets off on purpose");
        GateMessages.NotMeasuredUnderCi(Ceiling, "no server").Should().Be("A.Bytes: not measured (no server); under CI=true an unmeasured budget fails");
    }

    [Fact]
    public void A_run_without_a_figure_says_so_with_the_runs_detail()
    {
        GateMessages.NoFigure(null).Should().Be("the run gave no figure");
        GateMessages.NoFigure("ok=0").Should().Be("the run gave no figure: ok=0");
    }
}
