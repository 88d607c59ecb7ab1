using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Reporting;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Gating.Rules;

public sealed class StaleFloorRuleTests
{
    // requests-per-second-min has a noise of 20% in this file: stale above 1,000 x 1.5 / 0.8 = 1,875 req/s.
    private readonly BudgetBook _book = TestBudgets.Read("baseline-comparison");

    [Fact]
    public void A_floor_is_stale_only_beyond_its_factor_widened_by_its_noise()
    {
        var floor = new StaleFloorRule(_book, floorFactor: 1.5);
        var budget = _book.Get("Base.Endpoint.RequestsPerSecond");

        floor.Warning(budget, 1850).Should().BeNull();
        floor.Warning(budget, 1900).Should().StartWith("Base.Endpoint.RequestsPerSecond: measured 1,900 req/s, 1.9x its floor of 1,000 (floor factor 1.5, noise 20%)");
    }

    [Fact]
    public void A_ceiling_an_infinite_factor_or_no_figure_is_never_stale()
    {
        var budget = _book.Get("Base.Endpoint.RequestsPerSecond");

        new StaleFloorRule(_book, 1.5).Warning(_book.Get("Base.Decode.CpuCost"), 1).Should().BeNull();
        new StaleFloorRule(_book, double.PositiveInfinity).Warning(budget, 1e9).Should().BeNull();
        new StaleFloorRule(_book, 1.5).Warning(budget, double.PositiveInfinity).Should().BeNull();
    }

    [Fact]
    public void As_a_rule_it_warns_only_for_a_floor_that_is_met()
    {
        var rule = new StaleFloorRule(_book, 1.5);
        var budget = _book.Get("Base.Endpoint.RequestsPerSecond");
        var met = new Judgement(Met: true, Comparison: null, Flagged: false, BudgetVerdict.Pass);

        rule.Apply(new GateFacts(budget, 1900, met))!.Should().Be(RuleConclusion.Warning(rule.Warning(budget, 1900)!));
        rule.Apply(new GateFacts(budget, 1850, met)).Should().BeNull();
    }
}
