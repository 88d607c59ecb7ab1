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
}
