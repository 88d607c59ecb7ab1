using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Gating;

public sealed class BudgetResolverTests
{
    private readonly BudgetResolver _resolver = new(TestBudgets.Read("gate"), requireOptimizedBuild: false);

    [Fact]
    public void Each_check_refuses_a_budget_of_a_kind_it_does_not_take_naming_the_file()
    {
        _resolver.Get("Zero.Bytes").Kind.Should().Be(BudgetKind.AllocatedBytesPerOp);
        _resolver.Invoking(r => r.Counted("Zero.Bytes")).Should().Throw<BudgetFileException>()
            .WithMessage("*gate.json: budget 'Zero.Bytes' is a allocated-bytes-per-op budget; CheckCount takes instructions-max, syscalls-max or cycles-max.");
        _resolver.Invoking(r => r.Growth("Zero.Bytes")).Should().Throw<BudgetFileException>()
            .WithMessage("*gate.json: budget 'Zero.Bytes' is a allocated-bytes-per-op budget; CheckGrowth takes growth-exponent-max.");
    }

    [Fact]
    public void A_paired_check_of_another_kind_is_the_callers_mistake() =>
        _resolver.Invoking(r => r.Paired("Zero.Bytes")).Should().Throw<ArgumentException>().Which.ParamName.Should().Be("budgetName");

    [Fact]
    public void An_undefined_name_is_an_error_of_the_file() =>
        _resolver.Invoking(r => r.Get("Nowhere")).Should().Throw<PerfBudgetsException>().WithMessage("*defines no budget named 'Nowhere'*");

    [Fact]
    public void A_build_is_not_checked_unless_the_gate_requires_an_optimized_one() =>
        _resolver.Invoking(r => r.EnsureOptimizedFor(r.Get("Zero.Bytes"))).Should().NotThrow();
}
