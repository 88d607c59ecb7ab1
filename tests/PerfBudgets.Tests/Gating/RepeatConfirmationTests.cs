using PerfBudgets.Budgets;
using PerfBudgets.Gating;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Gating;

public sealed class RepeatConfirmationTests
{
    private readonly BudgetBook _book = TestBudgets.Read("run-attempts");

    private async Task<IReadOnlyList<BudgetCheck>> Run(int maxAttempts, params (double P99, double Failed)[] runs)
    {
        var next = 0;
        return (await RepeatConfirmation.RunAsync(
            () => Task.FromResult(runs[next++]),
            r => [new BudgetCheck("Run.P99Ms", r.P99, "p99"), new BudgetCheck("Run.FailedRequests", r.Failed)],
            maxAttempts,
            _book.Get)).Checks;
    }

    [Fact]
    public async Task A_latency_broken_once_is_run_again_and_the_final_checks_name_the_earlier_attempt()
    {
        var checks = await Run(3, (80, 0), (40, 0));

        checks.Select(c => (c.Measured, c.Detail)).Should().Equal(
            (40, "attempt 2 of 3, earlier attempts broke Run.P99Ms = 80; p99"),
            (0, "attempt 2 of 3, earlier attempts broke Run.P99Ms = 80"));
    }

    [Fact]
    public async Task A_failed_request_makes_the_attempt_final()
    {
        var checks = await Run(3, (80, 1), (40, 0));

        checks.Select(c => (c.Measured, c.Detail)).Should().Equal((80, "p99"), (1, null));
    }

    [Fact]
    public async Task The_last_attempt_is_final_whatever_it_breaks()
    {
        var checks = await Run(2, (80, 0), (90, 0));

        checks[0].Detail.Should().Be("attempt 2 of 2, earlier attempts broke Run.P99Ms = 80; p99");
    }
}
