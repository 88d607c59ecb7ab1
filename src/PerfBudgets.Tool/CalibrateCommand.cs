using System.CommandLine;
using System.Globalization;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Tool.Calibration;
using PerfBudgets.Tool.Recording;
using PerfBudgets.Tool.Runtimes;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets calibrate [--runs N] [-- TEST_COMMAND...]</c>: runs the budgets' tests several times unchanged, each
/// run's results in a folder of its own, and sets each budget's room from the spread it saw and its kind's resolution
/// (<see cref="BudgetCalibrator"/>, <see cref="CalibrationPolicy"/>), printing what it chose and why, per budget. A
/// retained-memory interval it lengthens is measured again in as many runs.
/// </summary>
internal static class CalibrateCommand
{
    public static Command Create()
    {
        var budgets = new Option<string>("--budgets") { Description = "The budgets.json to calibrate.", DefaultValueFactory = _ => BudgetBook.FileName };
        var runs = new Option<int>("--runs") { Description = "How many unchanged runs to calibrate from.", DefaultValueFactory = _ => 5 };
        var output = new Option<string>("--output") { Description = "Where each run's results go (RUN/results.json).", DefaultValueFactory = _ => Path.Combine("artifacts", "calibrate") };
        var profile = new Option<string>("--profile") { Description = "The profile the runs measure (PERF_PROFILE).", DefaultValueFactory = _ => "ci" };
        var results = new Option<string[]>("--results") { Description = "Calibrate from these results.json files instead of running the tests.", Arity = ArgumentArity.OneOrMore };
        var testCommand = new Argument<string[]>("TEST_COMMAND") { Description = "The command that runs the budgets, after -- (default: dotnet test).", Arity = ArgumentArity.ZeroOrMore };
        var command = new Command("calibrate", "Runs the budgets several times unchanged and sets each one's room from the spread it saw, saying why.")
        {
            budgets, runs, output, profile, results, testCommand,
        };
        command.SetAction(parseResult => CommandAction.Run(() =>
        {
            var budgetsPath = Path.GetFullPath(parseResult.GetValue(budgets)!);
            if (!File.Exists(budgetsPath))
            {
                throw new ToolInputException($"--budgets '{budgetsPath}' does not exist.");
            }

            var runCount = parseResult.GetValue(runs);
            if (runCount < 2)
            {
                throw new ToolInputException($"--runs {runCount}: a spread needs two runs or more (5 by default).");
            }

            var given = parseResult.GetValue(results);
            var test = parseResult.GetValue(testCommand) is { Length: > 0 } words ? words : ["dotnet", "test"];
            var folder = Path.GetFullPath(parseResult.GetValue(output)!);
            var profileName = parseResult.GetValue(profile)!;
            var paths = given is { Length: > 0 } ? given.Select(Path.GetFullPath).ToList() : RunTests(test, folder, "run", runCount, profileName);
            var outcome = Calibrate(budgetsPath, paths, profileName, only: null);
            if (outcome.IntervalsChanged.Count > 0 && given is not { Length: > 0 })
            {
                Console.WriteLine($"Measuring {string.Join(", ", outcome.IntervalsChanged)} again over the longer intervals:");
                var again = RunTests(test, folder, "interval", runCount, profileName);
                outcome = Calibrate(budgetsPath, again, profileName, outcome.IntervalsChanged.ToHashSet(StringComparer.Ordinal));
            }

            Console.WriteLine(outcome.Warnings == 0
                ? $"Calibrated {budgetsPath}: review the diff and commit it with these lines."
                : $"Calibrated {budgetsPath} with {outcome.Warnings} warnings above: those budgets need a decision of yours.");
            return 0;
        }));
        return command;
    }

    private static BudgetCalibrator.Outcome Calibrate(string budgetsPath, IReadOnlyList<string> paths, string profile, IReadOnlySet<string>? only)
    {
        var valgrind = Valgrind.Current;
        var existing = paths.Where(File.Exists).ToList();
        var runtime = RecordCommand.CountedRuntimeOf(existing) ?? InstructionMeter.RuntimeVersion;
        if (valgrind.IsAvailable && only is null)
        {
            try
            {
                RecordBreakdowns(budgetsPath, existing, runtime, valgrind.Version!);
            }
            catch (BudgetFileException e)
            {
                Console.WriteLine($"The budgets' breakdowns were not recorded: {e.Message}");
            }
        }

        var outcome = BudgetCalibrator.Calibrate(budgetsPath, paths, profile, runtime, valgrind.IsAvailable ? valgrind.Version : null, only);
        foreach (var line in outcome.Lines)
        {
            Console.WriteLine(line);
        }

        return outcome;
    }

    /// <summary>
    /// Records the budgets' breakdowns (<c>budgets.methods.json</c>: the counted budgets' methods, the allocation
    /// profiles), which a failure compares with, and leaves <c>budgets.json</c> as it was: calibrate then sets the counts,
    /// margins and limits itself, and each of its lines says old → new against the file as the user had it.
    /// </summary>
    internal static void RecordBreakdowns(string budgetsPath, IReadOnlyList<string> results, string runtime, string valgrindVersion)
    {
        var asItWas = File.ReadAllText(budgetsPath);
        try
        {
            _ = CountedBudgetRecorder.Record(budgetsPath, results, runtime, valgrindVersion);
        }
        finally
        {
            File.WriteAllText(budgetsPath, asItWas);
        }
    }

    // Runs the test command `count` times, each with its results in FOLDER/NAME-i; a run whose tests fail still
    // counts (a budget recorded at 0 fails its first run and its figure is what calibrate needs).
    private static List<string> RunTests(string[] test, string folder, string name, int count, string profile)
    {
        var paths = new List<string>();
        for (var i = 1; i <= count; i++)
        {
            var runFolder = Path.Combine(folder, string.Create(CultureInfo.InvariantCulture, $"{name}-{i}"));
            if (Directory.Exists(runFolder))
            {
                Directory.Delete(runFolder, recursive: true);
            }

            Directory.CreateDirectory(runFolder);
            Console.WriteLine($"perfbudgets calibrate: run {i} of {count}: {string.Join(' ', test)} (results in {runFolder})");
            var environment = new Dictionary<string, string>(StringComparer.Ordinal)
            {
                ["PERF_ARTIFACTS_DIR"] = runFolder,
                ["PERF_PROFILE"] = profile,
                ["PERF_RUN_ID"] = $"calibrate-{name}-{i}",
            };
            if (i == 1)
            {
                // The first run also diagnoses the budgets that pass, so each allocation budget's profile is recorded
                // (budgets.methods.json) for its failures to be compared with; the later runs measure undisturbed.
                environment[HarnessEnvironment.DiagnoseVariable] = "always";
            }

            var exitCode = RuntimesRun.Start(test[0], test.Skip(1), environment, Environment.CurrentDirectory);
            var results = Path.Combine(runFolder, "results.json");
            Console.WriteLine(File.Exists(results)
                ? $"perfbudgets calibrate: run {i} exited {exitCode}"
                : $"perfbudgets calibrate: run {i} exited {exitCode} and left no results.json");
            paths.Add(results);
        }

        return paths;
    }
}
