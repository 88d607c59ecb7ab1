using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

public sealed class GrowthMeasurementTests
{
    [Theory]
    [InlineData(9_000, 9, 1_000_000, 1_000, 1)] // linear: 1,000 instructions an item
    [InlineData(81, 9, 1_000_000, 1_000, 2)] // quadratic: a scan of the whole list per item
    [InlineData(100, 10, 1_000, 100, 1)]
    public void The_exponent_of_cost_proportional_to_size_to_the_k_is_k(double smallCost, double smallSize, double largeCost, double largeSize, double k)
    {
        GrowthMeasurement.ExponentOf(smallCost, smallSize, largeCost, largeSize).Should().BeApproximately(k, 1e-12);
    }

    [Fact]
    public void A_fixed_cost_keeps_linear_work_below_1_and_a_scan_per_item_raises_the_exponent_whatever_it_started_from()
    {
        // A fixed cost as large as 250 items: the exponent of the linear work is 0.33, and a scan of 20 instructions
        // per item already written, for each item, takes it to 0.93: still below 1, so the limit is set from the
        // measured exponent, not from 1.
        static double Linear(double n) => 250_000 + (1_000 * n);
        static double Scanning(double n) => Linear(n) + (20 * n * n);

        var linear = GrowthMeasurement.ExponentOf(Linear(9), 9, Linear(1_000), 1_000);
        var scanning = GrowthMeasurement.ExponentOf(Scanning(9), 9, Scanning(1_000), 1_000);

        linear.Should().BeApproximately(0.334, 0.001);
        scanning.Should().BeApproximately(0.934, 0.001);
    }

    [Fact]
    public void Ten_percent_more_per_item_at_the_large_size_moves_the_exponent_by_log_1_1_over_log_the_size_ratio()
    {
        var before = GrowthMeasurement.ExponentOf(9_000, 9, 1_000_000, 1_000);
        var after = GrowthMeasurement.ExponentOf(9_000, 9, 1_100_000, 1_000);

        (after - before).Should().BeApproximately(Math.Log(1.1) / Math.Log(1_000 / 9.0), 1e-12).And.BeGreaterThan(0.02);
    }

    [Theory]
    [InlineData(0, 9, 1, 1_000)]
    [InlineData(1, 9, 0, 1_000)]
    [InlineData(1, 0, 1, 1_000)]
    [InlineData(1, 9, 1, 9)]
    [InlineData(1, 1_000, 1, 9)]
    public void Sizes_must_increase_and_costs_be_positive(double smallCost, double smallSize, double largeCost, double largeSize)
    {
        var act = () => GrowthMeasurement.ExponentOf(smallCost, smallSize, largeCost, largeSize);

        act.Should().Throw<ArgumentOutOfRangeException>();
    }

    [Fact]
    public void A_measurement_at_two_sizes_compares_their_smallest_repetitions()
    {
        var growth = new GrowthMeasurement("Demo", Counted(10, 9_000, 9_500), 9, Counted(1, 1_000_000, 1_200_000), 1_000, "employee");

        growth.SizeRatio.Should().BeApproximately(111.111, 0.001);
        growth.CostRatio.Should().BeApproximately(1_000_000 / 900.0, 1e-9);
        growth.Exponent.Should().BeApproximately(GrowthMeasurement.ExponentOf(900, 9, 1_000_000, 1_000), 1e-12);
        growth.InstructionsPerItem.Should().Be(1_000);
        growth.ToString().Should().StartWith("9 → 1,000 employees (x111.11): 900 → 1,000,000 instructions/op (x1,111.11), exponent 1.4888; 100 → 1,000 instructions/employee");
    }

    [Fact]
    public void Counts_reused_from_one_stored_run_are_said_to_be_once()
    {
        var reused = new ReusedCount(new DateTimeOffset(2026, 11, 29, 21, 15, 0, TimeSpan.Zero), "run-7", new string('a', 64));
        var growth = new GrowthMeasurement("Demo", Counted(10, 9_000, 9_500) with { Reused = reused }, 9, Counted(1, 1_000_000, 1_200_000) with { Reused = reused }, 1_000, "employee");

        growth.ToString().Should().EndWith("; reused, not counted again: counted 2026-11-29 21:15 UTC in run run-7 with byte-identical inputs (key aaaaaaaaaaaaaaaa)");
        new GrowthMeasurement("Demo", Counted(10, 9_000, 9_500), 9, Counted(1, 1_000_000, 1_200_000), 1_000, "employee").ToString().Should().NotContain("reused");
    }

    [Fact]
    public void Counts_that_were_not_stored_for_reuse_say_why_once()
    {
        const string why = "a file the host mapped is gone: /lib/libgone.so";
        var small = Counted(10, 9_000, 9_500) with { NotStoredBecause = why };

        new GrowthMeasurement("Demo", small, 9, Counted(1, 1_000_000, 1_200_000) with { NotStoredBecause = why }, 1_000, "employee")
            .ToString().Should().EndWith($"valgrind 3.19.0; counted, not stored for reuse: {why}");
        small.ToString().Should().EndWith($"; counted, not stored for reuse: {why}", "the next run will count it again, and the detail says so");
    }

    [Fact]
    public void Per_item_counts_divide_every_method_and_the_figure_by_the_items_of_an_operation()
    {
        var perEmployee = Counted(2, 2_000_000, 2_100_000).PerItem(1_000);

        perEmployee.OperationsPerRepetition.Should().Be(2_000);
        perEmployee.InstructionsPerOperation.Should().Be(1_000);
        perEmployee.Methods.Should().Equal(new MethodInstructions("Demo::Write", 600), new MethodInstructions("Demo::Read", 400));
        perEmployee.SystemCallsPerOperation.Should().Be(0.004);
        perEmployee.Invoking(m => m.PerItem(0)).Should().Throw<ArgumentOutOfRangeException>();
    }

    private static InstructionMeasurement Counted(int operations, long fewest, long most) =>
        new()
        {
            Workload = "Demo",
            OperationsPerRepetition = operations,
            InstructionsByRepetition = [most, fewest],
            SystemCallsByRepetition = [4 * operations, 5 * operations],
            EstimatedCyclesByRepetition = [],
            Methods = [new MethodInstructions("Demo::Write", 0.6 * fewest / operations), new MethodInstructions("Demo::Read", 0.4 * fewest / operations)],
            SystemCallSites = [new MethodInstructions("send", 4)],
            RuntimeVersion = "10.0.12",
            ValgrindVersion = "3.19.0",
        };
}
