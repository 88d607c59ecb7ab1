using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
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

        changes.SinceReferences(budget, attribution).Should().BeSameAs(attribution);
        changes.CountedGrowth(budget, 1_000, attribution, inclusive: null).Change.Should().BeNull();
    }

    [Fact]
    public void An_allocation_failure_names_the_method_and_the_type_whose_bytes_grew_since_the_recorded_profile()
    {
        using var budgets = new TestBudgets("attribution-change");
        var path = budgets.WriteBudgetFile();
        // Recorded: Render allocates 4,000 B/op of strings, Parse 6,000 B/op of tokens (about 2,000 samples each).
        RecordedMethodsFile.Write(Path.Combine(budgets.Folder, RecordedMethodsFile.FileName),
            new Dictionary<string, IReadOnlyList<AttributionEntry>> { [Budget] = [Sampled("Token", 6_000, 2_000), Sampled("System.String", 4_000, 2_000)] },
            new Dictionary<string, IReadOnlyList<AttributionEntry>> { [Budget] = [Sampled("App.Parse", 6_000, 2_000), Sampled("App.Render", 4_000, 2_000)] });
        var book = BudgetBook.Load(path, "ci");
        var changes = new AttributionChanges(book, baseline: null);
        // Now: Render allocates a list snapshot per call (+1,500 B/op of List<string>); Parse moved by sampling error only.
        var now = new Attribution("top types", [Sampled("Token", 6_090, 2_100), Sampled("System.String", 4_020, 1_400), Sampled("System.Collections.Generic.List`1[System.String]", 1_500, 500)])
        {
            OwnCode = [Sampled("App.Parse", 6_080, 2_100), Sampled("App.Render", 5_530, 1_900)],
        };

        var change = changes.SinceReferences(book.Get(Budget), now).Change;

        change.Should().StartWith("grew since the recording (budgets.methods.json), own code with what it called: App.Render +1,530 B/op (95% of the +1,610 growth; 4,000 → 5,530)")
            .And.NotContain("App.Parse +")
            .And.Contain("grew since the recording (budgets.methods.json), by type: System.Collections.Generic.List`1[System.String] +1,500 B/op (93% of the +1,610 growth; 0 → 1,500)")
            .And.NotContain("Token +");
    }

    private const string Budget = "Json.Endpoint.Employees9.ServerBytesPerRequest";

    private static AttributionEntry Sampled(string name, double bytes, int samples) => new(name, bytes, "B/op", null, samples);
}
