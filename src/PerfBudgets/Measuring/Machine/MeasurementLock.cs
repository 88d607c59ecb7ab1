using PerfBudgets.Budgets;
using PerfBudgets.Processes;

namespace PerfBudgets.Measuring;

/// <summary>
/// A machine-wide lock that lets one measuring process run at a time, however the processes were started (one
/// <c>dotnet test</c> per project, <c>dotnet test --no-build</c> on a solution, which runs its test projects side by side,
/// or two pipelines on one agent). Two suites that measure at once measure each other.
/// </summary>
/// <remarks>
/// An exclusive lock on a file in the temporary folder (<c>flock</c> on Unix, a share-none handle on Windows). The
/// operating system releases it when the holder exits, even if it crashes, so a killed run never blocks the next.
/// </remarks>
public sealed class MeasurementLock : IDisposable
{
    private readonly FileStream _file;

    private MeasurementLock((FileStream File, TimeSpan Waited) held)
    {
        _file = held.File;
        Waited = held.Waited;
    }

    /// <summary>
    /// Waits up to <see cref="DefaultTimeout"/> for the lock at <see cref="DefaultPath"/>, then holds it until disposed:
    /// the constructor a test framework calls for an assembly-wide fixture, so that one line holds the lock for as long
    /// as a test assembly runs (xunit v3: <c>[assembly: AssemblyFixture(typeof(MeasurementLock))]</c>).
    /// </summary>
    /// <exception cref="TimeoutException">Another process held it for longer than <see cref="DefaultTimeout"/>.</exception>
    public MeasurementLock()
        : this(Open(DefaultTimeout, path: null))
    {
    }

    /// <summary>How long the parameterless constructor waits for another holder: 30 minutes, longer than a suite runs.</summary>
    public static TimeSpan DefaultTimeout { get; } = TimeSpan.FromMinutes(30);

    /// <summary>How long <see cref="Acquire"/> waited for another holder.</summary>
    public TimeSpan Waited { get; }

    /// <summary>The lock file: <see cref="HarnessEnvironment.MeasurementLockVariable"/>, else <c>perfbudgets-measurement.lock</c> in the temporary folder.</summary>
    public static string DefaultPath => HarnessEnvironment.MeasurementLockFile is { } path
        ? path
        : Path.Combine(Path.GetTempPath(), "perfbudgets-measurement.lock");

    /// <summary>Waits until no other process holds the lock, then holds it until disposed.</summary>
    /// <exception cref="TimeoutException">Another process held it for longer than <paramref name="timeout"/>.</exception>
    public static MeasurementLock Acquire(TimeSpan timeout, string? path = null) => new(Open(timeout, path));

    private static (FileStream File, TimeSpan Waited) Open(TimeSpan timeout, string? path)
    {
        path ??= DefaultPath;
        return FileLock.TryAcquire(path, timeout) ?? throw new TimeoutException(
            $"Another measuring process held {path} for more than {timeout.TotalMinutes:0} minutes; is a test run hung?");
    }

    /// <inheritdoc />
    public void Dispose() => _file.Dispose();
}
