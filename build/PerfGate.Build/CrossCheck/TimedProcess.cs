using System.Diagnostics;
using System.Globalization;

namespace PerfGate.Build.CrossCheck;

/// <summary>
/// Runs a program under bash's <c>time</c> and returns its output with the CPU seconds (user + system) it used, its
/// whole life included: a process's CPU time cannot be read once it has exited and been reaped.
/// </summary>
internal static class TimedProcess
{
    private const string CpuPrefix = "cpu-seconds ";

    /// <summary>Runs PROGRAM ARGUMENTS, echoing its output; throws when it exits with another code than 0.</summary>
    public static (IReadOnlyList<string> Output, double CpuSeconds) Run(string program, IEnumerable<string> arguments)
    {
        var info = new ProcessStartInfo("bash") { UseShellExecute = false, RedirectStandardOutput = true, RedirectStandardError = true };
        foreach (var argument in new[] { "-c", $"TIMEFORMAT='{CpuPrefix}%U %S'; time \"$@\"", "bash", program }.Concat(arguments))
        {
            info.ArgumentList.Add(argument);
        }

        var output = new List<string>();
        using var process = Process.Start(info)!;
        process.OutputDataReceived += (_, e) => Keep(output, e.Data);
        process.ErrorDataReceived += (_, e) => Keep(output, e.Data);
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        process.WaitForExit();
        if (process.ExitCode != 0)
        {
            throw new BuildInputException($"{program} {string.Join(' ', arguments)} exited with {process.ExitCode}.");
        }

        lock (output)
        {
            var cpu = output.Single(l => l.StartsWith(CpuPrefix, StringComparison.Ordinal))[CpuPrefix.Length..].Split(' ');
            return (output.ToList(), double.Parse(cpu[0], CultureInfo.InvariantCulture) + double.Parse(cpu[1], CultureInfo.InvariantCulture));
        }
    }

    private static void Keep(List<string> output, string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (output)
        {
            output.Add(line);
        }

        if (!line.StartsWith(CpuPrefix, StringComparison.Ordinal))
        {
            Console.WriteLine(line);
        }
    }
}
