using System.Diagnostics;
using System.Text;

namespace PerfBudgets.Processes;

/// <summary>
/// A process the harness starts: its arguments passed one by one (no shell quoting), a deadline on every wait, the whole
/// process tree killed when a deadline passes or the child is disposed, and the last lines of its standard error kept
/// (bounded) for the message that says why it failed. Every process the package starts goes through here, so a child
/// that hangs fails within its timeout, naming itself and what it last wrote, instead of hanging the test run.
/// </summary>
internal sealed partial class ChildProcess : IDisposable
{
    /// <summary>Lines of standard error kept for messages: the last ones, where a failure says why.</summary>
    public const int StandardErrorLines = 20;

    private readonly Queue<string> _errorTail = new();
    private readonly StringBuilder? _output;
    private readonly TaskCompletionSource _outputClosed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly TaskCompletionSource _errorClosed = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private bool _disposed;

    private ChildProcess(Process process, string name, bool collectOutput)
    {
        Process = process;
        Name = name;
        _output = collectOutput ? new StringBuilder() : null;
    }

    /// <summary>The process, for its id and its clocks.</summary>
    public Process Process { get; }

    /// <summary>What the child is, as messages name it (e.g. <c>the workload host Cpu.Workloads.dll</c>).</summary>
    public string Name { get; }

    /// <summary>The last <see cref="StandardErrorLines"/> lines the child wrote to standard error, joined by " | ".</summary>
    public string StandardErrorTail
    {
        get
        {
            lock (_errorTail)
            {
                return string.Join(" | ", _errorTail);
            }
        }
    }

    /// <summary>
    /// Starts <paramref name="file"/> with <paramref name="arguments"/>. Standard input is redirected (and closed at once
    /// unless <paramref name="interactive"/>); standard output is read line by line by <see cref="ReadLine(TimeSpan, string)"/> when
    /// <paramref name="interactive"/>, else collected for <see cref="WaitForExit(TimeSpan)"/>.
    /// </summary>
    /// <param name="file">The program.</param>
    /// <param name="arguments">Its arguments, each passed as one.</param>
    /// <param name="name">What the child is, for messages.</param>
    /// <param name="workingDirectory">Its working folder; null for this process's.</param>
    /// <param name="environment">Variables to set (a null value removes the variable).</param>
    /// <param name="removeVariables">Prefixes of variables to remove (e.g. a test host's <c>MSBuild</c> settings).</param>
    /// <param name="interactive">True to talk to it over standard input and output.</param>
    /// <exception cref="ChildProcessException">It could not be started; the message names it and why.</exception>
    public static ChildProcess Start(
        string file, IEnumerable<string> arguments, string name, string? workingDirectory = null,
        IReadOnlyDictionary<string, string?>? environment = null, IReadOnlyList<string>? removeVariables = null, bool interactive = false)
    {
        return Start(StartInfo(file, arguments, workingDirectory, environment, removeVariables), name, interactive);
    }

    /// <summary>
    /// As <see cref="Start(string, IEnumerable{string}, string, string?, IReadOnlyDictionary{string, string?}?, IReadOnlyList{string}?, bool)"/>,
    /// for a start the caller prepared (a program under Valgrind with its environment): its three standard streams are
    /// redirected here, whatever it said.
    /// </summary>
    public static ChildProcess Start(ProcessStartInfo start, string name, bool interactive = false)
    {
        ArgumentNullException.ThrowIfNull(start);
        start.RedirectStandardInput = true;
        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        start.UseShellExecute = false;
        Process process;
        try
        {
            process = Process.Start(start) ?? throw new ChildProcessException($"{name} ({start.FileName}) could not be started.");
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            throw new ChildProcessException($"{name} ({start.FileName}) could not be started: {e.Message}", e);
        }

        var child = new ChildProcess(process, name, collectOutput: !interactive);
        process.ErrorDataReceived += (_, e) => child.OnError(e.Data);
        process.BeginErrorReadLine();
        if (!interactive)
        {
            process.OutputDataReceived += (_, e) => child.OnOutput(e.Data);
            process.BeginOutputReadLine();
            process.StandardInput.Close();
        }

        return child;
    }

    /// <summary>Writes one line to the child's standard input.</summary>
    public void WriteLine(string line)
    {
        Process.StandardInput.WriteLine(line);
        Process.StandardInput.Flush();
    }

    /// <summary>
    /// The next line of an interactive child's standard output, or null at its end. Past <paramref name="timeout"/>
    /// the tree is killed and <see cref="ChildProcessException"/> names the child, what it was waiting for and the tail
    /// of its standard error.
    /// </summary>
    public string? ReadLine(TimeSpan timeout, string waitingFor) => ReadLine(Deadline.After(timeout), waitingFor);

    /// <summary>As <see cref="ReadLine(TimeSpan, string)"/>, until <paramref name="deadline"/> passes.</summary>
    public string? ReadLine(Deadline deadline, string waitingFor)
    {
        ArgumentNullException.ThrowIfNull(deadline);
        var read = Process.StandardOutput.ReadLineAsync();
        while (!Wait(read, deadline.Remaining))
        {
            if (deadline.Remaining <= TimeSpan.Zero)
            {
                Kill();
                throw new ChildProcessException($"{Name} did not answer {waitingFor} within {deadline} and was killed{ErrorSuffix()}");
            }
        }

        return read.Result;
    }

    /// <summary>Throws <see cref="ChildProcessException"/> unless the next line is <paramref name="expected"/>.</summary>
    public void Expect(string expected, TimeSpan timeout)
    {
        var line = ReadLine(timeout, $"'{expected}'");
        if (line != expected)
        {
            throw new ChildProcessException($"{Name} answered '{line ?? "(end of output)"}' instead of '{expected}'{ErrorSuffix()}");
        }
    }

    /// <summary>Waits for a non-interactive child's end; past <paramref name="timeout"/> kills the tree.</summary>
    public ChildProcessResult WaitForExit(TimeSpan timeout) => WaitForExit(Deadline.After(timeout));

    /// <summary>As <see cref="WaitForExit(TimeSpan)"/>, until <paramref name="deadline"/> passes.</summary>
    public ChildProcessResult WaitForExit(Deadline deadline)
    {
        ArgumentNullException.ThrowIfNull(deadline);
        while (!Process.WaitForExit(NotNegative(deadline.Remaining)))
        {
            if (deadline.Remaining <= TimeSpan.Zero)
            {
                Kill();
                return new ChildProcessResult(-1, $"{Name} did not finish within {deadline} and was killed", StandardErrorTail, TimedOut: true);
            }
        }

        // The streams' last lines arrive after the exit.
        Task.WaitAll([_outputClosed.Task, _errorClosed.Task], TimeSpan.FromSeconds(5));
        string output;
        lock (_outputClosed)
        {
            output = _output?.ToString() ?? string.Empty;
        }

        return new ChildProcessResult(Process.ExitCode, output, StandardErrorTail, TimedOut: false);
    }

    /// <summary>Closes standard input, gives the child a moment to end by itself, then kills its tree.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        try
        {
            if (!Process.HasExited)
            {
                Process.StandardInput.Close();
                if (!Process.WaitForExit(TimeSpan.FromSeconds(5)))
                {
                    Kill();
                }
            }
        }
        catch (InvalidOperationException)
        {
            // It ended meanwhile.
        }
        catch (IOException)
        {
            // Its standard input is already gone.
        }
        finally
        {
            Process.Dispose();
        }
    }

    /// <summary>Kills the child's whole tree now and waits up to 5 s for it to end.</summary>
    public void Kill()
    {
        try
        {
            Process.Kill(entireProcessTree: true);
            Process.WaitForExit(TimeSpan.FromSeconds(5));
        }
        catch (InvalidOperationException)
        {
            // It ended meanwhile.
        }
    }

    private static TimeSpan NotNegative(TimeSpan wait) => wait > TimeSpan.Zero ? wait : TimeSpan.Zero;

    private static bool Wait(Task task, TimeSpan wait) => task.Wait(NotNegative(wait));

    private string ErrorSuffix() => StandardErrorTail is { Length: > 0 } tail ? $"; its standard error ended: {tail}" : "; it wrote nothing to standard error";

    private void OnOutput(string? line)
    {
        lock (_outputClosed)
        {
            if (line is null)
            {
                _outputClosed.TrySetResult();
            }
            else
            {
                _output!.AppendLine(line);
            }
        }
    }

    private void OnError(string? line)
    {
        if (line is null)
        {
            _errorClosed.TrySetResult();
            if (_output is null)
            {
                _outputClosed.TrySetResult();
            }

            return;
        }

        lock (_errorTail)
        {
            _errorTail.Enqueue(line.Length > 500 ? line[..500] + "…" : line);
            while (_errorTail.Count > StandardErrorLines)
            {
                _errorTail.Dequeue();
            }
        }
    }
}
