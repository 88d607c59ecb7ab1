using System.Text.Json;

namespace PerfBudgets.Measuring;

/// <summary>
/// What a project's build can read, as far as a paired budget needs to know it (<see cref="BaseBuild.SameInputs"/>):
/// the folders of the project and of every project it references, read from the restore's
/// <c>obj/project.assets.json</c>, and which changed paths of a repository could be an input of that build.
/// </summary>
/// <remarks>
/// The rule errs toward "could be an input": a change the rule calls no input lets a paired budget pass without a
/// measurement, so only paths outside every project folder of the closure and of a kind no build reads by default
/// (documentation, images, data tables, scripts, CI files, files with no extension) are left out. Source and build
/// files anywhere count: a project may link a source file from another folder, and build settings apply from folders
/// above.
/// </remarks>
internal static class BuildInputs
{
    // Kinds of file the .NET SDK never reads unless a project names them; outside the closure's folders, a change to
    // one of these, or to a file with no extension (a license, a script, git's own settings), cannot change the build.
    private static readonly HashSet<string> NeverBuilt = new(StringComparer.OrdinalIgnoreCase)
    {
        ".md", ".markdown", ".rst", ".adoc", ".csv", ".tsv", ".png", ".jpg", ".jpeg", ".gif", ".svg", ".pdf",
        ".py", ".sh", ".ps1", ".cmd", ".bat", ".yml", ".yaml", ".ipynb", ".patch", ".diff", ".jsonl", ".log",
        ".html", ".css", ".gitignore", ".gitattributes", ".mailmap",
    };

    /// <summary>
    /// The folders of <paramref name="projectPath"/> and of every project it references, directly or not, from each
    /// one's <c>obj/project.assets.json</c>; null when one of those files is missing (not restored, or restored
    /// elsewhere), since then the closure is not known.
    /// </summary>
    public static IReadOnlyList<string>? ProjectFolders(string projectPath)
    {
        var folders = new List<string>();
        var pending = new Stack<string>([Path.GetFullPath(projectPath)]);
        var seen = new HashSet<string>(StringComparer.Ordinal);
        while (pending.TryPop(out var project))
        {
            if (!seen.Add(project))
            {
                continue;
            }

            var folder = Path.GetDirectoryName(project)!;
            folders.Add(folder);
            var assets = Path.Combine(folder, "obj", "project.assets.json");
            if (!File.Exists(assets))
            {
                return null;
            }

            foreach (var reference in References(assets))
            {
                pending.Push(Path.GetFullPath(reference));
            }
        }

        return folders;
    }

    /// <summary>
    /// Whether the change of <paramref name="path"/> (relative to the repository's root, with <c>/</c>) could change a
    /// build whose projects sit in <paramref name="projectFolders"/> (relative to the same root, with <c>/</c>).
    /// </summary>
    public static bool CouldBeInput(string path, IReadOnlyList<string> projectFolders)
    {
        if (projectFolders.Any(folder => folder.Length == 0 || path.StartsWith(folder + "/", StringComparison.Ordinal)))
        {
            return true;
        }

        var name = path[(path.LastIndexOf('/') + 1)..];
        var extension = Path.GetExtension(name);
        return extension.Length > 0 && !NeverBuilt.Contains(extension);
    }

    // project.restore.frameworks.TFM.projectReferences.*.projectPath of one assets file.
    private static IEnumerable<string> References(string assetsFile)
    {
        using var document = JsonDocument.Parse(File.ReadAllBytes(assetsFile));
        if (!document.RootElement.TryGetProperty("project", out var project)
            || !project.TryGetProperty("restore", out var restore)
            || !restore.TryGetProperty("frameworks", out var frameworks))
        {
            return [];
        }

        var references = new List<string>();
        foreach (var framework in frameworks.EnumerateObject())
        {
            if (!framework.Value.TryGetProperty("projectReferences", out var projectReferences))
            {
                continue;
            }

            foreach (var reference in projectReferences.EnumerateObject())
            {
                references.Add(reference.Value.TryGetProperty("projectPath", out var path) && path.GetString() is { Length: > 0 } p ? p : reference.Name);
            }
        }

        return references;
    }
}
