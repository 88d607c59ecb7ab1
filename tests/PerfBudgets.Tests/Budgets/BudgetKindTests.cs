using PerfBudgets.Budgets;

namespace PerfBudgets.Tests.Budgets;

public sealed class BudgetKindTests
{
    [Theory]
    [InlineData("allocated-bytes-per-op", BudgetDirection.AtMost, nameof(UnitFamily.Bytes), false, false, true)]
    [InlineData("bytes-max", BudgetDirection.AtMost, nameof(UnitFamily.Bytes), false, false, false)]
    [InlineData("ratio-max", BudgetDirection.AtMost, nameof(UnitFamily.Ratio), false, false, false)]
    [InlineData("p99-ms-max", BudgetDirection.AtMost, nameof(UnitFamily.Time), false, true, true)]
    [InlineData("p99-cpu-ms-per-request-max", BudgetDirection.AtMost, nameof(UnitFamily.Time), false, true, true)]
    [InlineData("p99-to-p50-cpu-per-request-max", BudgetDirection.AtMost, nameof(UnitFamily.Ratio), false, true, true)]
    [InlineData("errors-max", BudgetDirection.AtMost, nameof(UnitFamily.Count), false, false, true)]
    [InlineData("instructions-max", BudgetDirection.AtMost, nameof(UnitFamily.Instructions), true, false, true)]
    [InlineData("cycles-max", BudgetDirection.AtMost, nameof(UnitFamily.Cycles), true, false, true)]
    [InlineData("syscalls-max", BudgetDirection.AtMost, nameof(UnitFamily.SystemCalls), true, false, true)]
    [InlineData("growth-exponent-max", BudgetDirection.AtMost, nameof(UnitFamily.Ratio), true, false, true)]
    [InlineData("blocked-ms-max", BudgetDirection.AtMost, nameof(UnitFamily.Time), false, false, true)]
    [InlineData("requests-per-second-min", BudgetDirection.AtLeast, nameof(UnitFamily.Rate), false, true, true)]
    [InlineData("efficiency-min", BudgetDirection.AtLeast, nameof(UnitFamily.Ratio), false, true, true)]
    [InlineData("ratio-min", BudgetDirection.AtLeast, nameof(UnitFamily.Ratio), false, true, true)]
    [InlineData("time-ratio-max", BudgetDirection.AtMost, nameof(UnitFamily.Ratio), false, true, true)]
    [InlineData("retained-bytes-per-op-max", BudgetDirection.AtMost, nameof(UnitFamily.Bytes), false, false, true)]
    [InlineData("instances-max", BudgetDirection.AtMost, nameof(UnitFamily.Count), false, false, true)]
    [InlineData("working-set-bytes-max", BudgetDirection.AtMost, nameof(UnitFamily.Bytes), false, false, true)]
    [InlineData("gc-committed-bytes-max", BudgetDirection.AtMost, nameof(UnitFamily.Bytes), false, false, true)]
    [InlineData("vs-base-ratio-max", BudgetDirection.AtMost, nameof(UnitFamily.Ratio), false, true, true)]
    [InlineData("vs-base-ratio-min", BudgetDirection.AtLeast, nameof(UnitFamily.Ratio), false, true, true)]
    public void A_kind_carries_its_direction_unit_family_and_behaviour(
        string name, BudgetDirection direction, string familyName, bool counted, bool wallClock, bool dependsOnCodeGeneration)
    {
        // The family by name: UnitFamily is internal, and a public test method cannot take it.
        var family = Enum.Parse<UnitFamily>(familyName);
        BudgetKind.TryParse(name, out var kind).Should().BeTrue();
        kind!.Name.Should().Be(name);
        (kind.Direction, kind.Family, kind.IsCounted, kind.IsWallClock, kind.DependsOnCodeGeneration)
            .Should().Be((direction, family, counted, wallClock, dependsOnCodeGeneration));
    }

    [Fact]
    public void Every_kind_is_parsed_back_to_the_same_instance_and_an_unknown_name_is_not()
    {
        BudgetKind.All.Should().HaveCount(27);
        foreach (var kind in BudgetKind.All)
        {
            BudgetKind.TryParse(kind.Name, out var parsed).Should().BeTrue();
            parsed.Should().BeSameAs(kind);
        }

        BudgetKind.TryParse("info", out _).Should().BeFalse("an observed figure is not a budget kind");
        BudgetKind.TryParse("cpu-max", out _).Should().BeFalse();
        BudgetKind.TryParse(null, out _).Should().BeFalse();
    }

    [Theory]
    [InlineData("allocated-bytes-per-op", 100, 100, true)]
    [InlineData("allocated-bytes-per-op", 101, 100, false)]
    [InlineData("requests-per-second-min", 1000, 1000, true)]
    [InlineData("requests-per-second-min", 999, 1000, false)]
    [InlineData("errors-max", double.NaN, 0, false)]
    public void A_kind_says_which_side_of_the_limit_passes(string name, double measured, double limit, bool met)
    {
        BudgetKind.TryParse(name, out var kind).Should().BeTrue();
        kind!.IsMet(measured, limit).Should().Be(met);
    }
}
