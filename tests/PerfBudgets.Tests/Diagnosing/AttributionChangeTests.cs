using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Diagnosing;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Diagnosing;

public sealed class AttributionChangeTests : IDisposable
{
    private readonly TestBudgets _budgets = new("attribution-change");

    public void Dispose() => _budgets.Dispose();

    // A breakdown as the allocation profiler records it: 400 samples of a type that is 400 B/op is ±20 B (1/√400 = 5%).
    private static Attribution Breakdown(params (string Name, double Bytes, int Samples)[] types) =>
        new("top types per op: …", types.Select(t => new AttributionEntry(t.Name, t.Bytes, "B/op", null, t.Samples)).ToList());

    [Fact]
    public void A_failure_names_the_type_added_since_the_baseline_and_not_the_sampling_noise()
    {
        var baselineStore = _budgets.Store("baseline");
        var baselineGate = new BudgetGate(_budgets.Book, baselineStore, new BudgetGateOptions { RequireOptimizedBuild = false, DiagnoseAlways = true });
        baselineGate.Check("Json.Endpoint.Employees9.ServerBytesPerRequest", 6045, diagnose: () =>
            Breakdown(("Microsoft.AspNetCore.Mvc.ModelBinding.DefaultModelBindingContext", 400, 400), ("System.String", 310, 300), ("System.Byte[]", 8, 2)));
        ResultStore.ReadAll(baselineStore.ResultsPath).Single().Attribution.Should().NotBeNull("PERF_DIAGNOSE=always records passing breakdowns");

        var gate = new BudgetGate(_budgets.Book, _budgets.Store("now"), new BudgetGateOptions { RequireOptimizedBuild = false, BaselineFile = baselineStore.ResultsPath });
        var act = () => gate.Check("Json.Endpoint.Employees9.ServerBytesPerRequest", 6325, diagnose: () =>
            Breakdown(("Microsoft.AspNetCore.Mvc.ModelBinding.DefaultModelBindingContext", 410, 410), ("System.String", 300, 290), ("System.Byte[]", 290, 90)));

        var lines = act.Should().Throw<BudgetExceededException>().Which.Message.Split(Environment.NewLine);
        lines.Should().HaveCount(3);
        lines[1].Should().Be("  vs baseline: System.Byte[] +282 B/op (±31)", "what changed comes first after the figure");
    }

    [Fact]
    public void A_closure_class_the_compiler_renumbered_is_compared_with_itself_not_named_gone_and_added()
    {
        // A lambda added before the one that captures renumbers its closure class from _0 to _1 (and the new lambda's
        // closure takes _0's place in a method of its own): by name alone, 120 B/op gone and 120 B/op added.
        var baseline = Breakdown(("Sut.Orders+<>c__DisplayClass4_0", 120, 300), ("System.String", 300, 300));
        var current = Breakdown(("Sut.Orders+<>c__DisplayClass5_0", 121, 300), ("System.String", 300, 300), ("System.Byte[]", 290, 90));

        AttributionChange.Describe(current, baseline, "results.json").Should().Be("vs baseline: System.Byte[] +290 B/op (±31)");
    }

    [Fact]
    public void A_baseline_without_a_breakdown_of_the_budget_says_so()
    {
        var current = Breakdown(("System.Byte[]", 290, 90));

        AttributionChange.Describe(current, null, "/runs/results.json")
            .Should().Be("vs baseline: results.json has no breakdown of this budget (record one with PERF_DIAGNOSE=always)");
    }

    [Fact]
    public void A_CPU_breakdown_is_not_compared()
    {
        var cpu = new Attribution("hottest methods: …", [new AttributionEntry("A.B", 40, "%", null, 400)]);

        AttributionChange.Describe(cpu, cpu, "results.json").Should().BeNull("CPU samples of runs of different lengths do not compare");
    }
}
