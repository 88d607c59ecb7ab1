using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Diagnostics.Tests;

public sealed class SlowRequestAttributionTests
{
    [Fact]
    public void A_failure_names_the_slow_requests_their_cost_their_spacing_their_threads_and_the_quantiles()
    {
        var measurement = RequestCostRuns.Run(640, i => i % 64 == 63 ? 5_300_000 : 300_000);

        var attribution = SlowRequestAttribution.From(measurement, 1.5);

        attribution.Summary.Should().StartWith("10 of 640 requests cost over 1.5 ms of server CPU on their path: #63 5.300 ms (.NET TP Worker 100%), #127 5.300 ms")
            .And.Contain("9 of their gaps are 64 requests")
            .And.Contain("the thread that spent most of each: .NET TP Worker in 10")
            .And.EndWith("p50 0.300 / p99 5.300 / p99.9 5.300 / max 5.300 ms");
        attribution.Entries.Should().HaveCount(SlowRequestAttribution.Named + 1);
        attribution.Entries[0].Name.Should().StartWith("request #63");
        attribution.Entries[0].Value.Should().Be(5.3);
    }

    [Fact]
    public void The_runtimes_collector_and_compiler_are_left_out_of_the_request_path_and_said_to_be()
    {
        var requests = Enumerable.Range(0, 200).Select(i => i switch
        {
            5 => new RequestCost(i, 400_000_000, [new ThreadCost(".NET Tiered Com", 399_900_000), new ThreadCost(".NET TP Worker", 100_000)]),
            7 => new RequestCost(i, 1_400_000, [new ThreadCost(".NET Server GC", 1_000_000), new ThreadCost(".NET TP Worker", 400_000)]),
            _ when i % 64 == 63 => new RequestCost(i, 5_300_000, [new ThreadCost(".NET TP Worker", 5_250_000), new ThreadCost(".NET Sockets", 50_000)]),
            _ => new RequestCost(i, 300_000, [new ThreadCost(".NET TP Worker", 300_000)]),
        }).ToList();
        var measurement = new RequestCostMeasurement("test", requests);

        var summary = SlowRequestAttribution.From(measurement, 1.5).Summary;

        measurement.MaxMilliseconds.Should().Be(5.3, "a compilation burst is not on the request's path");
        measurement.RuntimeServiceMilliseconds.Should().BeApproximately(400.9, 1e-9);
        measurement.P99ToP50.Should().BeApproximately(5.3 / 0.3, 1e-9);
        summary.Should().StartWith("3 of 200 requests cost over 1.5 ms of server CPU on their path: #63 5.300 ms (.NET TP Worker 99%), #127 5.300 ms")
            .And.Contain("the thread that spent most of each: .NET TP Worker in 3");
        SlowRequestAttribution.From(measurement, 0.35).Summary.Should().StartWith("4 of 200 requests").And.Contain("#7 0.400 ms (.NET TP Worker 100%)")
            .And.Contain("the runtime's collector and background compiler, left out, spent 1 ms during them");
        measurement.ToString().Should().Contain("the runtime's collector and background compiler, left out, 400.9 ms in 2 requests");
    }

    [Fact]
    public void Without_a_request_over_the_limit_it_names_the_most_expensive()
    {
        var measurement = RequestCostRuns.Run(100, i => i == 42 ? 900_000 : 300_000);

        SlowRequestAttribution.From(measurement, 1.5).Summary.Should().StartWith("no request of 100 costs over 1.5 ms; the 8 most expensive: #42 0.900 ms");
    }

    [Theory]
    [InlineData(new[] { 63, 127, 191, 255 }, 64, 3)]
    [InlineData(new[] { 1, 2, 50, 51, 52 }, 1, 3)]
    [InlineData(new[] { 5, 17, 90, 400 }, null, null)]
    [InlineData(new[] { 5, 17 }, null, null)]
    public void The_common_gap_shows_a_periodic_slow_path(int[] indexes, int? gap, int? count)
    {
        var requests = indexes.Select(i => new RequestCost(i, 1, [])).ToList();

        var found = SlowRequestAttribution.CommonGap(requests);

        found.Should().Be(gap is null ? null : (gap.Value, count!.Value));
    }
}
