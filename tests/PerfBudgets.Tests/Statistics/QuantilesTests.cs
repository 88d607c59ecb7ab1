using HdrHistogram;
using PerfBudgets.Load;
using PerfBudgets.Statistics;

namespace PerfBudgets.Tests.Statistics;

public sealed class QuantilesTests
{
    [Theory]
    [InlineData(new[] { 3.0 }, 3.0)]
    [InlineData(new[] { 5.0, 1.0, 3.0 }, 3.0)]
    [InlineData(new[] { 4.0, 1.0, 3.0, 2.0 }, 2.5)]
    public void The_median_is_the_middle_value_or_the_mean_of_the_two_middle_ones(double[] values, double median)
    {
        Quantiles.Median(values).Should().Be(median);
        Quantiles.Median(values.Select(TimeSpan.FromMilliseconds)).Should().Be(TimeSpan.FromMilliseconds(median));
        Quantiles.Interpolated(values, 0.5).Should().Be(median, "the interpolated quantile at one half is the median");
    }

    [Fact]
    public void No_values_have_no_median()
    {
        Quantiles.Median(Array.Empty<double>()).Should().Be(double.NaN);
        FluentActions.Invoking(() => Quantiles.Median(Array.Empty<TimeSpan>())).Should().Throw<ArgumentException>();
    }

    [Theory]
    [InlineData(0.50, 50)]
    [InlineData(0.99, 99)]
    [InlineData(0.999, 100)]
    [InlineData(1.0, 100)]
    [InlineData(0.001, 1)]
    public void A_tail_quantile_is_the_nearest_rank_of_the_sorted_values(double q, long expected)
    {
        var sorted = Enumerable.Range(1, 100).Select(i => (long)i).ToArray();

        Quantiles.NearestRank(sorted, q).Should().Be(expected);
    }

    [Theory]
    [InlineData(0.0)]
    [InlineData(1.01)]
    [InlineData(double.NaN)]
    public void A_nearest_rank_outside_zero_to_one_is_refused(double q) =>
        FluentActions.Invoking(() => Quantiles.NearestRank([1L, 2, 3], q)).Should().Throw<ArgumentOutOfRangeException>();

    [Theory]
    [InlineData(0.0, 1.0)]
    [InlineData(0.25, 1.75)]
    [InlineData(0.75, 3.25)]
    [InlineData(1.0, 4.0)]
    public void A_central_quantile_interpolates_between_the_two_closest_ranks(double q, double expected) =>
        Quantiles.Interpolated([4.0, 1.0, 3.0, 2.0], q).Should().Be(expected);

    [Fact]
    public void No_values_have_no_interpolated_quantile() =>
        Quantiles.Interpolated([], 0.25).Should().Be(double.NaN);

    [Theory]
    [InlineData(100)]
    [InlineData(150)]
    [InlineData(160)]
    [InlineData(999)]
    [InlineData(2000)]
    public void The_load_runners_histogram_reads_the_same_nearest_rank(int count)
    {
        // Values below 1,000 are exact in a three-digit histogram, so any difference is in the rank, not the bucket.
        // HdrHistogram's own reading rounds the rank: the p99 of 160 values would be the 158th.
        var histogram = new LongHistogram(10L * 60 * 1_000_000, 3);
        var sorted = Enumerable.Range(1, count).Select(i => (long)i).ToArray();
        foreach (var value in sorted.Where(v => v < 1000))
        {
            histogram.RecordValue(value);
        }

        var exact = sorted.Where(v => v < 1000).ToArray();
        foreach (var q in new[] { 0.5, 0.9, 0.99, 1.0 })
        {
            LoadRecorder.Percentile(histogram, q * 100).Should().Be(Quantiles.NearestRank(exact, q) / 1000.0, $"the {q} quantile of {exact.Length} values, in milliseconds");
        }
    }
}
