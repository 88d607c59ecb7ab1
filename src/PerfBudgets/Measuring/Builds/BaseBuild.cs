using PerfBudgets.Budgets;
using PerfBudgets.Processes;

namespace PerfBudgets.Measuring;

/// <summary>
/// The base commit a change is measured against, checked out and built in this run: what the paired budgets
/// (<c>.VsBase</c>, <see cref="PairedRounds"/>) compare the working tree with. The base is <c>PERF_BASE_COMMIT</c> when set;
/// else, outside CI, <c>HEAD</c> when tracked files have uncommitted changes (what a developer asks before committing);
/// else <c>HEAD</c>'s first parent (what CI asks of a merge or a pushed commit). Under CI (<c>CI=true</c>) the base is
/// never <c>HEAD</c> unless <c>PERF_BASE_COMMIT</c> names it: what a CI job changes in its clone is not the change under test.
/// </summary>
/// <remarks>
/// Untracked files never make the tree "uncommitted", and neither does anything under <c>artifacts/</c> (what the gate
/// and the build write): a repository that does not ignore them would otherwise compare the change with itself from
/// the first file a test writes. Where the working tree's tracked files equal the base's, the head cannot differ from
/// the base: there is no base to compare with (<see cref="TryResolve(string, BaseSelection, out string)"/> says so),
/// unless <c>PERF_BASE_COMMIT</c> named that commit on purpose (to compare two builds of one tree).
/// The base's tree is exported with <c>git archive</c> to <c>artifacts/base/COMMIT/tree</c> beside the repository's root
/// and each project is built once per commit into <c>artifacts/base/COMMIT/bin/PROJECT</c>, Release: a second test
/// project, or the next run, finds it built. A file lock keeps two processes from building the same commit at once.
/// </remarks>
public sealed partial class BaseBuild
{
    private static readonly TimeSpan GitTimeout = TimeSpan.FromSeconds(60);

    // What the gate and the build write: never a change under test.
    private const string ArtifactsExclusion = ":(exclude)artifacts";

    private readonly int _keep;

    // PERF_BASE_COMMIT named a commit whose tree is the head's: two builds of one tree, compared on purpose.
    private readonly bool _sameTree;

    private BaseBuild(string repositoryRoot, string commit, string description, int keep, bool sameTree = false)
    {
        _sameTree = sameTree;
        RepositoryRoot = repositoryRoot;
        Commit = commit;
        Description = description;
        Directory = Path.Combine(repositoryRoot, "artifacts", "base", commit[..12]);
        _keep = keep;
    }

    /// <summary>The root of the repository whose working tree is the head.</summary>
    public string RepositoryRoot { get; }

    /// <summary>The base commit's full hash.</summary>
    public string Commit { get; }

    /// <summary>Which commit the base is and why that one, e.g. <c>1a2b3c4d5e6f (HEAD: the working tree has uncommitted changes)</c>.</summary>
    public string Description { get; }

    /// <summary>Where the base's tree and builds are kept.</summary>
    public string Directory { get; }

    /// <summary>
    /// The limit on head ÷ base of the paired budget this base was handed to by <c>BudgetGate.CheckVsBase</c>; null
    /// outside a gate's check. A comparison that spends its rounds adaptively (<see cref="PairedWorkloads"/>) runs
    /// until its interval decides the budget (<see cref="BudgetRule"/>), so an adopter's measure needs no code for it.
    /// </summary>
    public double? BudgetLimit => Decision?.Limit;

    /// <summary>
    /// How the paired budget this base was handed to judges its interval against <see cref="BudgetLimit"/>; null outside
    /// a gate's check.
    /// </summary>
    public PairedRule? BudgetRule => Decision?.Rule;

    // The verdict of the budget this base was handed to, for a comparison that stops once it is decided.
    internal PairedDecision? Decision { get; private init; }

    // This base, handed to the check of a paired budget.
    internal BaseBuild UnderBudget(Budget budget) => new(RepositoryRoot, Commit, Description, _keep, _sameTree) { Decision = PairedDecision.Of(budget) };

    /// <summary>
    /// Why the head's build of <paramref name="projectPath"/> cannot differ from the base's, or null when it can, or
    /// when that cannot be told. It cannot differ when no path that changed between the base commit and the working
    /// tree (tracked changes, and files not yet tracked in the project's folders) could be an input of the project or
    /// of a project it references: a commit of documentation, data tables or scripts. A paired budget then needs no
    /// measurement: head ÷ base is 1 by construction (<see cref="PairedComparison.SameInputs"/>).
    /// </summary>
    /// <remarks>
    /// The closure of projects is read from each one's <c>obj/project.assets.json</c>, so the head's project must have
    /// been restored (a test project that references it has); without it, or where <c>PERF_BASE_COMMIT</c> named a commit
    /// whose tree is the head's (two builds of one tree compared on purpose), the answer is null and the pair runs.
    /// Source and build files count as inputs wherever they are (a project may link a file from another folder, and
    /// build settings apply from the folders above).
    /// </remarks>
    /// <param name="projectPath">The project's file, absolute or relative to <see cref="RepositoryRoot"/>.</param>
    public string? SameInputs(string projectPath)
    {
        var project = Path.GetFullPath(ProjectInRepository(projectPath), RepositoryRoot);
        if (_sameTree || BuildInputs.ProjectFolders(project) is not { } folders)
        {
            return null;
        }

        var relativeFolders = folders.Select(f => Path.GetRelativePath(RepositoryRoot, f).Replace('\\', '/')).Select(f => f == "." ? string.Empty : f).ToList();
        if (relativeFolders.Any(f => f.StartsWith("..", StringComparison.Ordinal)))
        {
            // A referenced project outside the repository: git cannot say whether it changed.
            return null;
        }

        // A path git has to quote (a newline or a quote in its name) matches no folder and no kind: an input.
        var changed = GitLines("diff", "--name-only", "--no-renames", Commit, "--", ".", ArtifactsExclusion);
        var untracked = GitLines(["ls-files", "--others", "--exclude-standard", "--", .. relativeFolders.Select(f => f.Length == 0 ? "." : f)]);
        if (changed is not { } paths || untracked is null)
        {
            return null;
        }

        if (untracked.Length > 0 || paths.Any(p => BuildInputs.CouldBeInput(p, relativeFolders)))
        {
            return null;
        }

        var name = Path.GetFileNameWithoutExtension(project);
        var shown = string.Join(", ", paths.Take(5)) + (paths.Length > 5 ? $" and {paths.Length - 5} more" : string.Empty);
        return $"the head's inputs to {name} are the base's ({Description}): {paths.Length} changed path{(paths.Length == 1 ? "" : "s")} ({shown}), none in {name}'s {(folders.Count == 1 ? "folder" : $"{folders.Count} project folders")} nor a source or build file";
    }

    /// <summary>
    /// Builds <paramref name="projectPath"/> (the head's project file; the base's is the same path in the base's tree)
    /// in Release, once per commit, and answers the base's built assembly. Throws <see cref="BaseBuildException"/>
    /// with the build's last lines when the base cannot be exported or does not build.
    /// </summary>
    /// <param name="projectPath">The project's file, absolute or relative to <see cref="RepositoryRoot"/>.</param>
    /// <param name="timeout">How long the export and the build may take.</param>
    public string BuildProject(string projectPath, TimeSpan timeout)
    {
        var relative = ProjectInRepository(projectPath);
        var name = Path.GetFileNameWithoutExtension(relative);
        var output = Path.Combine(Directory, "bin", name);
        var assembly = Path.Combine(output, name + ".dll");
        var built = Path.Combine(output, ".built");
        System.IO.Directory.CreateDirectory(Directory);
        using var gate = LockFile(Path.Combine(Directory, ".lock"), timeout);
        if (File.Exists(built) && File.Exists(assembly))
        {
            return assembly;
        }

        var tree = Path.Combine(Directory, "tree");
        var exported = Path.Combine(tree, ".exported");
        if (!File.Exists(exported))
        {
            PruneOlderBases();
            if (System.IO.Directory.Exists(tree))
            {
                System.IO.Directory.Delete(tree, recursive: true);
            }

            System.IO.Directory.CreateDirectory(tree);
            var archive = Path.Combine(Directory, "tree.tar");
            Expect(Git(RepositoryRoot, "archive", "--format=tar", "-o", archive, Commit), "git archive");
            Expect(Run("tar", ["-xf", archive, "-C", tree], RepositoryRoot, timeout), "tar");
            File.Delete(archive);
            File.WriteAllText(exported, Commit);
        }

        var project = Path.Combine(tree, relative);
        if (!File.Exists(project))
        {
            throw new BaseBuildException($"the base {Description} has no {relative}: a paired budget needs the project in both commits.");
        }

        Expect(Run(DotnetSdk, ["build", project, "-c", "Release", "-o", output, "-nologo", "-v", "q", "--disable-build-servers", "-p:TreatWarningsAsErrors=false"], tree, timeout),
            $"dotnet build of the base's {relative}");
        File.WriteAllText(built, Commit);
        return assembly;
    }

    // The project's path relative to the repository's root.
    private string ProjectInRepository(string projectPath)
    {
        ArgumentException.ThrowIfNullOrEmpty(projectPath);
        var relative = Path.GetRelativePath(RepositoryRoot, Path.GetFullPath(projectPath, RepositoryRoot));
        if (relative.StartsWith("..", StringComparison.Ordinal) || Path.IsPathRooted(relative))
        {
            throw new ArgumentException($"{projectPath} is not inside the repository {RepositoryRoot}.", nameof(projectPath));
        }

        return relative;
    }

    // The SDK's dotnet, not the counted runtime's host: the base is built as the head was.
    private static string DotnetSdk => HarnessEnvironment.DotnetHost ?? "dotnet";

    private static void Expect((int ExitCode, string Output) result, string what)
    {
        if (result.ExitCode != 0)
        {
            var lines = result.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries);
            throw new BaseBuildException($"{what} failed (exit {result.ExitCode}): {string.Join(" | ", lines.TakeLast(8)).Trim()}");
        }
    }

    private static (int ExitCode, string Output) Git(string directory, params string[] arguments) => Run("git", arguments, directory, GitTimeout);

    // The lines git wrote to its standard output, paths unquoted where it can; null when it failed.
    private string[]? GitLines(params string[] arguments)
    {
        var result = ChildProcess.Run("git", ["-c", "core.quotepath=off", .. arguments], GitTimeout, RepositoryRoot, removeVariables: ["MSBuild", "VSTEST"]);
        return result.ExitCode == 0 ? result.Output.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries) : null;
    }

    // A test host's MSBuild settings point into the SDK that started it; the base's build must find its own.
    private static (int ExitCode, string Output) Run(string file, IReadOnlyList<string> arguments, string directory, TimeSpan timeout)
    {
        var result = ChildProcess.Run(file, arguments, timeout, directory, removeVariables: ["MSBuild", "VSTEST"]);
        return (result.ExitCode, result.Combined);
    }

    // A new base is about to be exported: the oldest others go, so that artifacts/base/ holds the newest _keep bases
    // (this one among them) and does not grow by a tree and its builds per commit for ever. A base whose lock another
    // process holds (building it, or about to use it) is left alone.
    internal void PruneOlderBases()
    {
        var others = new DirectoryInfo(Path.GetDirectoryName(Directory)!).EnumerateDirectories()
            .Where(d => !string.Equals(d.FullName, Path.GetFullPath(Directory), StringComparison.Ordinal))
            .OrderByDescending(d => d.LastWriteTimeUtc)
            .Skip(_keep - 1);
        foreach (var old in others)
        {
            try
            {
                using (new FileStream(Path.Combine(old.FullName, ".lock"), FileMode.OpenOrCreate, FileAccess.ReadWrite, FileShare.None))
                {
                    foreach (var entry in old.EnumerateFileSystemInfos().Where(e => e.Name != ".lock"))
                    {
                        if (entry is DirectoryInfo folder)
                        {
                            folder.Delete(recursive: true);
                        }
                        else
                        {
                            entry.Delete();
                        }
                    }
                }

                old.Delete(recursive: true);
            }
            catch (IOException)
            {
                // In use by another process, or gone meanwhile: kept this time.
            }
            catch (UnauthorizedAccessException)
            {
                // Not ours to delete: kept.
            }
        }
    }

    private static FileStream LockFile(string path, TimeSpan timeout) =>
        FileLock.TryAcquire(path, timeout, TimeSpan.FromMilliseconds(200))?.Held
        ?? throw new BaseBuildException($"another process held {path} for more than {timeout.TotalMinutes:0.#} minutes while building the same base.");
}
