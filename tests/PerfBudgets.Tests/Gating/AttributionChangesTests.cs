using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Reporting;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Gating;

public sealed class AttributionChangesTests
{
    private readonly BudgetBook _book = TestBudgets.Read("counted");

    [Fact]
    public void Without_a_baseline_or_a_recording_of_its_methods_nothing_changed()
    {
        // TestVectors/budgets holds no recorded-methods file beside counted.json.
        var changes = new AttributionChanges(_book, baseline: null);
        var budget = _book.Get("Demo.Instructions");
        var attribution = new Attribution("top: Foo", [new AttributionEntry("Foo", 10, "instructions/op", 1)]) { Change = "stale" };

        changes.SinceBaseline(budget, attribution).Should().BeSameAs(attribution);
        changes.CountedGrowth(budget, attribution, inclusive: null).Change.Should().BeNull();
    }
}
