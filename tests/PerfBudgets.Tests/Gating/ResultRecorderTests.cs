using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Exporters;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Gating;

public sealed class ResultRecorderTests : IDisposable
{
    private readonly TestBudgets _budgets = new("baseline-comparison");
    private readonly List<string> _warnings = [];

    public void Dispose() => _budgets.Dispose();

    private ResultRecorder Recorder() =>
        new(_budgets.Book, RunExporters.Of(_budgets.Store()), RunIdentity.Of("run", null), new BudgetGateOptions { Warnings = new Sink(_warnings) });

    private BudgetResult Stored(string budget) => ResultStore.ReadAll(_budgets.Store().ResultsPath).Single(r => r.Budget == budget);

    private sealed class Sink(List<string> lines) : IBudgetWarningSink
    {
        public void Warn(string line) => lines.Add(line);
    }

    [Fact]
    public void A_passing_outcome_is_recorded_with_its_noise_and_its_warnings_given_in_order()
    {
        var budget = _budgets.Book.Get("Base.Decode.CpuCost");

        var result = Recorder().RecordThenThrow(new GateOutcome(budget, GateOutcome.ResultOf(budget, 100, BudgetVerdict.Pass, null)) { Warnings = ["first", "second"] });

        result.Noise.Should().Be(0.15, "the recorded entry carries its budget's noise threshold");
        Stored("Base.Decode.CpuCost").Should().BeEquivalentTo(result);
        _warnings.Should().Equal("first", "second");
    }

    [Fact]
    public void A_failure_is_recorded_first_then_thrown_with_its_cause()
    {
        var budget = _budgets.Book.Get("Base.Decode.CpuCost");

        var act = () => Recorder().RecordThenThrow(GateOutcome.Failed(budget, 300, "detail", null, FailureCause.OverLimit, "the line"));

        var failure = act.Should().Throw<BudgetExceededException>().Which.Failures.Single();
        (failure.BudgetName, failure.Measured, failure.Limit, failure.Cause, failure.Message).Should().Be(("Base.Decode.CpuCost", 300, 150, FailureCause.OverLimit, "the line"));
        Stored("Base.Decode.CpuCost").Verdict.Should().Be(BudgetVerdict.Fail);
    }

    [Fact]
    public void A_skip_is_recorded_as_not_measured_then_thrown_as_not_measured()
    {
        var budget = _budgets.Book.Get("Base.Decode.CpuCost");

        var act = () => Recorder().RecordThenThrow(new GateOutcome(budget, GateOutcome.ResultOf(budget, double.NaN, BudgetVerdict.NotMeasured, "no tool")) { Skipped = true, Message = "skipped" });

        act.Should().Throw<BudgetNotMeasuredException>().WithMessage("skipped");
        Stored("Base.Decode.CpuCost").Verdict.Should().Be(BudgetVerdict.NotMeasured);
    }
}
