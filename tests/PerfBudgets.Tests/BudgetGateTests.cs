using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests;

public sealed class BudgetGateTests : IDisposable
{
    private readonly TestBudgets _budgets = new("gate");
    private readonly BudgetGate _gate;

    public BudgetGateTests()
    {
        _gate = _budgets.Gate();
    }

    public void Dispose() => _budgets.Dispose();

    [Fact]
    public void A_broken_maximum_fails_with_one_actionable_line()
    {
        var act = () => _gate.Check("Api.DelayAsync.ServerBytesPerRequest", 2312);

        act.Should().Throw<BudgetExceededException>()
            .Which.Message.Should().Be("Api.DelayAsync.ServerBytesPerRequest: 2,312 B/request > budget 1,500 (+54%)");
    }

    [Fact]
    public void A_figure_the_run_did_not_give_fails_as_not_measured_and_is_recorded_as_failed()
    {
        var act = () => _gate.CheckAll(
            new BudgetCheck("Api.DelayAsync.ServerBytesPerRequest", double.NaN, "ok=0, failed=400"),
            new BudgetCheck("Api.DelayAsync.LittleEfficiency", 0.9));

        var e = act.Should().Throw<BudgetExceededException>().Which;
        e.Message.Should().Be("Api.DelayAsync.ServerBytesPerRequest: not measured (the run gave no figure: ok=0, failed=400)");
        e.Failures.Single().Cause.Should().Be(FailureCause.NotMeasured);
        var recorded = ResultStore.ReadAll(_gate.Store.ResultsPath).Single(r => r.Budget == "Api.DelayAsync.ServerBytesPerRequest");
        (recorded.Verdict, double.IsNaN(recorded.Measured)).Should().Be((BudgetVerdict.Fail, true), "a missing figure is never a pass");
    }

    [Fact]
    public void A_broken_minimum_fails_with_the_shortfall()
    {
        var act = () => _gate.Check("Api.DelayAsync.LittleEfficiency", 0.45, "4,500 req/s of 10,000 ideal");

        act.Should().Throw<BudgetExceededException>()
            .Which.Message.Should().Be("Api.DelayAsync.LittleEfficiency: 0.45 ratio < budget 0.6 (-25%) [4,500 req/s of 10,000 ideal]");
    }

    [Fact]
    public void A_broken_budget_exposes_its_name_figures_and_overshoot_as_properties()
    {
        var act = () => _gate.CheckAll(
            new BudgetCheck("Api.DelayAsync.ServerBytesPerRequest", 2250),
            new BudgetCheck("Api.DelayAsync.LittleEfficiency", 0.45, "4,500 req/s of 10,000 ideal"));

        var e = act.Should().Throw<BudgetExceededException>().Which;
        e.Should().BeAssignableTo<PerfBudgetsException>();
        (e.BudgetName, e.Measured, e.Limit).Should().Be(("Api.DelayAsync.ServerBytesPerRequest", 2250d, 1500d));
        e.Overshoot.Should().BeApproximately(0.5, 1e-12);
        e.Failures.Select(f => (f.BudgetName, f.Direction, f.Cause)).Should().Equal(
            ("Api.DelayAsync.ServerBytesPerRequest", BudgetDirection.AtMost, FailureCause.OverLimit),
            ("Api.DelayAsync.LittleEfficiency", BudgetDirection.AtLeast, FailureCause.OverLimit));
        e.Failures[1].Overshoot.Should().BeApproximately(0.25, 1e-12, "a floor missed by a quarter of its limit is 25% past it");
        e.Failures[1].Message.Should().Be("Api.DelayAsync.LittleEfficiency: 0.45 ratio < budget 0.6 (-25%) [4,500 req/s of 10,000 ideal]");
    }

    [Fact]
    public void A_result_carries_the_direction_of_its_kind_and_an_observed_figure_has_none()
    {
        _gate.Check("Api.DelayAsync.LittleEfficiency", 0.9).Direction.Should().Be(BudgetDirection.AtLeast);
        _gate.Check("Zero.Bytes", 0).Direction.Should().Be(BudgetDirection.AtMost);
        _gate.Observe("Api.DelayAsync.ClientBytesPerRequest", 12, "B/request").Direction.Should().BeNull();
        System.IO.File.ReadAllText(_gate.Store.ResultsPath).Should().Contain("\"direction\": \"at-least\"");
    }

    [Fact]
    public void A_figure_more_than_the_floor_factor_above_its_floor_warns_that_the_floor_is_stale()
    {
        // gate.json gives efficiency-min no noise threshold: the factor alone. 0.9 is 1.5x the floor 0.6, as proposed.
        var warnings = new CollectedWarnings();
        var gate = _budgets.Gate(options: new BudgetGateOptions { Warnings = warnings });

        gate.Check("Api.DelayAsync.LittleEfficiency", 0.9).Verdict.Should().Be(BudgetVerdict.Pass);
        warnings.Should().BeEmpty("a figure the policy's factor above its floor is what the floor was proposed from");

        gate.Check("Api.DelayAsync.LittleEfficiency", 1.2).Verdict.Should().Be(BudgetVerdict.Pass, "a stale floor warns, it does not fail");
        warnings.Should().ContainSingle().Which.Should().Be(
            "Api.DelayAsync.LittleEfficiency: measured 1.2 ratio, 2x its floor of 0.6 (floor factor 1.5, noise 0%): even slowed by its noise this run proposes a floor of 0.8; " +
            "the floor is stale and lets that much of a slowdown pass; re-propose it (perfbudgets propose)");

        _budgets.Gate(options: new BudgetGateOptions { Warnings = warnings, FloorFactor = double.PositiveInfinity }).Check("Api.DelayAsync.LittleEfficiency", 100);
        warnings.Should().HaveCount(1, "an infinite floor factor never warns");
    }

    [Fact]
    public void A_floor_is_stale_only_beyond_its_factor_widened_by_the_kinds_noise()
    {
        // requests-per-second-min has a noise of 20% there: stale above 1,000 x 1.5 / 0.8 = 1,875 req/s.
        using var budgets = new TestBudgets("baseline-comparison");
        var warnings = new CollectedWarnings();
        var gate = budgets.Gate(options: new BudgetGateOptions { Warnings = warnings });

        gate.Check("Base.Endpoint.RequestsPerSecond", 1850);
        warnings.Should().BeEmpty();
        gate.Check("Base.Endpoint.RequestsPerSecond", 1900);
        warnings.Should().ContainSingle().Which.Should().StartWith("Base.Endpoint.RequestsPerSecond: measured 1,900 req/s, 1.9x its floor of 1,000 (floor factor 1.5, noise 20%)")
            .And.EndWith("re-propose it (perfbudgets propose)");
        gate.Check("Base.Decode.CpuCost", 1);
        warnings.Should().HaveCount(1, "only the floors the policy proposes can be stale by its factor");
    }

    private sealed class CollectedWarnings : List<string>, IBudgetWarningSink
    {
        public void Warn(string line) => Add(line);
    }

    [Fact]
    public void A_zero_budget_passes_at_zero_and_fails_at_one_byte()
    {
        _gate.Check("Zero.Bytes", 0).Verdict.Should().Be(BudgetVerdict.Pass);
        _gate.Invoking(g => g.Check("Zero.Bytes", 1)).Should().Throw<BudgetExceededException>().WithMessage("Zero.Bytes: 1 B/op > budget 0 (over a zero budget)");
    }

    [Fact]
    public void CheckAll_records_every_budget_and_lists_each_broken_one()
    {
        var act = () => _gate.CheckAll(
            new BudgetCheck("Api.DelayAsync.ServerBytesPerRequest", 2312),
            new BudgetCheck("Api.DelayAsync.LittleEfficiency", 0.9),
            new BudgetCheck("Zero.Bytes", 8));

        act.Should().Throw<BudgetExceededException>().Which.Message.Split(Environment.NewLine).Should().Equal(
            "Api.DelayAsync.ServerBytesPerRequest: 2,312 B/request > budget 1,500 (+54%)",
            "Zero.Bytes: 8 B/op > budget 0 (over a zero budget)");
        ResultStore.ReadAll(_gate.Store.ResultsPath).Select(r => r.Budget).Should().BeEquivalentTo(
            ["Api.DelayAsync.ServerBytesPerRequest", "Api.DelayAsync.LittleEfficiency", "Zero.Bytes"]);
        _gate.CheckAll(new BudgetCheck("Zero.Bytes", 0)).Should().ContainSingle().Which.Verdict.Should().Be(BudgetVerdict.Pass);
    }

    [Fact]
    public void A_measurement_that_is_not_a_number_never_passes()
    {
        _gate.Invoking(g => g.Check("Api.DelayAsync.LittleEfficiency", double.NaN)).Should().Throw<BudgetExceededException>();
    }

    [Fact]
    public void Every_measurement_is_recorded_passed_failed_or_informational()
    {
        _gate.Check("Api.DelayAsync.ServerBytesPerRequest", 1200);
        _gate.Invoking(g => g.Check("Api.DelayAsync.LittleEfficiency", 0.1)).Should().Throw<BudgetExceededException>();
        _gate.Observe("Api.DelayAsync.ClientBytesPerRequest", 0, "B/request");

        var results = ResultStore.ReadAll(_gate.Store.ResultsPath);
        results.Select(r => (r.Budget, r.Verdict)).Should().BeEquivalentTo(new[]
        {
            ("Api.DelayAsync.ServerBytesPerRequest", BudgetVerdict.Pass),
            ("Api.DelayAsync.LittleEfficiency", BudgetVerdict.Fail),
            ("Api.DelayAsync.ClientBytesPerRequest", BudgetVerdict.Info),
        });
        results.Should().OnlyContain(r => r.Profile == "ci" && r.Machine.LogicalCores == Environment.ProcessorCount);
        var summary = System.IO.File.ReadAllText(_gate.Store.SummaryPath);
        summary.Should().Contain("| Api.DelayAsync.ServerBytesPerRequest | 1,200 | ≤ 1,500 | B/request | pass |");
        summary.Should().Contain("**FAIL** (-83%)");
    }

    [Fact]
    public void A_newer_result_replaces_the_older_one_and_other_budgets_are_kept()
    {
        var otherProcess = _budgets.Gate();

        _gate.Check("Api.DelayAsync.ServerBytesPerRequest", 1200);
        otherProcess.Check("Zero.Bytes", 0);
        otherProcess.Check("Api.DelayAsync.ServerBytesPerRequest", 1300);

        var results = ResultStore.ReadAll(_gate.Store.ResultsPath);
        results.Should().HaveCount(2);
        results.Single(r => r.Budget == "Api.DelayAsync.ServerBytesPerRequest").Measured.Should().Be(1300);
    }

    [Fact]
    public void A_diagnosis_is_never_run_when_the_budget_passes()
    {
        var calls = 0;

        _gate.Check("Api.DelayAsync.ServerBytesPerRequest", 1200, diagnose: () =>
        {
            calls++;
            return new Attribution("top types per op: X ≈ 1 B", []);
        });

        calls.Should().Be(0);
        ResultStore.ReadAll(_gate.Store.ResultsPath).Single().Attribution.Should().BeNull();
    }

    [Fact]
    public void A_failing_budget_shows_its_diagnosis_after_the_failure_line_and_records_the_breakdown()
    {
        var attribution = new Attribution("top types per op: System.Byte[] ≈ 280 B, System.String ≈ 104 B",
            [new AttributionEntry("System.Byte[]", 280, "B/op", 0.73), new AttributionEntry("System.String", 104, "B/op", 0.27)], "test note");

        var act = () => _gate.Check("Api.DelayAsync.ServerBytesPerRequest", 2312, diagnose: () => attribution);

        act.Should().Throw<BudgetExceededException>().Which.Message.Split(Environment.NewLine).Should().Equal(
            "Api.DelayAsync.ServerBytesPerRequest: 2,312 B/request > budget 1,500 (+54%)",
            "  top types per op: System.Byte[] ≈ 280 B, System.String ≈ 104 B");
        var recorded = ResultStore.ReadAll(_gate.Store.ResultsPath).Single().Attribution;
        recorded.Should().NotBeNull();
        recorded!.Entries.Select(e => (e.Name, e.Value, e.Unit)).Should().Equal(("System.Byte[]", 280, "B/op"), ("System.String", 104, "B/op"));
        System.IO.File.ReadAllText(_gate.Store.ResultsPath).Should().Contain("\"attribution\"").And.Contain("\"entries\"");
        var summary = System.IO.File.ReadAllText(_gate.Store.SummaryPath);
        summary.Should().Contain("**Api.DelayAsync.ServerBytesPerRequest**: top types per op: System.Byte[] ≈ 280 B");
        summary.Should().Contain("- `System.Byte[]`: 280 B/op (73%)");
    }

    [Fact]
    public void A_diagnosis_that_throws_still_reports_the_budget_failure_with_a_note()
    {
        var act = () => _gate.Check("Api.DelayAsync.ServerBytesPerRequest", 2312, diagnose: () => throw new InvalidOperationException("no session\nsecond line"));

        act.Should().Throw<BudgetExceededException>().Which.Message.Split(Environment.NewLine).Should().Equal(
            "Api.DelayAsync.ServerBytesPerRequest: 2,312 B/request > budget 1,500 (+54%)",
            "  attribution unavailable: the diagnosis failed: InvalidOperationException: no session");
        ResultStore.ReadAll(_gate.Store.ResultsPath).Single().Verdict.Should().Be(BudgetVerdict.Fail);
    }

    [Fact]
    public void A_diagnosis_that_hangs_is_abandoned_and_the_budget_failure_is_reported()
    {
        var gate = new BudgetGate(_gate.Book, _gate.Store, new BudgetGateOptions { RequireOptimizedBuild = false, DiagnosisTimeout = TimeSpan.FromMilliseconds(100) });
        using var release = new ManualResetEventSlim();

        var act = () => gate.Check("Zero.Bytes", 8, diagnose: () =>
        {
            release.Wait();
            return new Attribution("never", []);
        });

        act.Should().Throw<BudgetExceededException>().Which.Message.Should().Be(
            "Zero.Bytes: 8 B/op > budget 0 (over a zero budget)" + Environment.NewLine + "  attribution unavailable: the diagnosis took longer than 0.1 s");
        release.Set();
    }

    [Fact]
    public void CheckAll_diagnoses_only_the_broken_budgets()
    {
        var diagnosed = new List<string>();
        Func<Attribution> For(string name) => () =>
        {
            diagnosed.Add(name);
            return new Attribution($"what broke {name}", []);
        };

        var act = () => _gate.CheckAll(
            new BudgetCheck("Api.DelayAsync.ServerBytesPerRequest", 2312) { Diagnose = For("Api.DelayAsync.ServerBytesPerRequest") },
            new BudgetCheck("Zero.Bytes", 0) { Diagnose = For("Zero.Bytes") });

        act.Should().Throw<BudgetExceededException>().Which.Message.Split(Environment.NewLine).Should().Equal(
            "Api.DelayAsync.ServerBytesPerRequest: 2,312 B/request > budget 1,500 (+54%)",
            "  what broke Api.DelayAsync.ServerBytesPerRequest");
        diagnosed.Should().Equal("Api.DelayAsync.ServerBytesPerRequest");
    }
}
