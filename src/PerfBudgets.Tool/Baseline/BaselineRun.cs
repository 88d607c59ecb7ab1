using PerfBudgets.Budgets;
using PerfBudgets.Processes;

namespace PerfBudgets.Tool.Baseline;

/// <summary>
/// The A side of an A/B run: the budget suites of the merge base of HEAD and a branch, built and run in a temporary
/// git worktree, their results written to a temporary folder and <c>results.json</c> kept. Everything it creates is
/// removed when it ends, however it ends.
/// </summary>
internal sealed class BaselineRun(string repository, string configuration)
{
    /// <summary>Runs SUITES (projects, relative to the repository) of SOLUTION on the merge base with REF; returns the merge base.</summary>
    public string Run(string branch, string solution, IReadOnlyList<string> suites, string resultsFile)
    {
        var mergeBase = Git("merge-base", "HEAD", branch);
        var head = Git("rev-parse", "HEAD");
        var temp = Path.Combine(Path.GetTempPath(), "perfgate-baseline-" + Guid.NewGuid().ToString("N"));
        var worktree = Path.Combine(temp, "worktree");
        var results = Path.Combine(temp, "budgets");
        Console.WriteLine($"Baseline: merge base of HEAD ({head[..10]}) and {branch} is {mergeBase[..10]}{(mergeBase == head ? " = HEAD: a no-change A/B run" : string.Empty)}.");
        Directory.CreateDirectory(temp);
        try
        {
            Git("worktree", "add", "--detach", worktree, mergeBase);
            if (Dotnet(["build", Path.Combine(worktree, solution), "-c", configuration], new Dictionary<string, string>()) != 0)
            {
                throw new ToolInputException($"The merge base {mergeBase} did not build.");
            }

            var environment = Environment(System.Environment.GetEnvironmentVariable(HarnessEnvironment.RunIdVariable), mergeBase, results);
            foreach (var suite in suites)
            {
                // A broken budget on the merge base still leaves its figures to compare with.
                var exit = Dotnet(["test", Path.Combine(worktree, suite), "-c", configuration, "--no-build", "--no-restore", "--logger", "console;verbosity=minimal"], environment);
                if (exit != 0)
                {
                    Console.WriteLine($"warning: baseline {suite} on {mergeBase[..10]} exited with {exit}.");
                }
            }

            var file = Path.Combine(results, "results.json");
            if (!File.Exists(file))
            {
                throw new ToolInputException($"The baseline run on {mergeBase} wrote no {file}.");
            }

            Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(resultsFile))!);
            File.Copy(file, resultsFile, overwrite: true);
            return mergeBase;
        }
        finally
        {
            TryGit("worktree", "remove", "--force", worktree);
            TryGit("worktree", "prune");
            if (Directory.Exists(temp))
            {
                Directory.Delete(temp, recursive: true);
            }
        }
    }

    /// <summary>
    /// The baseline suites' environment: their results in RESULTS, a run and commit of their own in history.jsonl, and
    /// no baseline of their own.
    /// </summary>
    public static Dictionary<string, string> Environment(string? runId, string mergeBase, string results) => new(StringComparer.Ordinal)
    {
        [HarnessEnvironment.ResultsDirectoryVariable] = results,
        [HarnessEnvironment.RunIdVariable] = (string.IsNullOrEmpty(runId) ? Guid.NewGuid().ToString("N")[..6] : runId) + "-baseline",
        [HarnessEnvironment.CommitVariable] = mergeBase,
        [HarnessEnvironment.BaselineVariable] = string.Empty,
    };

    private int Dotnet(IEnumerable<string> arguments, Dictionary<string, string> environment) =>
        ChildProcess.RunInForeground("dotnet", arguments, repository, environment);

    private string Git(params string[] arguments) =>
        TryGit(arguments) ?? throw new ToolInputException($"git {string.Join(' ', arguments)} failed in {repository}.");

    // Arguments one by one: a branch or a worktree path is never split or read as an option by a shell.
    private string? TryGit(params string[] arguments)
    {
        var git = ChildProcess.Run("git", arguments, TimeSpan.FromSeconds(60), repository);
        if (git.ExitCode != 0)
        {
            Console.Error.WriteLine(git.Combined);
            return null;
        }

        return git.Output.Trim();
    }
}
