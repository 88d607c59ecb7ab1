using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

// The Hodges-Lehmann ratio and its signed-rank interval, against figures whose answer is known.
public sealed class PairedIntervalTests
{
    [Fact]
    public void Identical_builds_give_a_ratio_of_one_and_an_interval_of_nothing_else()
    {
        double[] figures = [10, 11, 9, 10.5, 12, 9.5, 10, 11];

        PairedInterval.Ratio(figures, figures, 0.95).Should().Be((1.0, 1.0, 1.0));
    }

    [Fact]
    public void A_head_ten_percent_slower_in_every_pair_is_estimated_at_1_1_whatever_the_machine_did()
    {
        // The machine's speed moves both sides of each pair 2x apart over the run; the pairs' ratios stay 1.1 ± 2%.
        var machine = Enumerable.Range(0, 20).Select(i => 1.0 + (i % 5) * 0.25).ToArray();
        var noise = Enumerable.Range(0, 20).Select(i => 1 + ((i * 7 % 5) - 2) * 0.01).ToArray();
        var baseFigures = machine.Select(m => 100 * m).ToArray();
        var headFigures = machine.Select((m, i) => 110 * m * noise[i]).ToArray();

        var (estimate, lower, upper) = PairedInterval.Ratio(baseFigures, headFigures, 0.95);

        estimate.Should().BeApproximately(1.1, 0.005);
        lower.Should().BeGreaterThan(1.07).And.BeLessThan(1.1);
        upper.Should().BeLessThan(1.13).And.BeGreaterThan(1.1);
    }

    [Fact]
    public void One_disturbed_pair_moves_the_estimate_little()
    {
        double[] baseFigures = [100, 101, 99, 100, 102, 98, 100, 101, 99, 100];
        var headFigures = baseFigures.ToArray();
        headFigures[3] = 300;

        var (estimate, _, upper) = PairedInterval.Ratio(baseFigures, headFigures, 0.95);

        estimate.Should().BeLessThan(1.01, "a median of Walsh averages, not a mean");
        upper.Should().BeGreaterThan(1, "the interval still says the pair was seen");
    }

    [Theory]
    [InlineData(20, 0.95, 53)]
    [InlineData(24, 0.90, 92)]
    [InlineData(6, 0.95, 1)]
    public void The_critical_rank_is_the_signed_rank_statistics(int pairs, double confidence, int rank) =>
        // Hollander and Wolfe, table A.4: n = 20, two-sided 0.05, T ≤ 52 rejects, so the interval starts at the 53rd
        // Walsh average; n = 24, 0.10: T ≤ 91.
        PairedInterval.CriticalRank(pairs, confidence).Should().Be(rank);

    [Fact]
    public void Fewer_than_six_usable_pairs_give_no_figure()
    {
        var (estimate, _, _) = PairedInterval.Ratio([1, 1, 1, 1, 1, 0], [1, 1, 1, 1, 1, 1], 0.95);

        double.IsNaN(estimate).Should().BeTrue("a pair with a zero figure has no ratio");
    }

    [Theory]
    [InlineData(0.975, 1, 12.706)]
    [InlineData(0.975, 2, 4.303)]
    [InlineData(0.975, 3, 3.182)]
    [InlineData(0.975, 5, 2.571)]
    [InlineData(0.975, 10, 2.228)]
    [InlineData(0.975, 30, 2.042)]
    [InlineData(0.95, 7, 1.895)]
    [InlineData(0.99, 3, 4.541)]
    [InlineData(0.995, 15, 2.947)]
    public void Students_quantile_is_the_tables_to_three_decimals(double p, int degreesOfFreedom, double table) =>
        // Student's t (Abramowitz and Stegun, table 26.10), where the sequential looks' small counts of pairs need it.
        PairedInterval.StudentQuantile(p, degreesOfFreedom).Should().BeApproximately(table, 0.0015);

    [Fact]
    public void Pairs_of_processes_that_disagree_widen_the_interval_to_their_spread()
    {
        // Three pairs of processes of the same code, each with rounds that agree within 0.5%, whose own estimates are
        // 0.95, 1.00 and 1.08: each pair's luck, which none of their intervals shows.
        PairedComparison Pair(double ratio) => new("units", [.. Enumerable.Repeat(100.0, 8)],
            [.. Enumerable.Range(0, 8).Select(i => 100 * ratio * (1 + (((i % 3) - 1) * 0.005)))], 0.95);
        var pairs = new[] { Pair(0.95), Pair(1.00), Pair(1.08) };
        pairs.Should().AllSatisfy(p => (p.Upper / p.Lower).Should().BeLessThan(1.01));

        var pooled = PairedComparison.Pooled(pairs);

        pooled.ProcessPairRatios.Should().HaveCount(3);
        pooled.BaseRounds.Should().HaveCount(24);
        pooled.Lower.Should().BeLessThan(0.95, "the spread between the pairs, not within them, bounds what one more pair could read");
        pooled.Upper.Should().BeGreaterThan(1.08);
        pooled.ToString().Should().Contain("over 3 pairs of processes, each head/base 0.95 1 1.08");
        PairedComparison.Pooled([pairs[2]]).Lower.Should().Be(pairs[2].Lower, "one pair of processes is its own interval");
        var named = pooled.WithBase("abc123 (HEAD)");
        (named.Lower, named.Upper, named.ProcessPairRatios, named.BaseDescription).Should().Be((pooled.Lower, pooled.Upper, pooled.ProcessPairRatios, "abc123 (HEAD)"));
    }

    [Fact]
    public void Pairs_of_processes_that_agree_give_a_narrow_interval_however_their_rounds_scatter()
    {
        // Four pairs whose rounds scatter by ±20% about their own estimates (1.00, 1.01, 0.99, 1.00): the pair is the
        // unit, so their agreement bounds the pooled estimate, not the rounds pooled as if each were independent.
        PairedComparison Pair(double ratio) => new("units", [.. Enumerable.Repeat(100.0, 10)],
            [.. Enumerable.Range(0, 10).Select(i => 100 * ratio * (1 + (((i % 5) - 2) * 0.1)))], 0.9);
        var pairs = new[] { Pair(1.00), Pair(1.01), Pair(0.99), Pair(1.00) };
        var roundsAsIfIndependent = new PairedComparison("units", [.. pairs.SelectMany(p => p.BaseRounds)], [.. pairs.SelectMany(p => p.HeadRounds)], 0.9);

        var pooled = PairedComparison.Pooled(pairs);

        pooled.Ratio.Should().BeApproximately(Math.Exp(pairs.Average(p => Math.Log(p.Ratio))), 1e-12, "the geometric mean of the pairs' estimates");
        (pooled.Upper / pooled.Lower).Should().BeLessThan(1.03);
        (roundsAsIfIndependent.Upper / roundsAsIfIndependent.Lower).Should().BeGreaterThan(1.09);
        pooled.ToString().Should().Contain("90% interval").And.Contain("(Student's t over 4 pairs of processes, the geometric mean of their Hodges-Lehmann estimates over 40 pairs after 0 of warm-up)");
    }

    [Fact]
    public void From_five_pairs_of_processes_a_fifth_is_trimmed_from_each_end_so_one_disturbed_pair_does_not_set_the_width()
    {
        // The sixteen pairs of a run of the samples' +7% break beside two busy loops: one read 0.643. Student's t over
        // all sixteen read 0.943-1.132, which holds both 1 and the limit; Yuen's trimmed t drops three from each end.
        double[] estimates = [0.981, 1.085, 1.061, 1.08, 1.08, 1.077, 0.643, 1.085, 1.056, 1.042, 1.053, 1.082, 1.084, 1.058, 1.093, 1.079];
        PairedComparison Pair(double ratio) => new("units", [.. Enumerable.Repeat(100.0, 8)],
            [.. Enumerable.Range(0, 8).Select(i => 100 * ratio * (1 + (((i % 3) - 1) * 0.005)))], 0.95);
        var pairs = estimates.Select(Pair).ToList();

        var pooled = PairedComparison.Pooled(pairs, 0.9875);

        var kept = estimates.Order().Skip(3).Take(10).ToList();
        pooled.Ratio.Should().BeApproximately(Math.Exp(kept.Average(Math.Log)), 0.002, "the geometric mean of the ten kept");
        pooled.Lower.Should().BeGreaterThan(1.05, "the fifteen that agree show the change and its size");
        pooled.Upper.Should().BeLessThan(1.1);
        pooled.ToString().Should().Contain("(Yuen's trimmed t over 16 pairs of processes, 3 trimmed from each end, the trimmed geometric mean of their Hodges-Lehmann estimates over 128 pairs after 0 of warm-up)");
        PairedComparison.Trimmed(4).Should().Be(0, "four pairs are Student's t");
        PairedComparison.Trimmed(8).Should().Be(1);
        PairedComparison.Trimmed(12).Should().Be(2);
    }

    [Fact]
    public void A_pair_of_processes_without_an_estimate_leaves_the_rounds_interval_and_the_text_says_so()
    {
        PairedComparison Pair(double ratio, int rounds) => new("units", [.. Enumerable.Repeat(100.0, rounds)],
            [.. Enumerable.Range(0, rounds).Select(i => 100 * ratio * (1 + (((i % 3) - 1) * 0.01)))], 0.9);
        var withoutEstimate = Pair(1.0, 5);
        double.IsNaN(withoutEstimate.Ratio).Should().BeTrue("five rounds give no estimate");

        var pooled = PairedComparison.Pooled([Pair(1.0, 8), Pair(1.01, 8), withoutEstimate]);

        pooled.ToString().Should().Contain("(Hodges-Lehmann over 21 pairs after 0 of warm-up)").And.NotContain("Student's t");
    }

    [Fact]
    public void Pooling_refuses_nothing_and_comparisons_of_different_figures()
    {
        PairedComparison Pair(string figure, double confidence) => new(figure, [.. Enumerable.Repeat(100.0, 8)], [.. Enumerable.Repeat(101.0, 8)], confidence);

        FluentActions.Invoking(() => PairedComparison.Pooled([])).Should().Throw<ArgumentException>();
        FluentActions.Invoking(() => PairedComparison.Pooled([Pair("requests/s", 0.9), Pair("p99 ms", 0.9)]))
            .Should().Throw<ArgumentException>().WithMessage("*requests/s at 0.9, p99 ms at 0.9*");
        FluentActions.Invoking(() => PairedComparison.Pooled([Pair("requests/s", 0.9), Pair("requests/s", 0.95)]))
            .Should().Throw<ArgumentException>();
    }
}
