using System.Globalization;
using PerfBudgets.Budgets;
using PerfBudgets.Server.Changes;

namespace PerfBudgets.Server.Tests.Changes;

/// <summary>
/// <see cref="ChangePointFinder"/> on series kept as data beside this file (commit,figure; oldest first): p99 figures
/// around 12 ms with Gaussian noise of 5% of the level (2% in the 5% step), written once from a fixed seed.
/// </summary>
public sealed class ChangePointFinderTests
{
    [Fact]
    public void A_flat_noisy_series_with_slow_runs_has_no_change_point() =>
        Find("flat-noisy.csv").Should().BeEmpty();

    [Fact]
    public void A_single_outlier_is_not_a_change() =>
        Find("single-outlier.csv").Should().BeEmpty();

    [Fact]
    public void A_15_percent_step_at_commit_30_of_60_is_found_there()
    {
        var changes = Find("step-15pct-at-30.csv");

        var change = changes.Should().ContainSingle().Subject;
        change.Index.Should().BeInRange(29, 31);
        change.Commit.Should().Be($"c{change.Index:000}");
        change.RelativeShift.Should().BeApproximately(0.15, 0.04);
        change.MedianBefore.Should().BeApproximately(12.0, 0.5);
        change.MedianAfter.Should().BeApproximately(13.8, 0.5);
    }

    [Fact]
    public void Two_steps_are_both_found_up_then_down()
    {
        var changes = Find("two-steps.csv");

        changes.Should().HaveCount(2);
        changes[0].Index.Should().BeInRange(24, 26);
        changes[0].RelativeShift.Should().BeApproximately(0.20, 0.05);
        changes[1].Index.Should().BeInRange(54, 56);
        changes[1].RelativeShift.Should().BeApproximately(-0.20, 0.05);
    }

    [Fact]
    public void A_step_below_the_minimum_shift_is_not_reported_and_is_with_a_lower_minimum()
    {
        Find("step-5pct-at-30.csv").Should().BeEmpty();

        var changes = Find("step-5pct-at-30.csv", new ChangePointSettings { MinRelativeShift = 0.03 });

        changes.Should().ContainSingle().Which.Index.Should().BeInRange(29, 31);
    }

    [Fact]
    public void A_series_shorter_than_two_levels_has_none()
    {
        var series = Read("step-15pct-at-30.csv").Skip(25).Take(9).ToList();

        new ChangePointFinder().Find(series).Should().BeEmpty();
    }

    [Fact]
    public void Across_100_seeded_series_noise_is_not_a_change_and_a_15_percent_step_over_5_percent_noise_is_found_at_its_commit()
    {
        // Beyond the one series of each file above: the false alarms and misses of the default settings.
        var finder = new ChangePointFinder();
        var falseAlarms = 0;
        var noisyFalseAlarms = 0;
        var found = 0;
        for (var seed = 1; seed <= 100; seed++)
        {
            var random = new Random(seed);
            var flat = Enumerable.Range(0, 60).Select(i => new CommitFigure($"c{i:000}", 12 * (1 + 0.05 * Gaussian(random)))).ToList();
            var noisy = Enumerable.Range(0, 60).Select(i => new CommitFigure($"c{i:000}", 12 * (1 + 0.20 * Gaussian(random)))).ToList();
            var step = Enumerable.Range(0, 60).Select(i => new CommitFigure($"c{i:000}", (i < 30 ? 12 : 13.8) * (1 + 0.05 * Gaussian(random)))).ToList();
            falseAlarms += finder.Find(flat).Count;
            noisyFalseAlarms += finder.Find(noisy).Count > 0 ? 1 : 0;
            found += finder.Find(step) is [{ Index: >= 29 and <= 31 }] ? 1 : 0;
        }

        falseAlarms.Should().Be(0, "no flat series with 5% noise has a change point");
        noisyFalseAlarms.Should().BeLessThanOrEqualTo(5, "at most 5 of 100 flat series with 20% noise have one (3 of these do)");
        found.Should().BeGreaterThanOrEqualTo(90, "a 15% step over 5% noise is found alone and within one run in at least 90% of series");
    }

    [Fact]
    public void A_constant_series_and_one_that_leaves_zero_are_read_without_error()
    {
        var constant = Enumerable.Range(0, 30).Select(i => new CommitFigure($"c{i:000}", 5)).ToList();
        var fromZero = Enumerable.Range(0, 30).Select(i => new CommitFigure($"c{i:000}", i < 15 ? 0 : 3)).ToList();

        new ChangePointFinder().Find(constant).Should().BeEmpty();
        var change = new ChangePointFinder().Find(fromZero).Should().ContainSingle().Subject;
        change.Index.Should().Be(15);
        change.RelativeShift.Should().Be(double.PositiveInfinity);
    }

    [Fact]
    public void A_machine_step_inside_one_commits_runs_is_no_change_point_though_the_same_figures_one_commit_a_run_have_two()
    {
        // As on the real gate runs: commit A 10 runs, commit B 30 runs of which runs 4 to 16 ran beside other builds
        // (+50%), commit C 5 runs; 5% noise. The code never changed.
        var random = new Random(7);
        var commits = Enumerable.Repeat("A", 10).Concat(Enumerable.Repeat("B", 30)).Concat(Enumerable.Repeat("C", 5)).ToArray();
        var figures = commits.Select((_, i) => (i is >= 13 and <= 25 ? 18.0 : 12.0) * (1 + 0.05 * Gaussian(random))).ToArray();
        var byCommit = commits.Select((c, i) => new CommitFigure(c, figures[i])).ToList();
        var oneCommitARun = figures.Select((f, i) => new CommitFigure($"c{i:000}", f)).ToList();

        new ChangePointFinder().Find(oneCommitARun).Select(c => c.Index).Should().NotBeEmpty("run by run the machine's step is a shift")
            .And.OnlyContain(i => (i >= 12 && i <= 14) || (i >= 25 && i <= 27));
        new ChangePointFinder().Find(byCommit).Should().BeEmpty("both lie between runs of commit B");
        new ChangePointFinder(new ChangePointSettings { MinRelativeShift = 0.01 }).Find(byCommit).Should().BeEmpty("even a 1% minimum step finds none");
    }

    [Theory]
    [InlineData("p99-ms-max")]
    [InlineData("p99-cpu-ms-per-request-max")]
    [InlineData("p99-to-p50-cpu-per-request-max")]
    [InlineData("requests-per-second-min")]
    [InlineData("operations-per-second-min")]
    [InlineData("efficiency-min")]
    [InlineData("ratio-min")]
    [InlineData("cpu-cost-max")]
    public void A_code_step_of_the_kinds_default_plus_a_margin_from_one_commit_on_is_found_at_that_commit_and_one_under_it_is_not(string kind)
    {
        // 20 commits of 3 runs, 2% noise (small, so that the medians of 24 and 36 runs tell 1.25 and 0.75 of the minimum
        // apart in every seed), and within commit 4 a machine step (+50%, two of its three runs); from commit 12 on the
        // figure is worse by the kind's default minimum step with a margin of a quarter of it, or by three quarters of it.
        var budgetKind = BudgetKind.TryParse(kind, out var parsed) ? parsed : throw new ArgumentException(kind);
        var (minShift, source) = ShiftThresholds.Defaults.For("Any.Budget", kind);
        source.Should().Be("default");
        var worse = budgetKind.Direction == BudgetDirection.AtMost ? 1 + minShift * 1.25 : 1 / (1 + minShift * 1.25);
        var under = budgetKind.Direction == BudgetDirection.AtMost ? 1 + minShift * 0.75 : 1 / (1 + minShift * 0.75);
        var finder = new ChangePointFinder();
        for (var seed = 1; seed <= 5; seed++)
        {
            var found = finder.Find(Series(seed, worse), minShift);
            var missed = finder.Find(Series(seed, under), minShift);

            var change = found.Should().ContainSingle($"seed {seed}").Subject;
            change.Index.Should().Be(36);
            change.Commit.Should().Be("k12");
            missed.Should().BeEmpty($"seed {seed}: a step under the minimum is noise");
        }

        static List<CommitFigure> Series(int seed, double factor)
        {
            var random = new Random(seed);
            return Enumerable.Range(0, 60).Select(i => new CommitFigure($"k{i / 3:00}",
                100 * (i >= 36 ? factor : 1) * (i is >= 12 and <= 13 ? 1.5 : 1) * (1 + 0.02 * Gaussian(random)))).ToList();
        }
    }

    [Fact]
    public void An_infinite_minimum_step_finds_nothing_and_a_step_is_measured_alike_up_and_down()
    {
        var up = Enumerable.Range(0, 20).Select(i => new CommitFigure($"c{i:00}", i < 10 ? 12 : 15)).ToList();
        var down = Enumerable.Range(0, 20).Select(i => new CommitFigure($"c{i:00}", i < 10 ? 15 : 12)).ToList();

        new ChangePointFinder().Find(up, double.PositiveInfinity).Should().BeEmpty();
        new ChangePointFinder().Find(up, 0.24).Should().ContainSingle().Which.RelativeShift.Should().Be(0.25);
        new ChangePointFinder().Find(down, 0.24).Should().ContainSingle().Which.RelativeShift.Should().Be(-0.2, "15 → 12 is the step 12 → 15 taken back");
        new ChangePointFinder().Find(down, 0.26).Should().BeEmpty();
    }

    [Theory]
    [InlineData("p99-ms-max", true)]
    [InlineData("requests-per-second-min", true)]
    [InlineData("efficiency-min", true)]
    [InlineData("cpu-cost-max", true)]
    [InlineData("p99-cpu-ms-per-request-max", true)]
    [InlineData("p99-to-p50-cpu-per-request-max", true)]
    [InlineData("instructions-max", false)]
    [InlineData("allocated-bytes-per-op", false)]
    [InlineData("bytes-max", false)]
    [InlineData("info", false)]
    public void Only_timed_kinds_are_read_as_series(string kind, bool timed) =>
        ChangePointFinder.IsTimed(kind).Should().Be(timed);

    // A standard normal deviate (Box-Muller), so that a seed gives the same series on every runtime.
    private static double Gaussian(Random random) =>
        Math.Sqrt(-2 * Math.Log(1 - random.NextDouble())) * Math.Cos(2 * Math.PI * random.NextDouble());

    private static IReadOnlyList<ChangePoint> Find(string file, ChangePointSettings? settings = null) =>
        new ChangePointFinder(settings).Find(Read(file));

    private static List<CommitFigure> Read(string file) =>
        File.ReadAllLines(Path.Combine(AppContext.BaseDirectory, "Server", "Changes", file))
            .Skip(1)
            .Select(line => line.Split(','))
            .Select(cells => new CommitFigure(cells[0], double.Parse(cells[1], CultureInfo.InvariantCulture)))
            .ToList();
}
