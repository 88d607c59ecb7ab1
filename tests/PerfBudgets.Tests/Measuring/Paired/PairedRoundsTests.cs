using PerfBudgets.Budgets;
using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

// How the paired rounds run: the order of the alternating design, the warm-up that waits for steadiness, the duet.
public sealed class PairedRoundsTests
{
    [Fact]
    public void Alternating_rounds_run_in_ABBA_order_and_pair_each_base_round_with_its_head_round()
    {
        var order = new List<PairedSide>();
        var comparison = PairedRounds.Compare("units", side =>
        {
            order.Add(side);
            return side == PairedSide.Base ? 100 : 105;
        }, new PairedRoundsOptions(Pairs: 6, WarmUpPairs: 0, MaxWarmUpPairs: 0));

        order.Should().Equal(
            PairedSide.Base, PairedSide.Head, PairedSide.Head, PairedSide.Base, PairedSide.Base, PairedSide.Head,
            PairedSide.Head, PairedSide.Base, PairedSide.Base, PairedSide.Head, PairedSide.Head, PairedSide.Base);
        comparison.Ratio.Should().BeApproximately(1.05, 1e-9);
        comparison.BaseRounds.Should().HaveCount(6);
    }

    [Fact]
    public async Task Warm_up_goes_on_until_five_rounds_of_each_side_are_steady()
    {
        // A JIT's tiers: slow, a plateau, then steady; only the steady rounds are measured.
        double[] figures = [300, 250, 240, 240, 240, 100, 60, 50, 50, 51, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50, 50];
        var round = 0;
        var comparisons = await PairedRounds.CompareTogetherAsync(["µs"], _ =>
        {
            var figure = figures[Math.Min(round++, figures.Length - 1)];
            return Task.FromResult<(IReadOnlyList<double>, IReadOnlyList<double>)>(([figure], [figure]));
        }, new PairedRoundsOptions(Pairs: 6, WarmUpPairs: 3, MaxWarmUpPairs: 30), TestContext.Current.CancellationToken);

        comparisons[0].WarmUpPairs.Should().Be(12, "rounds 7-11 are the first five within 10% of their median, so round 12 is the first measured");
        comparisons[0].BaseRounds.Should().OnlyContain(f => f <= 51);
    }

    [Fact]
    public void Warm_up_ends_at_its_limit_when_the_rounds_never_settle()
    {
        var round = 0;
        var comparison = PairedRounds.Compare("units", _ => round++ % 2 == 0 ? 100 : 200, new PairedRoundsOptions(Pairs: 6, WarmUpPairs: 2, MaxWarmUpPairs: 4));

        comparison.WarmUpPairs.Should().Be(4);
    }

    [Fact]
    public async Task A_round_that_answers_the_wrong_number_of_figures_is_refused()
    {
        var act = () => PairedRounds.CompareAsync(["a", "b"], (_, _) => Task.FromResult<IReadOnlyList<double>>([1.0]),
            new PairedRoundsOptions(Pairs: 6, WarmUpPairs: 0, MaxWarmUpPairs: 0), TestContext.Current.CancellationToken);

        await act.Should().ThrowAsync<InvalidOperationException>().WithMessage("*1 and 1 figures for 2 names*");
    }

    [Fact]
    public void Fewer_pairs_than_an_interval_needs_are_refused() =>
        FluentActions.Invoking(() => PairedRounds.Compare("units", _ => 1, new PairedRoundsOptions(Pairs: 5)))
            .Should().Throw<ArgumentOutOfRangeException>().WithMessage("*at least 6 pairs*");

    // A start's comparison run until decided: each pair of rounds is a pair of fresh launches, looks of 6 up to 24.
    private static readonly PairedRoundsOptions Launches = new(Pairs: 6, WarmUpPairs: 1, Confidence: 0.9, MaxWarmUpPairs: 1)
    {
        ProcessPairsPerLook = 6,
        MaxProcessPairs = 24,
    };

    private static Budget StartCpu(PairedRule rule = PairedRule.Catch) =>
        new("Start.CpuMs.VsBase", BudgetKind.VsBaseRatioMax, 1.1, "head/base", "ci", "the start's CPU time") { PairedRule = rule };

    // A launch's CPU time: ratio × 300 ms on the head, each launch moved by `noise` (log-normal) of its own.
    private static Func<PairedSide, CancellationToken, Task<double>> Launch(double ratio, double noise, Random random, Action? counted = null) => (side, _) =>
    {
        counted?.Invoke();
        var z = Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());
        return Task.FromResult(300 * (side == PairedSide.Head ? ratio : 1) * Math.Exp(noise * z));
    };

    [Fact]
    public async Task A_start_far_from_its_limit_is_decided_at_the_first_look_and_says_how_many_pairs_it_ran()
    {
        var launches = 0;
        var ct = TestContext.Current.CancellationToken;

        var broken = await PairedRounds.CompareUntilDecidedAsync("CPU ms", StartCpu(), Launch(1.3, 0.02, new Random(1), () => launches++), Launches, ct);
        var unchanged = await PairedRounds.CompareUntilDecidedAsync("CPU ms", StartCpu(), Launch(1.0, 0.02, new Random(2)), Launches, ct);

        launches.Should().Be(14, "one pair of warm-up and one look of six pairs, two launches each");
        broken.BaseRounds.Should().HaveCount(6);
        broken.Lower.Should().BeGreaterThan(1.1);
        broken.ToString().Should().Contain("decided at look 1 of 4 (6 of at most 24 pairs of processes): the interval lies wholly above 1.1")
            .And.Contain("each look's interval at 97.5%");
        broken.Confidence.Should().Be(0.9);
        unchanged.Upper.Should().BeLessThan(1.1);
        unchanged.ToString().Should().Contain("decided at look 1 of 4").And.Contain("the interval lies wholly below 1.1");
    }

    [Fact]
    public async Task A_start_whose_interval_holds_both_1_and_the_limit_runs_on_to_the_cap()
    {
        var launches = 0;

        var wide = await PairedRounds.CompareUntilDecidedAsync("CPU ms", StartCpu(), Launch(1.02, 0.3, new Random(3), () => launches++), Launches, TestContext.Current.CancellationToken);

        launches.Should().Be(2 * (1 + 24));
        wide.BaseRounds.Should().HaveCount(24);
        wide.ToString().Should().Contain("not decided at the cap (24 pairs of processes, look 4 of 4)");
    }

    [Fact]
    public async Task Run_until_decided_a_start_keeps_its_errors_within_the_confidence_wherever_it_stopped()
    {
        // 1,000 comparisons each of an unchanged start and of one 10% slower, launches moved by 8% each (the spread of
        // the app's start on a shared machine), looks of 12 pairs up to 48: under catch at 90%, unchanged code fails
        // when an interval lies wholly above 1, at most 5% of the time whatever look stopped it; +10% passes when an
        // interval lies wholly below its true ratio (5% again), or when the cap leaves it holding both 1 and 1.1, which
        // at 48 pairs of this spread it almost never does.
        var random = new Random(4);
        var ct = TestContext.Current.CancellationToken;
        var budget = StartCpu();
        var options = Launches with { ProcessPairsPerLook = 12, MaxProcessPairs = 48 };
        int unchangedFailed = 0, brokenPassed = 0;
        for (var i = 0; i < 1_000; i++)
        {
            var unchanged = await PairedRounds.CompareUntilDecidedAsync("CPU ms", budget, Launch(1.0, 0.08, random), options, ct);
            var broken = await PairedRounds.CompareUntilDecidedAsync("CPU ms", budget, Launch(1.1, 0.08, random), options, ct);
            unchangedFailed += PairedDecision.Of(budget).Fails(unchanged.Lower, unchanged.Upper) ? 1 : 0;
            brokenPassed += PairedDecision.Of(budget).Fails(broken.Lower, broken.Upper) ? 0 : 1;
        }

        // 5% of 1,000 is 50, with a binomial spread of about 7.
        unchangedFailed.Should().BeLessThan(65, $"unchanged failed {unchangedFailed}, broken passed {brokenPassed}");
        brokenPassed.Should().BeLessThan(65, $"unchanged failed {unchangedFailed}, broken passed {brokenPassed}");
    }

    [Fact]
    public async Task Rounds_run_until_decided_refuse_a_budget_that_is_not_paired_and_a_look_too_short_for_an_interval()
    {
        var ct = TestContext.Current.CancellationToken;
        var absolute = new Budget("Start.CpuMs", BudgetKind.CpuCostMax, 400, "ms", "ci", "the start");

        await FluentActions.Awaiting(() => PairedRounds.CompareUntilDecidedAsync("CPU ms", absolute, Launch(1, 0.01, new Random(5)), Launches, ct))
            .Should().ThrowAsync<ArgumentException>().WithMessage("*Start.CpuMs is a*paired one*");
        await FluentActions.Awaiting(() => PairedRounds.CompareUntilDecidedAsync("CPU ms", StartCpu(), Launch(1, 0.01, new Random(5)), Launches with { ProcessPairsPerLook = 4 }, ct))
            .Should().ThrowAsync<ArgumentOutOfRangeException>();
    }
}

