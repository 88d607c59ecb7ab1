using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Support;

/// <summary>
/// Holds the package's machine-wide <see cref="MeasurementLock"/> while a test assembly of the packages runs, as an
/// adopter's test project does: their tests time load runs and read process-wide counters, and the repository's
/// suites, started beside them by a <c>dotnet test</c> on the solution, would be measured with them.
/// </summary>
public sealed class OneMeasuringSuiteAtATime : IDisposable
{
    private readonly MeasurementLock _lock = MeasurementLock.Acquire(TimeSpan.FromMinutes(30));

    /// <inheritdoc />
    public void Dispose() => _lock.Dispose();
}
