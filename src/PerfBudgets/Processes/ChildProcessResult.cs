namespace PerfBudgets.Processes;

/// <summary>How a child process that ran to its end (or was killed at its deadline) ended (<c>ChildProcess.Run</c>).</summary>
/// <param name="ExitCode">Its exit code; -1 when it was killed or could not start.</param>
/// <param name="Output">Its standard output as written, each line ended by a newline; when it was killed, a sentence that says so.</param>
/// <param name="ErrorTail">The last lines of its standard error, joined by " | ".</param>
/// <param name="TimedOut">True when it was killed at its deadline.</param>
/// <param name="NotStarted">True when it could not be started (no such program); <paramref name="ErrorTail"/> says why.</param>
internal sealed record ChildProcessResult(int ExitCode, string Output, string ErrorTail, bool TimedOut, bool NotStarted = false)
{
    /// <summary>Standard output, then the tail of standard error: what a message quotes of a failed child.</summary>
    public string Combined => string.IsNullOrWhiteSpace(ErrorTail) ? Output.Trim() : string.IsNullOrWhiteSpace(Output) ? ErrorTail : $"{Output.Trim()} | {ErrorTail}";
}
