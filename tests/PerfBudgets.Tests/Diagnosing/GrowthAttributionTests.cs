using PerfBudgets.Diagnosing;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tests.Diagnosing;

public sealed class GrowthAttributionTests
{
    [Fact]
    public void A_method_whose_count_per_item_rises_with_the_size_is_named_and_one_that_grows_with_the_input_is_not()
    {
        // Per employee: Write 1,000 at both sizes (linear), Setup a fixed 50,000 an operation, Find 10 x n (a scan of
        // the list per employee written: 90 at 9, 10,000 at 1,000).
        var growth = Growth(
            small: [("Demo::Write", 9_000), ("Demo::Setup", 50_000), ("Demo::Find", 810)],
            large: [("Demo::Write", 1_000_000), ("Demo::Setup", 50_000), ("Demo::Find", 10_000_000)]);

        var attribution = GrowthAttribution.From(growth);

        attribution.Summary.Should().Be("grew faster than the input (9 → 1,000 employees), per employee: Demo::Find 90 → 10,000 (+9,910,000 instructions/op over linear)");
        attribution.Entries.Select(e => e.Name).Should().Equal("Demo::Find", "Demo::Write", "Demo::Setup");
        attribution.Entries[0].Should().Be(new AttributionEntry("Demo::Find", 10_000, "instructions/employee", 10_000_000 / 11_050_000.0));
        GrowthAttribution.FasterThanInput(growth).Select(m => m.Method).Should().Equal("Demo::Find");
    }

    [Fact]
    public void A_method_that_runs_only_at_the_large_size_is_named_from_zero()
    {
        var growth = Growth(small: [("Demo::Write", 9_000)], large: [("Demo::Write", 1_000_000), ("Demo::Grow", 200_000)]);

        GrowthAttribution.From(growth).Summary.Should().Contain("Demo::Grow 0 → 200 (+200,000 instructions/op over linear)");
    }

    [Fact]
    public void Small_changes_are_not_named_however_they_grow()
    {
        // Demo::Noise doubles per item but adds 0.1% of the large count: within what server counts move between runs.
        var growth = Growth(
            small: [("Demo::Write", 9_000), ("Demo::Noise", 9)],
            large: [("Demo::Write", 1_000_000), ("Demo::Noise", 2_000), ("Demo::Slightly", 0)]);

        GrowthAttribution.From(growth).Summary.Should().Be("no method's count per employee rose by more than 5% from 9 → 1,000 employees");
    }

    [Fact]
    public void A_method_that_adds_much_but_grows_by_less_than_the_named_rise_per_item_is_not_named()
    {
        // 3% more per employee at the large size: a real change, but the exponent budget's, not a scan's.
        var growth = Growth(small: [("Demo::Write", 9_000)], large: [("Demo::Write", 1_030_000)]);

        GrowthAttribution.FasterThanInput(growth).Should().BeEmpty();
    }

    private static GrowthMeasurement Growth((string Method, double PerOperation)[] small, (string Method, double PerOperation)[] large) =>
        new("Demo", Counted(small), 9, Counted(large), 1_000, "employee");

    private static InstructionMeasurement Counted((string Method, double PerOperation)[] methods)
    {
        var total = (long)methods.Sum(m => m.PerOperation);
        return new()
        {
            Workload = "Demo",
            OperationsPerRepetition = 1,
            InstructionsByRepetition = [total],
            SystemCallsByRepetition = [0],
            EstimatedCyclesByRepetition = [],
            Methods = [.. methods.OrderByDescending(m => m.PerOperation).Select(m => new MethodInstructions(m.Method, m.PerOperation))],
            RuntimeVersion = "10.0.12",
            ValgrindVersion = "3.19.0",
        };
    }
}
