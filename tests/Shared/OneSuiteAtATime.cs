using PerfBudgets.Measuring;

namespace PerfGate.Tests;

/// <summary>
/// Holds the machine-wide <see cref="MeasurementLock"/> while a test assembly runs, so the suites run one after
/// another however they are started: <c>dotnet test --no-build</c> at the root starts the test projects side by side,
/// and a suite that measures beside another measures the other one.
/// </summary>
public sealed class OneSuiteAtATime : IDisposable
{
    private readonly MeasurementLock _lock = MeasurementLock.Acquire(TimeSpan.FromMinutes(30));

    /// <inheritdoc />
    public void Dispose() => _lock.Dispose();
}
