using System.Diagnostics;
using System.Globalization;
using PerfBudgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;

namespace Load;

/// <summary>
/// The blocking check every such budget shares: <c>Load.Blocking.Copies</c> closed loops drive the fixed-pool server
/// (<see cref="FixedPoolServer"/>) for a warm-up, then for a measured window under <see cref="BlockingMeter"/>; then the
/// scenario's budgets <c>NAME.BlockedMsPer…</c> (thread-milliseconds pool threads spent blocked inside work items, per
/// operation) and <c>NAME.LockContentionsPer…</c>.
/// </summary>
internal static class BlockingCheck
{
    /// <summary>
    /// The fixed-pool server for a blocking check; with <c>LOAD_TARGET_URL</c> set the budgets are reported as not
    /// measured, since a server this run did not start cannot be sampled.
    /// </summary>
    public static async Task<AppProcess> ServerAsync(FixedPoolServer server, BudgetGate gate, string name, string operation)
    {
        if (LoadTarget.IsExternal)
        {
            gate.NotMeasured($"{name}.BlockedMsPer{Per(operation)}", $"{LoadTarget.EnvironmentVariable} names a server this run did not start; its pool threads cannot be sampled");
        }

        return await server.GetAsync(TestContext.Current.CancellationToken);
    }

    /// <summary>
    /// Drives the server for the warm-up, then measures a window and checks both budgets. A window that breaks them is
    /// measured again (<c>Load.Blocking.Attempts</c> windows in all, <see cref="BudgetGate.CheckRunAsync"/>): a lock
    /// whose holder the machine descheduled blocks one window, a blocking call in the code blocks every one.
    /// </summary>
    public static async Task CheckAsync(BudgetGate gate, ITestOutputHelper output, AppProcess server, string name, string operation, Func<int, CancellationToken, Task<bool>> step)
    {
        var copies = gate.Book.IntParameter("Load.Blocking.Copies");
        var warmUp = TimeSpan.FromSeconds(gate.Book.Parameter("Load.Blocking.WarmUpSeconds"));
        var window = TimeSpan.FromSeconds(gate.Book.Parameter("Load.Blocking.DurationSeconds"));
        var attempts = gate.Book.IntParameter("Load.Blocking.Attempts");
        var ct = TestContext.Current.CancellationToken;

        var warm = await DriveAsync(copies, warmUp, step, ct);
        output.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{name}: warm-up {warm.Completed:N0} {operation}s, {warm.Failed} failed"));

        var windows = new List<(BlockingMeasurement Measurement, long Failed, string Detail)>();
        await gate.CheckRunAsync(async () =>
        {
            var failed = 0L;
            var measurement = await BlockingMeter.MeasureAsync(server.ProcessId, async token =>
            {
                var run = await DriveAsync(copies, window, step, token);
                failed = run.Failed;
                return run.Completed;
            }, ct);
            var detail = measurement.Describe(operation) + string.Create(CultureInfo.InvariantCulture, $"; {copies} closed loops, {failed} failed or unfinished; {server.SettingsNote}");
            output.WriteLine($"{name} (window {windows.Count + 1}): {detail}");
            windows.Add((measurement, failed, detail));
            return windows[^1];
        }, measured => [
            new BudgetCheck($"{name}.BlockedMsPer{Per(operation)}", measured.Measurement.BlockedMillisecondsPerOperation, measured.Detail),
            new BudgetCheck($"{name}.LockContentionsPer{Per(operation)}", measured.Measurement.ContentionsPerOperation, measured.Detail),
        ], attempts);

        var final = windows[^1];
        final.Measurement.Operations.Should().BePositive(final.Detail);
        final.Failed.Should().Be(0, final.Detail);
    }

    // "request" → "Request", as the budget names spell it.
    private static string Per(string operation) => char.ToUpperInvariant(operation[0]) + operation[1..];

    // Closed loops: each copy runs the step again as soon as the last one answered, until the window ends; a step still
    // running a second later is cancelled and counted as failed, so the run ends on time even against a server that
    // hangs. Any exception of a step (a refused connection, a wrong echo) is a failed operation, not a crashed loop.
    private static async Task<(long Completed, long Failed)> DriveAsync(int copies, TimeSpan duration, Func<int, CancellationToken, Task<bool>> step, CancellationToken cancellationToken)
    {
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        stop.CancelAfter(duration + TimeSpan.FromSeconds(1));
        var deadline = Stopwatch.GetTimestamp() + (long)(duration.TotalSeconds * Stopwatch.Frequency);
        long completed = 0, failed = 0;
        var loops = Enumerable.Range(0, copies).Select(copy => Task.Run(async () =>
        {
            while (Stopwatch.GetTimestamp() < deadline)
            {
                try
                {
                    if (await step(copy, stop.Token))
                    {
                        Interlocked.Increment(ref completed);
                    }
                    else
                    {
                        Interlocked.Increment(ref failed);
                    }
                }
                catch (Exception)
                {
                    Interlocked.Increment(ref failed);
                    if (stop.IsCancellationRequested)
                    {
                        return;
                    }
                }
            }
        }, CancellationToken.None));
        await Task.WhenAll(loops);
        return (completed, failed);
    }
}
