using System.Diagnostics;

namespace PerfBudgets.Processes;

// A child run to its end: its exit code, output and error tail in one result, or in the foreground for a user to watch.
internal sealed partial class ChildProcess
{
    /// <summary>
    /// Runs <paramref name="file"/> to its end and answers its exit code, its standard output and the tail of its
    /// standard error. Past <paramref name="timeout"/> the process tree is killed and the exit code is -1, with the
    /// output saying so; a program that cannot be started answers -1 and why.
    /// </summary>
    public static ChildProcessResult Run(
        string file, IEnumerable<string> arguments, TimeSpan timeout, string? workingDirectory = null,
        IReadOnlyDictionary<string, string?>? environment = null, IReadOnlyList<string>? removeVariables = null) =>
        Run(StartInfo(file, arguments, workingDirectory, environment, removeVariables), file, timeout);

    /// <summary>As <see cref="Run(string, IEnumerable{string}, TimeSpan, string?, IReadOnlyDictionary{string, string?}?, IReadOnlyList{string}?)"/>, for a prepared start.</summary>
    public static ChildProcessResult Run(ProcessStartInfo start, string name, TimeSpan timeout)
    {
        ChildProcess child;
        try
        {
            child = Start(start, name);
        }
        catch (ChildProcessException e)
        {
            return new ChildProcessResult(-1, string.Empty, e.Message, TimedOut: false, NotStarted: true);
        }

        using (child)
        {
            return child.WaitForExit(timeout);
        }
    }

    /// <summary>
    /// Runs <paramref name="file"/> in the foreground to its end, its output and error going where this process's go
    /// (a test run the user watches), and answers its exit code; a program that cannot be started throws
    /// <see cref="ChildProcessException"/> naming it.
    /// </summary>
    public static int RunInForeground(string file, IEnumerable<string> arguments, string workingDirectory, IReadOnlyDictionary<string, string> environment)
    {
        ArgumentNullException.ThrowIfNull(environment);
        var start = StartInfo(file, arguments, workingDirectory, environment.ToDictionary(e => e.Key, e => (string?)e.Value), removeVariables: null);
        try
        {
            using var process = Process.Start(start) ?? throw new ChildProcessException($"{file} could not be started.");
            process.WaitForExit();
            return process.ExitCode;
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            throw new ChildProcessException($"{file} could not be started: {e.Message}", e);
        }
    }

    // The program, its arguments one by one, its folder and its environment; the streams are the caller's to choose.
    private static ProcessStartInfo StartInfo(string file, IEnumerable<string> arguments, string? workingDirectory,
        IReadOnlyDictionary<string, string?>? environment, IReadOnlyList<string>? removeVariables)
    {
        ArgumentException.ThrowIfNullOrEmpty(file);
        ArgumentNullException.ThrowIfNull(arguments);
        var start = new ProcessStartInfo(file) { UseShellExecute = false, WorkingDirectory = workingDirectory ?? string.Empty };
        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        foreach (var prefix in removeVariables ?? [])
        {
            foreach (var key in start.Environment.Keys.Where(k => k.StartsWith(prefix, StringComparison.OrdinalIgnoreCase)).ToArray())
            {
                start.Environment.Remove(key);
            }
        }

        foreach (var (key, value) in environment ?? new Dictionary<string, string?>())
        {
            start.Environment[key] = value;
        }

        return start;
    }
}
