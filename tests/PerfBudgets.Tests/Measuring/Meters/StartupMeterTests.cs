using System.Diagnostics;
using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

public sealed class StartupMeterTests
{
    [Fact]
    public async Task A_launch_that_exits_before_answering_fails_naming_itself_and_what_it_wrote_to_standard_error()
    {
        using var client = new HttpClient();
        var start = new ProcessStartInfo("/bin/sh") { ArgumentList = { "-c", "echo 'no such setting' >&2; exit 3" } };

        var act = () => StartupMeter.TimeToFirstSuccessAsync(client, _ => (start, "/"), TimeSpan.FromSeconds(30), CancellationToken.None);

        (await act.Should().ThrowAsync<TimeoutException>()).Which.Message.Should()
            .StartWith("the launch of /bin/sh -c echo 'no such setting' >&2; exit 3 exited (3) before answering http://127.0.0.1:")
            .And.EndWith("its standard error ended: no such setting");
    }

    [Fact]
    public async Task A_launch_that_never_answers_is_killed_within_its_timeout()
    {
        using var client = new HttpClient();
        var start = new ProcessStartInfo("/bin/sh") { ArgumentList = { "-c", "sleep 600" } };
        var clock = Stopwatch.StartNew();

        var act = () => StartupMeter.TimeToFirstSuccessAsync(client, _ => (start, "/"), TimeSpan.FromSeconds(1), CancellationToken.None);

        (await act.Should().ThrowAsync<TimeoutException>()).Which.Message.Should().EndWith("did not answer 2xx within 1 s of its process's start.");
        clock.Elapsed.Should().BeLessThan(TimeSpan.FromSeconds(20), "the launch is killed at once, not left to its 600 s");
    }
}
