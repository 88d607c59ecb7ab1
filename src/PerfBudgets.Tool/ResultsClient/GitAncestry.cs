using PerfBudgets.Processes;

namespace PerfBudgets.Tool.ResultsClient;

/// <summary>
/// The last commits before a commit, with their parents, read from git (<c>git rev-list --parents</c>): sent with an
/// upload so that the server can find the nearest ancestor of a commit that was never run.
/// </summary>
internal static class GitAncestry
{
    private static readonly TimeSpan GitTimeout = TimeSpan.FromSeconds(60);

    /// <summary>Up to <paramref name="count"/> commits from <paramref name="commit"/> back, each with its parents.</summary>
    public static IReadOnlyList<(string Commit, string[] Parents)> Read(string commit, int count, string workingDirectory)
    {
        if (count <= 0)
        {
            return [];
        }

        if (commit.StartsWith('-'))
        {
            throw new ToolInputException($"--commit '{commit}' is not a commit: it starts with '-'.");
        }

        // --end-of-options (git 2.24): the commit is a revision, never an option, even one that starts with '-'
        // (--output=FILE would write a file). Older git takes it as a revision and fails, which is refused below too.
        var git = ChildProcess.Run("git", ["rev-list", "--parents", $"--max-count={count}", "--end-of-options", commit], GitTimeout, workingDirectory);
        if (git.NotStarted)
        {
            throw new ToolInputException($"--ancestry needs git, which cannot be started: {git.ErrorTail}");
        }

        if (git.ExitCode != 0)
        {
            throw new ToolInputException($"--ancestry: git rev-list {commit} failed in {workingDirectory}: {git.Combined}");
        }

        var output = git.Output;
        return output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .Select(ids => (ids[0], ids[1..]))
            .ToList();
    }
}
