using PerfBudgets.Budgets;
using PerfBudgets.Server.Changes;

namespace PerfBudgets.Server.Tests.Changes;

/// <summary><see cref="ShiftThresholds"/>: the smallest change point of each timed budget, from budgets.json or the kind's default.</summary>
public sealed class ShiftThresholdsTests
{
    private static readonly Lazy<ShiftThresholds> Repository = new(() =>
        new ShiftThresholds(BudgetBook.Load(BudgetBook.Locate(), HarnessEnvironment.DefaultProfile)));

    [Fact]
    public void Every_timed_kind_has_a_default_and_no_other_kind_has_one()
    {
        var timed = BudgetKind.All.Where(k => ChangePointFinder.IsTimed(k.Name)).Select(k => k.Name).ToList();

        ShiftThresholds.DefaultByKind.Keys.Should().BeEquivalentTo(timed);
        ShiftThresholds.DefaultByKind[BudgetKind.P99MillisecondsMax.Name].Should().BeGreaterThan(ShiftThresholds.DefaultByKind[BudgetKind.EfficiencyMin.Name],
            "a p99 moves with the machine far more than an efficiency");
    }

    [Fact]
    public void Without_budgets_a_budget_takes_its_kinds_default_an_at_least_kinds_drop_read_as_a_step()
    {
        ShiftThresholds.Defaults.For("Sockets.Echo.P99Ms", "p99-ms-max").Should().Be((4.2, "default"));
        var (efficiency, source) = ShiftThresholds.Defaults.For("Api.DelayAsync.LittleEfficiency", "efficiency-min");
        efficiency.Should().BeApproximately(1 / 0.75 - 1, 1e-12, "a drop of 25% is a step of 33% back up");
        source.Should().Be("default");
    }

    [Fact]
    public void With_the_repositorys_budgets_json_a_budgets_own_noise_wins_then_its_kinds_and_a_drop_of_100_percent_is_never_a_change()
    {
        Repository.Value.For("Json.Endpoint.Employees9.P99Ms", "p99-ms-max").Should().Be((6.0, "budget"));
        Repository.Value.For("Sockets.Echo.P99Ms", "p99-ms-max").Should().Be((0.4, "kind"));
        Repository.Value.For("Api.AsyncVsBlocking.RpsRatio", "ratio-min").MinShift.Should().Be(double.PositiveInfinity,
            "its noise is 1.0: 'a drop of up to 100% is noise; 1.0 never warns'");
        var (notInFile, notInFileSource) = Repository.Value.For("Not.In.The.File", "efficiency-min");
        notInFile.Should().BeApproximately(0.25, 1e-12, "budgets.json's efficiency-min noise 0.2 as a step");
        notInFileSource.Should().Be("kind");
        Repository.Value.For("Api.DelayAsync.P99Ms", "efficiency-min").Source.Should().Be("kind", "a budget redefined as another kind is not the file's");
    }
}
