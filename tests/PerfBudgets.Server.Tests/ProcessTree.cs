using System.Diagnostics;

namespace PerfBudgets.Server.Tests;

/// <summary>
/// Ends a process the tests started, with every process it started in turn (dotnet's host, chromium's renderers,
/// pg_ctl's server), and waits for it to be gone, for a bounded time: a child left running would hold its port, its
/// files and a share of the cores into the next test, and a wait without a bound would hang the suite on a process
/// that will not die.
/// </summary>
internal static class ProcessTree
{
    /// <summary>How long <see cref="Kill"/> waits for the process to exit unless told otherwise.</summary>
    public static readonly TimeSpan ExitWait = TimeSpan.FromSeconds(10);

    /// <summary>
    /// Kills <paramref name="process"/> and its descendants when it is still running and waits up to
    /// <paramref name="wait"/> (by default <see cref="ExitWait"/>) for it to exit; false when it was still running then.
    /// </summary>
    public static bool Kill(Process process, TimeSpan? wait = null)
    {
        try
        {
            if (!process.HasExited)
            {
                process.Kill(entireProcessTree: true);
            }
        }
        catch (InvalidOperationException)
        {
            // It exited between the check and the kill: nothing is left to end.
        }

        return process.WaitForExit(wait ?? ExitWait);
    }

    /// <summary>
    /// Starts <paramref name="start"/> (its standard output and error redirected), reads both to the end and waits for
    /// it to exit within <paramref name="limit"/>; null when it overran, and then it and its children have been killed.
    /// </summary>
    public static async Task<(int ExitCode, string Output, string Error)?> RunAsync(ProcessStartInfo start, TimeSpan limit)
    {
        using var process = Process.Start(start)!;
        using var timeout = new CancellationTokenSource(limit);
        try
        {
            var output = process.StandardOutput.ReadToEndAsync(timeout.Token);
            var error = process.StandardError.ReadToEndAsync(timeout.Token);
            await process.WaitForExitAsync(timeout.Token);
            return (process.ExitCode, await output, await error);
        }
        catch (OperationCanceledException)
        {
            Kill(process);
            return null;
        }
        catch
        {
            Kill(process);
            throw;
        }
    }
}
