using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests;

// The paired kinds: judged on the interval, never on the estimate alone (a change shown that does not rule the limit
// out fails; beyond, only a whole interval past the limit); unmeasured without a base.
public sealed class BudgetGateVsBaseTests : IDisposable
{
    private readonly TestBudgets _budgets = new("paired");

    public void Dispose() => _budgets.Dispose();

    private BudgetGate Gate(bool ci = false, bool pairingOff = false) =>
        new(_budgets.Book, _budgets.Store(), new BudgetGateOptions { RequireOptimizedBuild = false, IsCi = ci, PairingOff = pairingOff });

    private static readonly BaseBuild MadeUpBase = BaseBuild.Create(Path.GetTempPath(), new string('a', 40), "aaaaaaaaaaaa (the test's)");

    private BudgetGate GateWithBase(Func<BaseSelection, (BaseBuild?, string)>? resolver = null) =>
        new(_budgets.Book, _budgets.Store(), new BudgetGateOptions
        {
            RequireOptimizedBuild = false,
            BaseResolver = resolver ?? (_ => (MadeUpBase, "")),
        });

    // Head ÷ base of `ratio` in every pair, spread ± `spread` around it.
    private static PairedComparison Pairs(double ratio, double spread) => PairedRounds.Compare("units",
        Alternating(ratio, spread), new PairedRoundsOptions(Pairs: 20, WarmUpPairs: 0, MaxWarmUpPairs: 0));

    private static Func<PairedSide, double> Alternating(double ratio, double spread)
    {
        var round = 0;
        return side => side == PairedSide.Base ? 100 : 100 * ratio * (1 + ((round++ % 5) - 2) * spread / 2);
    }

    [Fact]
    public void A_ceiling_fails_when_its_interval_shows_a_change_and_does_not_rule_the_limit_out()
    {
        var atTheLimit = Pairs(1.03, 0.02);
        atTheLimit.Lower.Should().BeGreaterThan(1, "the change is shown");
        atTheLimit.Upper.Should().BeGreaterThan(1.03);

        Gate().CheckVsBase("Demo.Cpu.VsBase", Pairs(1.0, 0.04)).Verdict.Should().Be(BudgetVerdict.Pass, "no change");
        Gate().CheckVsBase("Demo.Cpu.VsBase", Pairs(1.01, 0.004)).Verdict.Should().Be(BudgetVerdict.Pass, "a change shown, and shown to be under the limit");
        Gate().CheckVsBase("Demo.Cpu.VsBase", Pairs(1.04, 0.2)).Verdict.Should().Be(BudgetVerdict.Pass, "an interval that holds 1 shows no change, whatever its estimate");

        var act = () => Gate().CheckVsBase("Demo.Cpu.VsBase", atTheLimit);

        act.Should().Throw<BudgetExceededException>("a change the size of the limit is what the budget must catch")
            .WithMessage("Demo.Cpu.VsBase: 1.0* head/base > budget 1.03*the interval's upper end: it fails when the whole interval lies above 1 (a change shown) and its upper end is above 1.03 (the limit not ruled out)*head/base 1.03, 95% interval*base median 100*");
        Gate().Invoking(g => g.CheckVsBase("Demo.Cpu.VsBase", Pairs(1.06, 0.02))).Should().Throw<BudgetExceededException>();
    }

    [Fact]
    public void Beyond_a_ceiling_fails_only_when_the_whole_interval_is_above_it()
    {
        Gate().CheckVsBase("Demo.Cpu.Beyond.VsBase", Pairs(1.03, 0.02)).Verdict.Should().Be(BudgetVerdict.Pass, "a change shown whose interval reaches below the ceiling");
        Gate().CheckVsBase("Demo.Cpu.Beyond.VsBase", Pairs(1.04, 0.2)).Verdict.Should().Be(BudgetVerdict.Pass, "an estimate above the ceiling whose interval reaches below it is not a failure");

        var act = () => Gate().CheckVsBase("Demo.Cpu.Beyond.VsBase", Pairs(1.06, 0.02));

        act.Should().Throw<BudgetExceededException>()
            .WithMessage("Demo.Cpu.Beyond.VsBase: 1.0* head/base > budget 1.03*the interval's lower end: it fails only when the whole interval is above 1.03*head/base 1.06, 95% interval*base median 100*");
    }

    [Fact]
    public void The_measure_is_handed_the_budgets_limit_and_rule_so_that_its_rounds_can_stop_where_it_is_decided()
    {
        (double?, PairedRule?) seen = default;

        GateWithBase().CheckVsBase("Demo.Cpu.VsBase", b => { seen = (b.BudgetLimit, b.BudgetRule); return Pairs(1.0, 0.02); });
        seen.Should().Be((1.03, PairedRule.Catch));
        GateWithBase().CheckVsBase("Demo.Cpu.Beyond.VsBase", b => { seen = (b.BudgetLimit, b.BudgetRule); return Pairs(1.0, 0.02); });
        seen.Should().Be((1.03, PairedRule.Beyond));

        MadeUpBase.BudgetLimit.Should().BeNull("the gate hands a copy; the base it resolved is shared by every budget");
        MadeUpBase.BudgetRule.Should().BeNull();
    }

    [Fact]
    public void A_pair_whose_builds_cannot_differ_passes_at_1_and_says_it_was_not_run()
    {
        var sameInputs = PairedComparison.SameInputs("units", "the head's inputs to App are the base's (a doc changed)");

        var ceiling = Gate(ci: true).CheckVsBase("Demo.Cpu.VsBase", sameInputs);
        var floor = Gate(ci: true).CheckVsBase("Demo.Rate.VsBase", sameInputs.WithBase("aaaaaaaaaaaa (the test's)"));

        ceiling.Verdict.Should().Be(BudgetVerdict.Pass);
        ceiling.Measured.Should().Be(1);
        ceiling.Detail.Should().Be("not run: the head's inputs to App are the base's (a doc changed); head/base is 1 by construction");
        floor.Verdict.Should().Be(BudgetVerdict.Pass);
        PairedComparison.Pooled([sameInputs, sameInputs]).Should().BeSameAs(sameInputs);
        FluentActions.Invoking(() => PairedComparison.Pooled([sameInputs, Pairs(1, 0.01)])).Should().Throw<ArgumentException>().WithMessage("*not run*");
    }

    [Fact]
    public void A_floor_fails_when_its_interval_shows_a_drop_and_does_not_rule_the_limit_out()
    {
        Gate().CheckVsBase("Demo.Rate.VsBase", Pairs(1.0, 0.04)).Verdict.Should().Be(BudgetVerdict.Pass);
        Gate().CheckVsBase("Demo.Rate.VsBase", Pairs(0.98, 0.004)).Verdict.Should().Be(BudgetVerdict.Pass, "a drop shown, and shown to be above the floor");

        var act = () => Gate().CheckVsBase("Demo.Rate.VsBase", Pairs(0.95, 0.02));

        act.Should().Throw<BudgetExceededException>().WithMessage("Demo.Rate.VsBase: 0.9* head/base < budget 0.95*the interval's lower end: it fails when the whole interval lies below 1 (a change shown) and its lower end is below 0.95*");
    }

    [Fact]
    public void Beyond_a_floor_fails_only_when_the_whole_interval_is_below_it()
    {
        Gate().CheckVsBase("Demo.Rate.Beyond.VsBase", Pairs(0.95, 0.02)).Verdict.Should().Be(BudgetVerdict.Pass);

        var act = () => Gate().CheckVsBase("Demo.Rate.Beyond.VsBase", Pairs(0.9, 0.02));

        act.Should().Throw<BudgetExceededException>().WithMessage("Demo.Rate.Beyond.VsBase: 0.9* head/base < budget 0.95*the interval's upper end*");
    }

    [Fact]
    public void A_comparison_beyond_the_limit_is_measured_again_and_fails_only_when_every_attempt_does()
    {
        // The base is the test's (no git, no build: the comparisons below are made up).
        var unlucky = new Queue<PairedComparison>([Pairs(1.06, 0.02), Pairs(1.0, 0.02)]);

        var result = GateWithBase().CheckVsBase("Demo.Cpu.VsBase", _ => unlucky.Dequeue(), maxAttempts: 2);

        result.Verdict.Should().Be(BudgetVerdict.Pass, "the second pair of processes measured no change");
        result.Detail.Should().StartWith("attempt 2 of 2, earlier attempts broke Demo.Cpu.VsBase = 1.0");
        unlucky.Should().BeEmpty();

        var comparisons = 0;
        var act = () => GateWithBase().CheckVsBase("Demo.Cpu.VsBase", _ => { comparisons++; return Pairs(1.06, 0.02); });

        act.Should().Throw<BudgetExceededException>().WithMessage("Demo.Cpu.VsBase: 1.0*attempt 2 of 2, earlier attempts broke Demo.Cpu.VsBase = 1.0*");
        comparisons.Should().Be(BudgetGate.DefaultVsBaseAttempts);
    }

    [Fact]
    public void A_failing_paired_budget_names_what_its_diagnosis_of_the_same_base_found_and_a_passing_one_never_asks()
    {
        BaseBuild? diagnosed = null;
        Attribution Diagnose(BaseBuild b)
        {
            diagnosed = b;
            return new Attribution("grew against the base, own code with what it called (samples per operation): Demo.Work +6% per operation", []);
        }

        GateWithBase().CheckVsBase("Demo.Cpu.VsBase", _ => Pairs(1.0, 0.02), Diagnose).Verdict.Should().Be(BudgetVerdict.Pass);
        diagnosed.Should().BeNull("a passing budget is not diagnosed");

        var act = () => GateWithBase().CheckVsBase("Demo.Cpu.VsBase", _ => Pairs(1.06, 0.02), Diagnose);

        act.Should().Throw<BudgetExceededException>().Which.Message.Should().Contain($"{Environment.NewLine}  grew against the base, own code with what it called (samples per operation): Demo.Work +6%");
        diagnosed.Should().BeSameAs(MadeUpBase, "the diagnosis profiles against the base the comparison used");
    }

    [Fact]
    public void A_budget_of_another_kind_is_refused() =>
        Gate().Invoking(g => g.CheckVsBase("Demo.Bytes", Pairs(1, 0.01)))
            .Should().Throw<ArgumentException>().WithMessage("*allocated-bytes-per-op budget*vs-base-ratio-max*");

    [Fact]
    public void Without_a_base_a_paired_budget_is_not_measured_and_under_CI_fails_unless_pairing_is_off()
    {
        Gate().Invoking(g => g.NotMeasured("Demo.Cpu.VsBase", "HEAD^1 is not in this shallow clone"))
            .Should().Throw<BudgetNotMeasuredException>();
        Gate(ci: true).Invoking(g => g.NotMeasured("Demo.Cpu.VsBase", "HEAD^1 is not in this shallow clone"))
            .Should().Throw<BudgetExceededException>().WithMessage("*under CI=true an unmeasured budget fails*PERF_BASE_COMMIT=none*");
        Gate(ci: true, pairingOff: true).Invoking(g => g.NotMeasured("Demo.Cpu.VsBase", "pairing is off (PERF_BASE_COMMIT=none)"))
            .Should().Throw<BudgetNotMeasuredException>("turned off on purpose");

        ResultStore.ReadAll(Path.Combine(_budgets.Folder, "results.json")).Single().Verdict.Should().Be(BudgetVerdict.NotMeasured);
    }

    [Fact]
    public void The_base_is_resolved_once_per_gate_and_a_missing_one_is_not_measured_with_its_reason()
    {
        var resolutions = 0;
        var gate = GateWithBase(_ => { resolutions++; return (null, "the base has the head's tree"); });

        gate.Invoking(g => g.CheckVsBase("Demo.Cpu.VsBase", _ => Pairs(1.0, 0.02))).Should().Throw<BudgetNotMeasuredException>()
            .WithMessage("*the base has the head's tree*");
        gate.Invoking(g => g.CheckVsBase("Demo.Rate.VsBase", _ => Pairs(1.0, 0.02))).Should().Throw<BudgetNotMeasuredException>();

        resolutions.Should().Be(1);
    }

    [Fact]
    public void A_host_that_hangs_fails_the_budget_by_name_within_its_timeout_with_its_standard_error()
    {
        var gate = GateWithBase();
        var clock = System.Diagnostics.Stopwatch.StartNew();

        var act = () => gate.CheckVsBase("Demo.Cpu.VsBase", _ =>
        {
            using var host = PerfBudgets.Processes.ChildProcess.Start("bash", ["-c", "echo 'waiting on a lock' >&2; sleep 600"], "the workload host Demo.dll", interactive: true);
            host.Expect("ready", TimeSpan.FromSeconds(1));
            return Pairs(1.0, 0.01);
        }, maxAttempts: 1);

        act.Should().Throw<BudgetExceededException>().WithMessage(
            "Demo.Cpu.VsBase: *the workload host Demo.dll did not answer 'ready' within 1 s and was killed; its standard error ended: waiting on a lock*");
        clock.Elapsed.Should().BeLessThan(TimeSpan.FromSeconds(15));
    }
}
