namespace PerfBudgets.Processes;

/// <summary>How a child process that ran to its end (or was killed at its deadline) ended (<see cref="ChildProcess.Run"/>).</summary>
/// <param name="ExitCode">Its exit code; -1 when it was killed or could not start.</param>
/// <param name="Output">Its standard output, trimmed; when it was killed, a sentence that says so.</param>
/// <param name="ErrorTail">The last lines of its standard error, joined by " | ".</param>
/// <param name="TimedOut">True when it was killed at its deadline.</param>
internal sealed record ChildProcessResult(int ExitCode, string Output, string ErrorTail, bool TimedOut)
{
    /// <summary>Standard output, then the tail of standard error: what a message quotes of a failed child.</summary>
    public string Combined => string.IsNullOrEmpty(ErrorTail) ? Output : string.IsNullOrEmpty(Output) ? ErrorTail : $"{Output} | {ErrorTail}";
}
