using System.CommandLine;
using PerfBudgets.Tool.Runtimes;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets runtimes --project P... [--framework F...] [--output DIR] [--report FILE] [--no-run] [-- TEST_ARGS]</c>:
/// runs the test projects on each runtime's pinned patch (<see cref="RuntimesRun"/>) and writes the comparison
/// (<see cref="RuntimeComparison"/>): one table per scenario, each budget's figure on every runtime, its ratio to the
/// newest, and the methods whose counts moved most between neighbouring runtimes. Information: it exits 0 whatever the
/// budgets did on the older runtimes, 1 on bad input or a failed build.
/// </summary>
internal static class RuntimesCommand
{
    /// <summary>The markers in a report file between which the comparison is written; the rest of the file is kept.</summary>
    public const string BeginMarker = "<!-- perfbudgets runtimes -->";

    /// <summary>The end of the written region.</summary>
    public const string EndMarker = "<!-- /perfbudgets runtimes -->";

    public static Command Create()
    {
        var projects = new Option<string[]>("--project") { Description = "A test project to run on each runtime (repeat for each).", Arity = ArgumentArity.OneOrMore };
        var frameworks = new Option<string[]>("--framework")
        {
            Description = "A target framework to build and run for (repeat; default net8.0, net9.0, net10.0). The newest is the one ratios are taken to.",
            Arity = ArgumentArity.OneOrMore,
            DefaultValueFactory = _ => ["net8.0", "net9.0", "net10.0"],
        };
        var configuration = new Option<string>("--configuration") { Description = "The build configuration.", DefaultValueFactory = _ => "Release" };
        var output = new Option<string>("--output") { Description = "Where each runtime's results go (OUTPUT/FRAMEWORK/results.json).", DefaultValueFactory = _ => Path.Combine("artifacts", "runtimes") };
        var report = new Option<string?>("--report") { Description = $"A markdown file to write the comparison to: between {BeginMarker} and {EndMarker} when it has them (the rest is kept), else the whole file." };
        var noRun = new Option<bool>("--no-run") { Description = "Compare the results already in --output; build and run nothing." };
        var noBuild = new Option<bool>("--no-build") { Description = "Run the test assemblies as they were built." };
        var only = new Option<string[]>("--only") { Description = "Compare only the budgets whose names start with this (repeat).", Arity = ArgumentArity.OneOrMore };
        var properties = new Option<string[]>("--property") { Description = "An MSBuild property for the build, NAME=VALUE (repeat).", Arity = ArgumentArity.OneOrMore };
        var testArguments = new Argument<string[]>("TEST_ARGUMENTS") { Description = "Passed to each test assembly after --, e.g. -- -class My.Tests.CountTests.", Arity = ArgumentArity.ZeroOrMore };
        var command = new Command("runtimes", "Runs test projects on each runtime's pinned patch and compares the budgets' figures runtime by runtime, with the methods whose counts moved.")
        {
            projects, frameworks, configuration, output, report, noRun, noBuild, only, properties, testArguments,
        };
        command.SetAction(parseResult => CommandAction.Run(() =>
        {
            var names = parseResult.GetValue(frameworks)!.SelectMany(f => f.Split(';', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)).Distinct(StringComparer.Ordinal).ToList();
            var outputDirectory = parseResult.GetValue(output)!;
            if (!parseResult.GetValue(noRun))
            {
                var suites = parseResult.GetValue(projects) ?? [];
                if (suites.Length == 0)
                {
                    throw new ToolInputException("Give a test project to run (--project), or --no-run to compare the results already in --output.");
                }

                var run = new RuntimesRun(parseResult.GetValue(configuration)!, parseResult.GetValue(properties) ?? [], Console.Out);
                if (!parseResult.GetValue(noBuild))
                {
                    foreach (var project in suites)
                    {
                        run.Build(project, names);
                    }
                }

                foreach (var framework in names)
                {
                    var results = Path.Combine(outputDirectory, framework);
                    if (Directory.Exists(results))
                    {
                        Directory.Delete(results, recursive: true);
                    }

                    Directory.CreateDirectory(results);
                    foreach (var project in suites)
                    {
                        var exitCode = run.Run(project, framework, results, parseResult.GetValue(testArguments) ?? []);
                        Console.WriteLine($"perfbudgets runtimes: {framework}: {Path.GetFileNameWithoutExtension(RuntimesRun.ProjectFile(project))} exited with {exitCode}" +
                            (exitCode == 0 ? string.Empty : " (budgets recorded on another runtime fail there; their figures are compared all the same)"));
                    }
                }
            }

            var comparison = RuntimeComparison.Load(outputDirectory, names);
            var markdown = comparison.Render(parseResult.GetValue(only));
            Console.Write(markdown);
            if (parseResult.GetValue(report) is { } reportPath)
            {
                WriteReport(reportPath, markdown);
                Console.WriteLine($"perfbudgets runtimes: wrote {reportPath}");
            }

            return 0;
        }));
        return command;
    }

    // The comparison between the markers of an existing report, or the whole file.
    internal static void WriteReport(string path, string markdown)
    {
        var existing = File.Exists(path) ? File.ReadAllText(path) : null;
        var begin = existing?.IndexOf(BeginMarker, StringComparison.Ordinal) ?? -1;
        var end = existing?.IndexOf(EndMarker, StringComparison.Ordinal) ?? -1;
        var text = existing is not null && begin >= 0 && end > begin
            ? $"{existing[..(begin + BeginMarker.Length)]}\n\n{markdown.TrimEnd()}\n\n{existing[end..]}"
            : markdown;
        Directory.CreateDirectory(Path.GetDirectoryName(Path.GetFullPath(path))!);
        File.WriteAllText(path, text);
    }
}
