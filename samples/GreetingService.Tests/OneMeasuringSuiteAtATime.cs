using PerfBudgets.Measuring;
using Xunit;

[assembly: AssemblyFixture(typeof(GreetingService.Tests.OneMeasuringSuiteAtATime))]

namespace GreetingService.Tests;

/// <summary>
/// Holds the machine-wide <see cref="MeasurementLock"/> while this test assembly runs: <c>dotnet test Samples.slnx</c>
/// starts the test projects side by side, and one that measures beside another measures the other one too.
/// </summary>
public sealed class OneMeasuringSuiteAtATime : IDisposable
{
    private readonly MeasurementLock _lock = MeasurementLock.Acquire(TimeSpan.FromMinutes(30));

    public void Dispose() => _lock.Dispose();
}
