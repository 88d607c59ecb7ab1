using PerfBudgets.Measuring;
using static PerfBudgets.Tests.Support.RequestCostRuns;

namespace PerfBudgets.Tests.Measuring;

public sealed class RequestCostMeasurementTests
{
    [Fact]
    public void One_slow_request_in_64_moves_the_p99_to_its_cost_where_the_mean_barely_moves()
    {
        // 1,500 requests of 0.3 ms, every 64th one 2 ms more: 23 slow requests, above the 15 the p99 may hide.
        var measurement = Run(1_500, i => i % 64 == 63 ? 2_300_000 : 300_000);

        measurement.P50Milliseconds.Should().Be(0.3);
        measurement.P99Milliseconds.Should().Be(2.3);
        measurement.MaxMilliseconds.Should().Be(2.3);
        measurement.Requests.Average(r => r.Milliseconds).Should().BeLessThan(0.34, "the mean hides the tail");
    }

    [Fact]
    public void Slow_requests_fewer_than_one_in_a_hundred_stay_out_of_the_p99_but_not_the_max()
    {
        // 14 slow of 1,500 (a collection, a method compiled again): fewer than the 15 above the p99's rank.
        var measurement = Run(1_500, i => i % 100 == 7 && i < 1_400 ? 4_000_000 : 300_000);

        measurement.P99Milliseconds.Should().Be(0.3);
        measurement.P999Milliseconds.Should().Be(4.0);
        measurement.MaxMilliseconds.Should().Be(4.0);
    }

    [Fact]
    public void Above_and_slowest_list_the_most_expensive_first_and_keep_each_request_index()
    {
        var measurement = Run(10, i => i switch { 3 => 5_000_000, 7 => 2_000_000, _ => 100_000 });

        measurement.Above(1.0).Select(r => r.Index).Should().Equal(3, 7);
        measurement.Slowest(3).Select(r => r.Index).Should().Equal(3, 7, 0);
        measurement.ToString().Should().Contain("over 10 requests").And.Contain("p99 5.000 ms").And.Contain("p50 0.100 ms");
    }

    [Fact]
    public void The_p99_over_the_p50_is_of_the_request_path_and_leaves_the_runtimes_collector_and_compiler_out()
    {
        // Every 50th request carries a collection (1 ms on the server GC's threads), every 64th a slow path of 1.2 ms:
        // 30 collections would put the p99 on one; the path's p99 is the slow path's.
        var requests = Enumerable.Range(0, 1_500).Select(i => new RequestCost(i, 0, [
            new ThreadCost(".NET TP Worker", i % 64 == 63 ? 1_500_000 : 300_000),
            .. i % 50 == 7 ? [new ThreadCost(".NET Server GC", 1_000_000)] : Array.Empty<ThreadCost>(),
        ]) { Nanoseconds = (i % 64 == 63 ? 1_500_000 : 300_000) + (i % 50 == 7 ? 1_000_000 : 0) }).ToList();

        var measurement = new RequestCostMeasurement("x", requests);

        measurement.P99Milliseconds.Should().Be(1.5);
        measurement.P99ToP50.Should().BeApproximately(5.0, 1e-9);
        measurement.RuntimeServiceMilliseconds.Should().Be(30.0);
        requests[7].RequestPathThreads.Should().ContainSingle().Which.ThreadName.Should().Be(".NET TP Worker");
        new RequestCostMeasurement("idle", [new RequestCost(0, 0, [])]).P99ToP50.Should().Be(double.NaN, "no median to compare with");
    }

    [Fact]
    public void A_run_without_requests_is_refused() =>
        FluentActions.Invoking(() => new RequestCostMeasurement("x", [])).Should().Throw<ArgumentException>();
}
