using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Gating;

public sealed class LowestCostRetryTests
{
    private static readonly Budget Cost = new("A.CpuCost", BudgetKind.CpuCostMax, 100, "cal/op", "ci", "");

    private static Func<CpuMeasurement> Costs(params double[] costs)
    {
        var next = 0;
        return () => new CpuMeasurement([costs[next++]], [1], 1, 1, TimeSpan.Zero, Steady: true, "test");
    }

    [Fact]
    public void A_first_cost_within_the_limit_is_measured_once()
    {
        var (cost, detail) = LowestCostRetry.Measure(Cost, Costs(90, 1000), maxAttempts: 3, describe: "op");

        cost.Should().Be(90);
        detail.Should().StartWith("op; ").And.NotContain("attempts");
    }

    [Fact]
    public void Over_the_limit_it_measures_again_up_to_the_attempts_and_gates_the_lowest()
    {
        LowestCostRetry.Measure(Cost, Costs(130, 95, 1000), maxAttempts: 3, describe: null).Cost.Should().Be(95, "the second attempt is within the limit");

        var (cost, detail) = LowestCostRetry.Measure(Cost, Costs(130, 120, 125), maxAttempts: 3, describe: null);

        cost.Should().Be(120);
        detail.Should().StartWith("lowest of 3 attempts (130 / 120 / 125); ");
    }
}
