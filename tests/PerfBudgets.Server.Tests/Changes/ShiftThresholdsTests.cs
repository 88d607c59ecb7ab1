using PerfBudgets.Budgets;
using PerfBudgets.Server.Changes;

namespace PerfBudgets.Server.Tests.Changes;

/// <summary><see cref="ShiftThresholds"/>: the smallest change point of each timed budget, the smaller of its noise threshold (budgets.json or its run) and its kind's default.</summary>
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
    public void A_servers_own_defaults_replace_the_kinds_it_names_and_keep_the_others()
    {
        var steadier = new ShiftThresholds(defaults: new Dictionary<string, double> { ["p99-ms-max"] = 0.5 });

        steadier.For("Sockets.Echo.P99Ms", "p99-ms-max").Should().Be((0.5, "default"), "the team's machines are steadier than the shared 2-core one the default was measured on");
        steadier.For("Api.DelayAsync.P99CpuMsPerRequest", "p99-cpu-ms-per-request-max").Should().Be((0.6, "default"), "a kind it does not name keeps the built-in default");
        steadier.For("Sockets.Echo.P99Ms", "p99-ms-max", new RecordedNoise(0.4, 0)).MinShift.Should().Be(0.4, "a tighter noise threshold still wins");
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
    public void With_the_repositorys_budgets_json_a_tighter_noise_wins_a_wider_one_is_capped_by_the_default_and_a_drop_of_100_percent_is_never_a_change()
    {
        Repository.Value.For("Sockets.Echo.P99Ms", "p99-ms-max").Should().Be((0.4, "kind"), "the kind's noise 0.4 is tighter than its default 4.2");
        Repository.Value.For("Json.Endpoint.Employees9.P99Ms", "p99-ms-max").Should().Be((4.2, "default"),
            "its own noise of 6.0 is how far one run strays; a level's median moved at most 4.2 on the real runs");
        Repository.Value.For("Api.DelayAsync.P99CpuMsPerRequest", "p99-cpu-ms-per-request-max").Should().Be((0.6, "default"),
            "the kind's noise of 2.0 asked for a threefold level and let a doubling from a request-path spin through");
        Repository.Value.For("Api.AsyncVsBlocking.RpsRatio", "ratio-min").MinShift.Should().Be(double.PositiveInfinity,
            "its noise is 1.0: 'a drop of up to 100% is noise; 1.0 never warns', whatever the kind's default");
        var (notInFile, notInFileSource) = Repository.Value.For("Not.In.The.File", "efficiency-min");
        notInFile.Should().BeApproximately(0.25, 1e-12, "budgets.json's efficiency-min noise 0.2 as a step, under the default's 0.33");
        notInFileSource.Should().Be("kind");
        Repository.Value.For("Api.DelayAsync.P99Ms", "efficiency-min").Source.Should().Be("kind", "a budget redefined as another kind is not the file's");
    }

    [Fact]
    public void A_recorded_noise_wider_than_the_default_is_capped_but_keeps_its_absolute_floor_and_a_recorded_drop_of_100_percent_still_keeps_the_budget_out()
    {
        ShiftThresholds.Defaults.For("Api.DelayAsync.P99CpuMsPerRequest", "p99-cpu-ms-per-request-max", new RecordedNoise(2.0, 0.05))
            .Should().Be(new MinimumStep(0.6, 0.05, "default"));
        ShiftThresholds.Defaults.For("Api.DelayAsync.P99Ms", "p99-ms-max", new RecordedNoise(0.4, 0))
            .Should().Be(new MinimumStep(0.4, 0, "run"));
        ShiftThresholds.Defaults.For("Api.AsyncVsBlocking.RpsRatio", "ratio-min", new RecordedNoise(1.0, 0)).MinShift
            .Should().Be(double.PositiveInfinity);
    }
}
