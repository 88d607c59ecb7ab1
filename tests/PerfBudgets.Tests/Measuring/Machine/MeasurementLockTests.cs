using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Measuring;

public sealed class MeasurementLockTests : IDisposable
{
    private readonly TemporaryDirectory _folder = new();

    public void Dispose() => _folder.Dispose();

    private string LockFile => Path.Combine(_folder.Path, "measurement.lock");

    [Fact]
    public void A_second_holder_waits_until_the_first_lets_go_and_a_wait_past_the_timeout_names_the_file()
    {
        var first = MeasurementLock.Acquire(TimeSpan.FromSeconds(5), LockFile);

        var second = () => MeasurementLock.Acquire(TimeSpan.FromMilliseconds(300), LockFile);

        second.Should().Throw<TimeoutException>().WithMessage($"*{LockFile}*");
        first.Dispose();
        using var third = second();
        third.Waited.Should().BeLessThan(TimeSpan.FromSeconds(1));
    }

    [Fact]
    public void The_parameterless_constructor_an_assembly_fixture_calls_holds_the_default_lock_until_disposed()
    {
        var before = Environment.GetEnvironmentVariable(HarnessEnvironment.MeasurementLockVariable);
        Environment.SetEnvironmentVariable(HarnessEnvironment.MeasurementLockVariable, LockFile);
        try
        {
            MeasurementLock.DefaultPath.Should().Be(LockFile);
            MeasurementLock.DefaultTimeout.Should().Be(TimeSpan.FromMinutes(30));
            var fixture = new MeasurementLock();

            var other = () => MeasurementLock.Acquire(TimeSpan.FromMilliseconds(300), LockFile);

            other.Should().Throw<TimeoutException>();
            fixture.Dispose();
            other.Should().NotThrow().Which.Dispose();
        }
        finally
        {
            Environment.SetEnvironmentVariable(HarnessEnvironment.MeasurementLockVariable, before);
        }
    }
}
