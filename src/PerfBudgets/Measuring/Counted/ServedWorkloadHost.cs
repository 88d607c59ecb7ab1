using System.Diagnostics;
using PerfBudgets.Processes;

namespace PerfBudgets.Measuring;

/// <summary>
/// A running workload host (a program that serves its operation with <see cref="ServedWorkload"/>), driven from the
/// test: <see cref="Run"/> sends <c>run N</c> and returns once the host answers <c>done</c>. A host that does not
/// answer within its timeout is killed, and the call fails naming it and the tail of its standard error. What
/// <see cref="PairedWorkloads"/> times, and what a profiler samples (<c>CpuProfiler.CompareServersSideBySide(baseHost.ProcessId,
/// baseHost.Run, headHost.ProcessId, headHost.Run)</c> of PerfBudgets.Diagnostics) when a paired budget fails.
/// </summary>
public sealed class ServedWorkloadHost : IDisposable
{
    private readonly ChildProcess _child;
    private readonly TimeSpan _timeout;

    private ServedWorkloadHost(ChildProcess child, TimeSpan timeout)
    {
        _child = child;
        _timeout = timeout;
    }

    /// <summary>The host's process id.</summary>
    public int ProcessId => _child.Process.Id;

    internal Process Process => _child.Process;

    /// <summary>Starts <paramref name="assembly"/> (the host's .dll) with <paramref name="arguments"/> and waits for its <c>ready</c>.</summary>
    /// <param name="assembly">The workload host's assembly.</param>
    /// <param name="arguments">Its arguments: which workload it serves.</param>
    /// <param name="timeout">How long the host may take to answer, to start and to each <see cref="Run"/>.</param>
    /// <exception cref="PerfBudgets.Processes.ChildProcessException">The host did not answer in time, or exited.</exception>
    public static ServedWorkloadHost Start(string assembly, IReadOnlyList<string> arguments, TimeSpan timeout)
    {
        ArgumentException.ThrowIfNullOrEmpty(assembly);
        ArgumentNullException.ThrowIfNull(arguments);
        var child = ChildProcess.Start(InstructionMeter.DotnetHost, [assembly, .. arguments], $"the workload host {Path.GetFileName(assembly)}",
            Path.GetDirectoryName(Path.GetFullPath(assembly))!, interactive: true);
        var host = new ServedWorkloadHost(child, timeout);
        try
        {
            child.Expect("ready", timeout);
        }
        catch
        {
            host.Dispose();
            throw;
        }

        return host;
    }

    /// <summary>Runs <paramref name="operations"/> operations in the host and returns when it has answered.</summary>
    public void Run(int operations)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(operations);
        _child.WriteLine(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"run {operations}"));
        _child.Expect("done", _timeout);
    }

    /// <inheritdoc />
    public void Dispose() => _child.Dispose();
}
