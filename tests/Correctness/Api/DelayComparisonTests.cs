using SystemUnderTest.Api;

namespace Correctness.Api;

public sealed class DelayComparisonTests
{
    [Fact]
    public async Task Async_delays_overlap_so_the_rate_approaches_the_physical_limit()
    {
        var run = await DelayComparison.RunAsyncDelaysAsync(200, TimeSpan.FromMilliseconds(50));

        run.Elapsed.Should().BeGreaterThanOrEqualTo(TimeSpan.FromMilliseconds(45));
        // 200 overlapping 50 ms waits finish in about 50 ms; one after another they would take 10 s. The behaviour
        // checked is the overlap, not the machine's speed: well under half the serial time holds on any load (the
        // rate itself is gated in tests/Load, where the suites never overlap).
        run.Elapsed.Should().BeLessThan(TimeSpan.FromSeconds(5));
        run.RequestsPerSecond.Should().BeApproximately(200 / run.Elapsed.TotalSeconds, 0.001);
    }

    [Fact]
    public async Task Rejects_a_non_positive_request_count()
    {
        var act = () => DelayComparison.RunBlockingSleepsAsync(0, TimeSpan.FromMilliseconds(1));

        await act.Should().ThrowAsync<ArgumentOutOfRangeException>();
    }
}
