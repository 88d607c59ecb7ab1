using PerfBudgets.Load;

namespace PerfBudgets.Tests.Load;

public sealed class LoadSimulationTests
{
    [Fact]
    public void Inject_schedules_requests_evenly_at_its_rate()
    {
        var phase = LoadSimulation.Inject(200, TimeSpan.FromSeconds(2));

        phase.IntendedOffset(0).Should().Be(TimeSpan.Zero);
        phase.IntendedOffset(1)!.Value.TotalMilliseconds.Should().BeApproximately(5, 1e-6);
        phase.IntendedOffset(399)!.Value.TotalMilliseconds.Should().BeApproximately(1995, 1e-6);
        phase.IntendedOffset(400).Should().BeNull("the 401st request falls after the 2 s phase");
    }

    [Theory]
    [InlineData(100, 300, 2, 400)]
    [InlineData(300, 100, 2, 400)]
    [InlineData(0, 1000, 1, 500)]
    public void RampingInject_schedules_the_integral_of_its_rate(double from, double to, double seconds, long expected)
    {
        var phase = LoadSimulation.RampingInject(from, to, TimeSpan.FromSeconds(seconds));

        var scheduled = 0L;
        while (phase.IntendedOffset(scheduled) is not null)
        {
            scheduled++;
        }

        // A linear ramp for D seconds schedules (from + to) / 2 · D requests, give or take the one at the end.
        scheduled.Should().BeInRange(expected - 1, expected + 1);
        // The middle request comes due after the middle of a rising ramp (fewer arrive early) and before it on a falling one.
        var middle = phase.IntendedOffset(expected / 2)!.Value.TotalSeconds;
        if (to > from)
        {
            middle.Should().BeGreaterThan(seconds / 2);
        }
        else
        {
            middle.Should().BeLessThan(seconds / 2);
        }
    }

    [Fact]
    public void RampingConstant_moves_the_copies_linearly()
    {
        var phase = LoadSimulation.RampingConstant(10, 20, TimeSpan.FromSeconds(10));

        phase.ValueAt(TimeSpan.Zero).Should().Be(10);
        phase.ValueAt(TimeSpan.FromSeconds(5)).Should().Be(15);
        phase.ValueAt(TimeSpan.FromSeconds(30)).Should().Be(20);
        phase.ToString().Should().Be("closed 10→20 copies for 10 s");
        phase.AsWarmUp().ToString().Should().Be("warm-up closed 10→20 copies for 10 s");
    }

    [Theory]
    [InlineData(-1.0, 0.0)]
    [InlineData(double.NaN, 1.0)]
    [InlineData(1.0, double.PositiveInfinity)]
    public void A_negative_or_non_finite_rate_is_refused(double from, double to)
    {
        var phase = LoadSimulation.RampingInject(from, to, TimeSpan.FromSeconds(1));

        phase.Invoking(p => p.Validate()).Should().Throw<ArgumentOutOfRangeException>().WithMessage("*finite and ≥ 0*");
    }

    [Fact]
    public void Fractional_copies_and_an_empty_duration_are_refused()
    {
        new LoadSimulation(LoadModel.Closed, 1.5, 2, TimeSpan.FromSeconds(1)).Invoking(p => p.Validate())
            .Should().Throw<ArgumentOutOfRangeException>().WithMessage("*whole numbers*");
        LoadSimulation.Inject(10, TimeSpan.Zero).Invoking(p => p.Validate()).Should().Throw<ArgumentOutOfRangeException>();
    }

    [Fact]
    public void A_scenario_needs_a_measured_phase()
    {
        var scenario = new LoadScenario("Only.WarmUp", [LoadSimulation.Inject(10, TimeSpan.FromSeconds(1)).AsWarmUp()],
            (_, _) => ValueTask.FromResult(LoadStepOutcome.Success()));

        scenario.Invoking(s => s.Validate()).Should().Throw<ArgumentException>().WithMessage("*at least one measured*");
    }
}
