using PerfBudgets.Budgets;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Budgets;

public sealed class BudgetBookTests
{
    [Fact]
    public void Resolves_limits_and_parameters_for_the_default_profile()
    {
        var book = TestBudgets.Read("profiles-and-parameters");

        book.Get("A.Bytes").Limit.Should().Be(100);
        book.Get("A.Bytes").Direction.Should().Be(BudgetDirection.AtMost);
        book.Get("A.Rate").Direction.Should().Be(BudgetDirection.AtLeast);
        book.IntParameter("A.Seconds").Should().Be(5);
    }

    [Fact]
    public void A_profile_override_replaces_the_limit_for_that_profile_only()
    {
        var book = TestBudgets.Read("profiles-and-parameters", "local");

        book.Get("A.Bytes").Limit.Should().Be(80);
        book.Get("A.Rate").Limit.Should().Be(1000);
        book.IntParameter("A.Seconds").Should().Be(60);
    }

    [Fact]
    public void An_undefined_budget_fails_instead_of_falling_back_to_a_default()
    {
        var book = TestBudgets.Read("profiles-and-parameters");

        var act = () => book.Get("A.Missing");

        act.Should().Throw<BudgetFileException>().WithMessage("*no budget named 'A.Missing'*");
    }

    [Fact]
    public void A_fractional_value_is_not_a_whole_number_parameter()
    {
        var book = TestBudgets.Read("profiles-and-parameters");

        book.Parameter("A.Fraction").Should().Be(0.5);
        book.Invoking(b => b.IntParameter("A.Fraction")).Should().Throw<BudgetFileException>();
        book.Invoking(b => b.Parameter("A.Missing")).Should().Throw<BudgetFileException>().WithMessage("*no parameter named 'A.Missing'*");
    }

    [Fact]
    public void The_repository_budget_file_loads_for_every_profile()
    {
        var path = BudgetBook.Locate();

        foreach (var profile in new[] { "ci", "local" })
        {
            var book = BudgetBook.Load(path, profile);
            book.Budgets.Should().NotBeEmpty();
            book.Budgets.Should().OnlyContain(b => !string.IsNullOrWhiteSpace(b.Description), "every budget says why it exists and how its limit was set");
        }
    }
}
