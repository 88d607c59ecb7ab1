using PerfBudgets.Budgets;
using PerfBudgets.Processes;

namespace PerfBudgets.Tool.Runtimes;

/// <summary>
/// Runs test projects once per target framework, each on that framework's own runtime: the project is built for every
/// framework named (<c>-p:PerfBudgetsRuntimes=net8.0;net10.0</c>), and each framework's test assembly is started
/// with the muxer of the counted runtime laid out beside it (<c>counted-runtime/dotnet</c>, the pinned patch of its
/// major), so the suite itself, its in-process meters and the processes it counts all run on that runtime. Each
/// framework's results go to <c>OUTPUT/FRAMEWORK/results.json</c>.
/// </summary>
/// <remarks>
/// The test assembly is run directly (an xunit v3 test project is an executable), not through <c>dotnet test</c>: the
/// test platform would start it on the newest runtime the machine has, which may be the only one. A budget recorded on
/// another runtime fails its test on this one; the figure is recorded all the same, which is what the comparison
/// reads, so a failing run is reported and the comparison goes on.
/// </remarks>
internal sealed class RuntimesRun(string configuration, IReadOnlyList<string> buildProperties, TextWriter log)
{
    /// <summary>The MSBuild property that names the runtimes to build for (the package's README shows how a test project uses it).</summary>
    public const string RuntimesProperty = "PerfBudgetsRuntimes";

    /// <summary>Builds <paramref name="project"/> for every framework in <paramref name="frameworks"/>.</summary>
    /// <exception cref="ToolInputException">The build failed.</exception>
    public void Build(string project, IReadOnlyList<string> frameworks)
    {
        List<string> arguments = ["build", project, "-c", configuration, $"-p:{RuntimesProperty}=\"{string.Join(';', frameworks)}\"", "-nologo", "-v", "quiet"];
        arguments.AddRange(buildProperties.Select(p => $"-p:{p}"));
        log.WriteLine($"perfbudgets runtimes: dotnet {string.Join(' ', arguments)}");
        var exitCode = Start("dotnet", arguments, new Dictionary<string, string>(StringComparer.Ordinal), Directory.GetCurrentDirectory());
        if (exitCode != 0)
        {
            throw new ToolInputException($"The build of {project} for {string.Join(", ", frameworks)} failed (exit code {exitCode}).");
        }
    }

    /// <summary>
    /// Runs the test assembly of <paramref name="project"/> built for <paramref name="framework"/> on that framework's
    /// counted runtime, its results into <paramref name="resultsDirectory"/>; returns its exit code (non-zero when a
    /// budget failed, which on an older runtime is expected).
    /// </summary>
    /// <exception cref="ToolInputException">The project was not built for the framework.</exception>
    public int Run(string project, string framework, string resultsDirectory, IReadOnlyList<string> testArguments)
    {
        var assembly = TestAssembly(project, framework);
        var output = Path.GetDirectoryName(assembly)!;
        var countedMuxer = Path.Combine(output, "counted-runtime", "dotnet");
        var muxer = File.Exists(countedMuxer) ? countedMuxer : "dotnet";
        var environment = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            [HarnessEnvironment.ResultsDirectoryVariable] = Path.GetFullPath(resultsDirectory),
            [HarnessEnvironment.RunIdVariable] = $"runtimes-{framework}",
        };
        log.WriteLine($"perfbudgets runtimes: {framework}: {muxer} {Path.GetFileName(assembly)} {string.Join(' ', testArguments)}" +
            (muxer == countedMuxer ? string.Empty : " (no counted runtime beside it: on the machine's runtime)"));
        return Start(muxer, [assembly, .. testArguments], environment, output);
    }

    /// <summary>
    /// <c>PROJECT_DIR/bin/CONFIGURATION/FRAMEWORK/NAME.dll</c>, where the SDK puts a project's output by default;
    /// <paramref name="project"/> is the project file or its folder.
    /// </summary>
    /// <exception cref="ToolInputException">There is no such assembly.</exception>
    public string TestAssembly(string project, string framework)
    {
        var file = ProjectFile(project);
        var assembly = Path.Combine(Path.GetDirectoryName(file)!, "bin", configuration, framework, Path.GetFileNameWithoutExtension(file) + ".dll");
        return File.Exists(assembly)
            ? assembly
            : throw new ToolInputException(
                $"{assembly} does not exist: {Path.GetFileName(file)} was not built for {framework}. A test project builds for the runtimes named by " +
                $"<TargetFrameworks Condition=\"'$({RuntimesProperty})' != ''\">$({RuntimesProperty})</TargetFrameworks> (or lists them in TargetFrameworks).");
    }

    /// <summary>The project file: <paramref name="project"/> itself, or the one project file in that folder.</summary>
    public static string ProjectFile(string project)
    {
        if (File.Exists(project))
        {
            return Path.GetFullPath(project);
        }

        var files = Directory.Exists(project) ? Directory.GetFiles(project, "*.*proj") : [];
        return files.Length == 1
            ? Path.GetFullPath(files[0])
            : throw new ToolInputException($"--project '{project}' is neither a project file nor a folder with exactly one.");
    }

    internal static int Start(string fileName, IEnumerable<string> arguments, Dictionary<string, string> environment, string workingDirectory)
    {
        try
        {
            return ChildProcess.RunInForeground(fileName, arguments, workingDirectory, environment);
        }
        catch (ChildProcessException e)
        {
            throw new ToolInputException(e.Message, e);
        }
    }
}
