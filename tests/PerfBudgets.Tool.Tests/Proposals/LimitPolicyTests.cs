using PerfBudgets.Budgets;
using PerfBudgets.Tool.Proposals;

namespace PerfBudgets.Tool.Tests.Proposals;

public sealed class LimitPolicyTests
{
    private static BudgetKind Kind(string name) => BudgetKind.TryParse(name, out var kind) ? kind : throw new ArgumentException(name);

    private static Budget Budget(string kind, double limit = 100, double? recorded = null, double? margin = null) =>
        new("Policy.Budget", Kind(kind), limit, "units", "ci", string.Empty)
        {
            Recorded = recorded,
            Margin = margin,
        };

    // kind, the runs' figures, the limit the policy gives.
    public static TheoryData<string, double[], double> Limits => new()
    {
        // Allocation: exact where every run measured the same whole figure.
        { "allocated-bytes-per-op", [1808, 1808], 1808 },
        { "allocated-bytes-per-op", [0, 0, 0], 0 },
        { "allocated-bytes-per-op", [48], 48 },
        // Otherwise max(1%, 64 B) above the highest run, rounded up to a whole byte.
        { "allocated-bytes-per-op", [1808, 1810], 1874 },             // 1% is 18 B: the 64 B floor
        { "allocated-bytes-per-op", [0, 0, 2], 66 },                  // a figure that moves from 0 gets one small object
        { "allocated-bytes-per-op", [1000.5, 1000.5], 1065 },         // the same figure, but not whole bytes: not exact
        { "allocated-bytes-per-op", [12100, 12168], 12290 },          // 1% of 12,168 is 121.68 B: 12,289.68 up to 12,290
        { "allocated-bytes-per-op", [6736.1, 6736.4, 6736.3], 6804 }, // 6,736.4 + 67.364 = 6,803.764, up to 6,804
        // Floors: the slowest run ÷ 1.5, down to two decimals.
        { "requests-per-second-min", [25707, 11511, 29715], 7674 },
        { "operations-per-second-min", [1000, 2000], 666.66 },
        { "efficiency-min", [0.9, 0.75], 0.5 },
        // Counted: recorded = median, limit = recorded × (1 + margin) up to two decimals (margin 0.25 here, see below).
        { "instructions-max", [9330, 9300, 9324], 11655 },            // median 9,324 × 1.25
        { "syscalls-max", [4, 8, 6, 2], 6.25 },                       // median of an even count: (4 + 6) / 2 = 5, × 1.25
    };

    [Theory]
    [MemberData(nameof(Limits))]
    public void The_policy_sets_the_limit_of_each_covered_kind_from_the_runs(string kind, double[] runs, double limit)
    {
        var budget = Budget(kind, recorded: Kind(kind).IsCounted ? 1 : null, margin: Kind(kind).IsCounted ? 0.25 : null);

        var proposal = LimitPolicy.Propose(budget, runs);

        LimitPolicy.Covers(Kind(kind)).Should().BeTrue();
        proposal.ProposedLimit.Should().Be(limit);
        proposal.HasPolicy.Should().BeTrue();
        proposal.Runs.Should().Be(runs.Length);
        proposal.Min.Should().Be(runs.Min());
        proposal.Max.Should().Be(runs.Max());
        proposal.Rule.Should().NotBe(LimitPolicy.NoPolicy);
    }

    [Fact]
    public void A_counted_budget_is_recorded_at_the_median_with_its_own_margin_as_the_recorder_records_it()
    {
        var proposal = LimitPolicy.Propose(Budget("instructions-max", limit: 1005, recorded: 1000, margin: 0.005), [1210, 1190, 1200]);

        proposal.ProposedRecorded.Should().Be(1200);
        proposal.ProposedLimit.Should().Be(CountedLimits.Limit(BudgetKind.InstructionsMax, 1200, 0.005)).And.Be(1206);
        proposal.CurrentRecorded.Should().Be(1000);
        proposal.Median.Should().Be(1200);
        proposal.IsChange.Should().BeTrue();
    }

    [Fact]
    public void A_counted_budget_whose_runs_give_its_recording_again_is_no_change()
    {
        var proposal = LimitPolicy.Propose(Budget("instructions-max", limit: 11655, recorded: 9324, margin: 0.25), [9324, 9324]);

        proposal.ProposedLimit.Should().Be(11655);
        proposal.IsChange.Should().BeFalse();
    }

    [Theory]
    [InlineData("p99-ms-max")]
    [InlineData("errors-max")]
    [InlineData("ratio-min")]
    [InlineData("ratio-max")]
    [InlineData("cpu-cost-max")]
    [InlineData("bytes-max")]
    [InlineData("collections-max")]
    [InlineData("blocked-ms-max")]
    public void Every_other_kind_has_no_policy_and_is_set_by_hand(string kind)
    {
        var proposal = LimitPolicy.Propose(Budget(kind, limit: 250), [12, 30, 18]);

        LimitPolicy.Covers(Kind(kind)).Should().BeFalse();
        proposal.ProposedLimit.Should().BeNull();
        proposal.HasPolicy.Should().BeFalse();
        proposal.IsChange.Should().BeFalse();
        proposal.Rule.Should().Be("no policy: set by hand");
        (proposal.Min, proposal.Median, proposal.Max).Should().Be((12, 18, 30));
        proposal.CurrentLimit.Should().Be(250);
    }

    [Fact]
    public void No_runs_or_a_NaN_run_proposes_nothing()
    {
        var budget = Budget("allocated-bytes-per-op");

        FluentActions.Invoking(() => LimitPolicy.Propose(budget, [])).Should().Throw<ArgumentException>();
        FluentActions.Invoking(() => LimitPolicy.Propose(budget, [10, double.NaN])).Should().Throw<ArgumentException>().WithMessage("*NaN*");
    }
}
