using PerfBudgets.Budgets;

namespace PerfBudgets.Measuring;

// Which commit is the base, and why that one: the choice the class summary describes, made once per run.
public sealed partial class BaseBuild
{
    /// <summary>
    /// Finds the base for the repository that holds <paramref name="directory"/> as the environment asks
    /// (<c>PERF_BASE_COMMIT</c>, <c>CI</c>), or says why there is none (no git, no repository, a root commit, a shallow clone,
    /// <c>PERF_BASE_COMMIT</c> naming nothing, pairing turned off, a base whose tree is the head's), with the fix.
    /// </summary>
    public static BaseBuild? TryResolve(string directory, out string reason) =>
        TryResolve(directory, BaseSelection.FromEnvironment(), out reason);

    /// <summary>As <see cref="TryResolve(string, out string)"/>, with the settings given instead of the environment's.</summary>
    internal static BaseBuild? TryResolve(string directory, BaseSelection selection, out string reason)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        reason = string.Empty;
        if (selection.PairingOff)
        {
            reason = $"pairing is off ({HarnessEnvironment.BaseVariable}=none)";
            return null;
        }

        var root = Git(directory, "rev-parse", "--show-toplevel");
        if (root.ExitCode != 0)
        {
            reason = $"no git repository holds {directory} ({root.Output}): a paired budget measures the working tree against a base commit; run it in a clone, or set {HarnessEnvironment.BaseVariable}=none to turn pairing off";
            return null;
        }

        var top = root.Output;
        string asked;
        string why;
        if (selection.Named is { } named)
        {
            (asked, why) = (named, $"{HarnessEnvironment.BaseVariable}={named}");
        }
        else if (selection.IsCi)
        {
            (asked, why) = ("HEAD^1", "HEAD's first parent: under CI the base is never HEAD unless PERF_BASE_COMMIT names it");
        }
        else if (Git(top, "status", "--porcelain", "--untracked-files=no", "--", ".", ArtifactsExclusion).Output.Length > 0)
        {
            (asked, why) = ("HEAD", "HEAD: tracked files have uncommitted changes");
        }
        else
        {
            (asked, why) = ("HEAD^1", "HEAD's first parent: the working tree is HEAD");
        }

        var commit = Git(top, "rev-parse", "--verify", "--quiet", asked + "^{commit}");
        if (commit.ExitCode != 0 || commit.Output.Length < 12)
        {
            var shallow = Git(top, "rev-parse", "--is-shallow-repository").Output == "true";
            reason = shallow
                ? $"{asked} is not in this shallow clone: fetch one more commit (git fetch --deepen=1; on GitHub Actions, actions/checkout with fetch-depth: 2), or name a base with {HarnessEnvironment.BaseVariable}"
                : selection.Named is null
                    ? $"{asked} does not exist (HEAD is the first commit): name a base with {HarnessEnvironment.BaseVariable}=REF, or set {HarnessEnvironment.BaseVariable}=none"
                    : $"{HarnessEnvironment.BaseVariable}={asked} names no commit here: name a branch, tag or hash, or set {HarnessEnvironment.BaseVariable}=none";
            return null;
        }

        // The working tree's tracked files against the base's: equal, the pair would compare the change with itself.
        var sameTree = Git(top, "diff", "--quiet", commit.Output, "--", ".", ArtifactsExclusion).ExitCode == 0;
        if (sameTree && selection.Named is null)
        {
            reason = $"the base {commit.Output[..12]} ({why}) has the head's tree: there is no change to compare; commit the change, or name a base with {HarnessEnvironment.BaseVariable}=REF";
            return null;
        }

        return new BaseBuild(top, commit.Output, sameTree
            ? $"{commit.Output[..12]} ({why}; its tree is the head's: only build settings can differ)"
            : $"{commit.Output[..12]} ({why})", selection.Keep, sameTree);
    }

    /// <summary>A base the caller chose (a test's, or a resolver's other than git's), built from <paramref name="repositoryRoot"/>.</summary>
    internal static BaseBuild Create(string repositoryRoot, string commit, string description, int keep = 3) =>
        new(repositoryRoot, commit, description, keep);
}
