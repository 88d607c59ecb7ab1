using PerfBudgets;
using PerfBudgets.Measuring;

namespace PerfGate.Tests;

/// <summary>
/// Holds the machine-wide <see cref="MeasurementLock"/> while a test assembly runs, so the suites run one after
/// another however they are started: <c>dotnet test --no-build</c> at the root starts the test projects side by side,
/// and a suite that measures beside another measures the other one. While it is held, baseline warnings
/// (<see cref="BudgetGate.Warning"/>, <c>PERF_BASELINE</c>) are shown as xunit warnings of the test that raised them, and printed live.
/// </summary>
public sealed class OneSuiteAtATime : IDisposable
{
    private readonly MeasurementLock _lock = MeasurementLock.Acquire(TimeSpan.FromMinutes(30));

    public OneSuiteAtATime() => BudgetGate.Warning += ForwardToXunit;

    /// <inheritdoc />
    public void Dispose()
    {
        BudgetGate.Warning -= ForwardToXunit;
        _lock.Dispose();
    }

    // A warning of the test (in the TRX and the test's result) and a diagnostic message, which the suites that measure
    // print live (diagnosticMessages in their xunit.runner.json), so plain `dotnet test` shows it as it happens.
    private static void ForwardToXunit(object? sender, string line)
    {
        TestContext.Current.AddWarning(line);
        TestContext.Current.SendDiagnosticMessage($"warning: {line}");
    }
}
