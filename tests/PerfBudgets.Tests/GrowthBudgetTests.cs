using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Reporting;
using PerfBudgets.Tests.Support;
using PerfBudgets;

namespace PerfBudgets.Tests;

// The growth-exponent-max kind: the gate's check of an operation counted at two sizes, what a failure names and the
// runtime check. The tool's recorder re-records it like any counted budget (PerfBudgets.Tool.Tests/Recording).
public sealed class GrowthBudgetTests : IDisposable
{
    private readonly TestBudgets _budgets = new("growth", edit: text => text.Replace("RUNTIME", InstructionMeter.RuntimeVersion, StringComparison.Ordinal));

    public void Dispose() => _budgets.Dispose();

    private BudgetGate Gate() => new(_budgets.Book, _budgets.Store(), new BudgetGateOptions { RequireOptimizedBuild = false });

    // 1,000 instructions an employee and a fixed 10,000 an operation, plus what the large size adds.
    private static GrowthMeasurement Growth(double addedAtLarge = 0, string? runtime = null)
    {
        InstructionMeasurement Counted(double employees, double added)
        {
            var methods = new List<MethodInstructions> { new("Demo::Write", 1_000 * employees), new("Demo::Setup", 10_000) };
            if (added > 0)
            {
                methods.Add(new("Demo::Find", added));
            }

            return new()
            {
                Workload = "Demo",
                OperationsPerRepetition = 1,
                InstructionsByRepetition = [(long)methods.Sum(m => m.PerOperation)],
                SystemCallsByRepetition = [0],
                EstimatedCyclesByRepetition = [],
                Methods = methods,
                RuntimeVersion = runtime ?? InstructionMeter.RuntimeVersion,
                ValgrindVersion = "3.19.0",
            };
        }

        return new GrowthMeasurement("Demo", Counted(9, 0), 9, Counted(1_000, addedAtLarge), 1_000, "employee");
    }

    [Fact]
    public void The_recorded_exponent_passes_and_is_recorded_with_its_breakdown_per_item()
    {
        var result = Gate().CheckGrowth("Demo.Growth", Growth(), "the list at two sizes");

        result.Verdict.Should().Be(BudgetVerdict.Pass);
        result.Measured.Should().BeApproximately(Math.Log(1_010_000 / 19_000.0) / Math.Log(1_000 / 9.0), 1e-12).And.BeApproximately(0.8435, 0.0001);
        result.Unit.Should().Be("exponent");
        result.Detail.Should().StartWith("the list at two sizes; 9 → 1,000 employees (x111.11): 19,000 → 1,010,000 instructions/op");
        result.Attribution!.Entries.Select(e => (e.Name, e.Unit)).Should().Contain(("Demo::Write", "instructions/employee"));
    }

    [Fact]
    public void A_scan_of_the_list_per_employee_fails_the_budget_by_name_and_names_the_method()
    {
        // 20 instructions per employee already written, for each employee: 20 x 1,000² / 2 at the large size.
        var act = () => Gate().CheckGrowth("Demo.Growth", Growth(addedAtLarge: 10_000_000));

        act.Should().Throw<BudgetExceededException>().Which.Message.Should()
            .StartWith("Demo.Growth: 1.351 exponent > budget 0.86")
            .And.Contain("grew faster than the input (9 → 1,000 employees), per employee: Demo::Find 0 → 10,000 (+10,000,000 instructions/op over linear)")
            .And.NotContain("Demo::Write 1,000 →");
    }

    [Fact]
    public void Ten_percent_more_per_employee_at_the_large_size_fails_a_2_percent_margin()
    {
        // 0.8435 recorded as 0.84, limit 0.86; 10% more at the large size adds log(1.1) / log(111.1) = 0.020.
        Gate().Invoking(g => g.CheckGrowth("Demo.Growth", Growth(addedAtLarge: 101_000)))
            .Should().Throw<BudgetExceededException>().WithMessage("Demo.Growth: *");
    }

    [Fact]
    public void Counts_from_another_runtime_fail_and_ask_for_a_re_recording()
    {
        Gate().Invoking(g => g.CheckGrowth("Demo.Growth", Growth(runtime: "9.0.0")))
            .Should().Throw<BudgetExceededException>().WithMessage($"Demo.Growth: recorded on .NET {InstructionMeter.RuntimeVersion}, counted on .NET 9.0.0: counts do not compare across runtime versions; *re-record*");
    }

    [Fact]
    public void Each_check_takes_only_its_own_kinds()
    {
        Gate().Invoking(g => g.CheckGrowth("Demo.Instructions", Growth())).Should().Throw<BudgetFileException>().WithMessage("*CheckGrowth takes growth-exponent-max*");
        Gate().Invoking(g => g.CheckCount("Demo.Growth", Growth().Large)).Should().Throw<BudgetFileException>().WithMessage("*growth-exponent-max budget; CheckCount takes*");
    }

    [Fact]
    public void A_growth_budget_needs_a_recording_like_every_counted_budget()
    {
        var text = """{ "profiles": ["ci"], "budgets": [ { "name": "X.Growth", "kind": "growth-exponent-max", "limit": 1.02, "unit": "exponent" } ] }""";

        var act = () => BudgetBook.Parse(text, "budgets.json", "ci");

        act.Should().Throw<BudgetFileException>().WithMessage("*a growth-exponent-max budget needs 'recorded'*");
    }

    [Fact]
    public void An_exponent_below_0_is_a_valid_recording_and_its_margin_is_in_exponent_units()
    {
        // The echo service's user-space work does not grow with the frame: its exponent is about 0, where a fraction
        // of the recording would leave no room at all.
        var text = """{ "profiles": ["ci"], "budgets": [ { "name": "X.Growth", "kind": "growth-exponent-max", "limit": 0.045, "unit": "exponent", "recorded": -0.0056, "margin": 0.05, "recordedOn": { "runtime": "10.0.12", "valgrind": "3.19.0" } } ] }""";

        BudgetBook.Parse(text, "budgets.json", "ci").Get("X.Growth").Limit.Should().Be(0.045);
        var handEdited = () => BudgetBook.Parse(text.Replace("0.045", "0.05", StringComparison.Ordinal), "budgets.json", "ci");
        handEdited.Should().Throw<BudgetFileException>().WithMessage("*limit 0.05 is not recorded -0.0056 + margin 0.05 = 0.045*");
        CountedLimits.Limit(BudgetKind.GrowthExponentMax, 1, 0.01).Should().Be(1.01, "a sum that is exactly on three decimals is not rounded up past it");
        CountedLimits.Recording(BudgetKind.GrowthExponentMax, [1.00331, 1.00329], 0.01).Should().Be((1.0033, 1.014));
    }
}
