using System.Diagnostics;
using System.Runtime.InteropServices;
using PerfBudgets.Budgets;
using PerfBudgets.Processes;

namespace PerfBudgets.Measuring;

/// <summary>
/// Where Valgrind is on this machine and which version it is, or why the instruction meter cannot run here
/// (not Linux on x86-64, the <c>valgrind</c> package is not installed, or the CPU lacks the instruction sets the
/// counts assume: <see cref="CountedIsa"/>).
/// </summary>
/// <param name="Path">The <c>valgrind</c> executable, or null when it is unavailable.</param>
/// <param name="Version">Its version, e.g. <c>3.19.0</c>, or null.</param>
/// <param name="UnavailableReason">Why the meter cannot run, or null when it can.</param>
public sealed record Valgrind(string? Path, string? Version, string? UnavailableReason)
{
    private static readonly Lazy<Valgrind> Located = new(Locate);

    /// <summary>The Valgrind of this machine, located once per process.</summary>
    public static Valgrind Current => Located.Value;

    /// <summary>True when the instruction meter can run here.</summary>
    public bool IsAvailable => UnavailableReason is null;

    private static Valgrind Locate()
    {
        if (!OperatingSystem.IsLinux() || RuntimeInformation.ProcessArchitecture != Architecture.X64)
        {
            return new Valgrind(null, null, $"the instruction meter runs on Linux x86-64, not {RuntimeInformation.OSDescription} {RuntimeInformation.ProcessArchitecture}");
        }

        if (FindOnPath("valgrind") is not { } path)
        {
            return new Valgrind(null, null, "valgrind not found: apt-get install valgrind");
        }

        var run = ChildProcess.Run(path, ["--version"], TimeSpan.FromSeconds(30));
        var text = run.Output.Trim();
        var version = text.StartsWith("valgrind-", StringComparison.Ordinal) ? text["valgrind-".Length..] : text;
        if (run.ExitCode != 0 || version.Length == 0)
        {
            return new Valgrind(null, null, $"'{path} --version' failed (exit {run.ExitCode}): {run.Combined}");
        }

        return CountedIsa.HostUnsupportedReason() is { } unsupported ? new Valgrind(null, version, unsupported) : new Valgrind(path, version, null);
    }

    private static string? FindOnPath(string name) =>
        HarnessEnvironment.SearchPath
            .Select(dir => System.IO.Path.Combine(dir, name))
            .FirstOrDefault(File.Exists);
}
