using PerfBudgets.Budgets;
using PerfBudgets.Tool.Baseline;

namespace PerfBudgets.Tool.Tests.Baseline;

public sealed class BaselineRunTests
{
    [Fact]
    public void The_merge_base_suites_write_their_own_results_run_and_commit_and_compare_with_nothing()
    {
        var environment = BaselineRun.Environment("20261124T200000Z-abc123", "0123456789abcdef", "/tmp/x/budgets");

        environment.Should().Equal(new Dictionary<string, string>
        {
            [HarnessEnvironment.ResultsDirectoryVariable] = "/tmp/x/budgets",
            [HarnessEnvironment.RunIdVariable] = "20261124T200000Z-abc123-baseline",
            [HarnessEnvironment.CommitVariable] = "0123456789abcdef",
            [HarnessEnvironment.BaselineVariable] = string.Empty,
        });
    }

    [Fact]
    public void Without_a_run_id_the_baseline_has_one_of_its_own()
    {
        BaselineRun.Environment(null, "0123", "r")[HarnessEnvironment.RunIdVariable].Should().MatchRegex("^[0-9a-f]{6}-baseline$");
    }
}
