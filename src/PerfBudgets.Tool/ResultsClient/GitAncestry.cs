using System.Diagnostics;

namespace PerfBudgets.Tool.ResultsClient;

/// <summary>
/// The last commits before a commit, with their parents, read from git (<c>git rev-list --parents</c>): sent with an
/// upload so that the server can find the nearest ancestor of a commit that was never run.
/// </summary>
internal static class GitAncestry
{
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

        var start = new ProcessStartInfo("git")
        {
            WorkingDirectory = workingDirectory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        // --end-of-options (git 2.24): the commit is a revision, never an option, even one that starts with '-'
        // (--output=FILE would write a file). Older git takes it as a revision and fails, which is refused below too.
        foreach (var argument in new[] { "rev-list", "--parents", $"--max-count={count}", "--end-of-options", commit })
        {
            start.ArgumentList.Add(argument);
        }

        string output;
        string error;
        int exitCode;
        try
        {
            using var git = Process.Start(start)!;
            var errorTask = git.StandardError.ReadToEndAsync();
            output = git.StandardOutput.ReadToEnd();
            git.WaitForExit();
            error = errorTask.GetAwaiter().GetResult();
            exitCode = git.ExitCode;
        }
        catch (System.ComponentModel.Win32Exception e)
        {
            throw new ToolInputException($"--ancestry needs git, which cannot be started: {e.Message}", e);
        }

        if (exitCode != 0)
        {
            throw new ToolInputException($"--ancestry: git rev-list {commit} failed in {workingDirectory}: {error.Trim()}");
        }

        return output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(line => line.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .Select(ids => (ids[0], ids[1..]))
            .ToList();
    }
}
