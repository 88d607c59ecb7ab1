using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Measuring;

// These run in both configurations: in Release the gate measures, in Debug it must refuse every budget that
// depends on code generation with one line naming the cause and the fix, and still check output sizes.
public sealed class BuildOptimizationTests : IDisposable
{
#if DEBUG
    private static readonly bool ThisBuildIsOptimized = false;
#else
    private static readonly bool ThisBuildIsOptimized = true;
#endif

    private readonly TestBudgets _budgets = new("build-optimization");

    public void Dispose() => _budgets.Dispose();

    [Fact]
    public void The_optimizer_state_is_read_from_the_assembly_itself()
    {
        BuildOptimization.IsOptimized(typeof(BuildOptimizationTests).Assembly).Should().Be(ThisBuildIsOptimized);
        BuildOptimization.IsOptimized(typeof(object).Assembly).Should().BeTrue("the runtime is always an optimized build");
        BuildOptimization.FindNonOptimized([typeof(object).Assembly, typeof(BuildOptimizationTests).Assembly])
            .Should().Equal(ThisBuildIsOptimized ? [] : ["PerfBudgets.Tests"]);
    }

    [Fact]
    public void A_budget_that_measures_code_is_refused_on_a_debug_build_with_the_fix_in_one_line()
    {
        var gate = _budgets.Gate(requireOptimizedBuild: true);

        var act = () => gate.Check("Some.CpuCost", 1.5);

        if (ThisBuildIsOptimized)
        {
            act.Should().NotThrow();
        }
        else
        {
            act.Should().Throw<NonOptimizedBuildException>().Which.Message.Should()
                .StartWith("budgets are measured on optimized (Release) builds; this one is Debug (JIT optimizer disabled in ")
                .And.EndWith(": run dotnet test -c Release")
                .And.Contain("PerfBudgets.Tests")
                .And.NotContain(Environment.NewLine);
            gate.Invoking(g => g.CheckAll(new BudgetCheck("Some.WireBytes", 6), new BudgetCheck("Some.BytesPerOp", 10))).Should().Throw<NonOptimizedBuildException>();
            System.IO.File.Exists(gate.Store.ResultsPath).Should().BeFalse("nothing is recorded from a refused build");
        }
    }

    [Fact]
    public void An_output_size_budget_is_checked_in_any_build()
    {
        var gate = _budgets.Gate(requireOptimizedBuild: true);

        gate.Check("Some.WireBytes", 6).Verdict.Should().Be(BudgetVerdict.Pass);
        gate.Invoking(g => g.Check("Some.WireBytes", 13)).Should().Throw<BudgetExceededException>();
    }
}
