using PerfBudgets.Gating;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tests.Gating;

public sealed class DiagnosisRunnerTests
{
    [Fact]
    public void A_diagnosis_within_its_time_gives_its_attribution()
    {
        var attribution = new Attribution("top: Foo", []);

        new DiagnosisRunner(TimeSpan.FromSeconds(30)).Run(() => attribution).Should().BeSameAs(attribution);
    }

    [Fact]
    public void A_diagnosis_that_throws_gives_the_first_line_of_why()
    {
        var attribution = new DiagnosisRunner(TimeSpan.FromSeconds(30)).Run(() => throw new InvalidOperationException("no profiler\nsecond line"));

        attribution.Summary.Should().Be("attribution unavailable: the diagnosis failed: InvalidOperationException: no profiler");
    }

    [Fact]
    public void A_diagnosis_that_hangs_is_abandoned_after_its_time()
    {
        var release = new TaskCompletionSource();
        try
        {
            var attribution = new DiagnosisRunner(TimeSpan.FromMilliseconds(50)).Run(() => { release.Task.Wait(); return new Attribution("late", []); });

            attribution.Summary.Should().Be("attribution unavailable: the diagnosis took longer than 0.05 s");
        }
        finally
        {
            release.SetResult();
        }
    }
}
