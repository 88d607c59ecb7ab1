using System.CommandLine;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Reporting;
using PerfBudgets.Tool.Recording;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets record BUDGETS_JSON RESULTS_JSON...</c>: re-records the counted budgets (instructions-max,
/// syscalls-max) of BUDGETS_JSON at the median of the runs' results, printing old → new for each
/// (<see cref="CountedBudgetRecorder"/>; the Cake target Record.Instructions runs it).
/// </summary>
internal static partial class RecordCommand
{
    public static Command Create()
    {
        var budgets = new Argument<string>("BUDGETS_JSON") { Description = "The budgets.json to rewrite." };
        var results = new Argument<string[]>("RESULTS_JSON") { Description = "The results.json of one run or more.", Arity = ArgumentArity.OneOrMore };
        var framework = new Option<string?>("--framework") { Description = "Record into each budget's limit for this target framework (its \"runtimes\" entry, e.g. net8.0) instead of its own." };
        var command = new Command("record", "Re-records the counted budgets from the results of one run or more, printing old → new.") { budgets, results, framework };
        command.SetAction(parseResult => CommandAction.Run(() =>
        {
            var budgetsPath = parseResult.GetValue(budgets)!;
            var resultsPaths = parseResult.GetValue(results)!;
            foreach (var path in resultsPaths.Prepend(budgetsPath).Where(p => !File.Exists(p)))
            {
                throw new ToolInputException($"'{Path.GetFullPath(path)}' does not exist.");
            }

            // The versions a count was recorded with are part of the budget: counts compare only under the same ones.
            var valgrind = Valgrind.Current;
            if (!valgrind.IsAvailable)
            {
                throw new ToolInputException($"Cannot record counted budgets: {valgrind.UnavailableReason}");
            }

            // The counted processes may run on a pinned runtime (CountedRuntime) other than this tool's: the counts name
            // theirs, and that is the one recorded.
            var runtime = CountedRuntimeOf(resultsPaths) ?? InstructionMeter.RuntimeVersion;
            foreach (var line in CountedBudgetRecorder.Record(budgetsPath, resultsPaths, runtime, valgrind.Version!, parseResult.GetValue(framework)))
            {
                Console.WriteLine(line);
            }

            return 0;
        }));
        return command;
    }

    // The runtime the counts of the results were taken on, from their detail ("...; .NET 10.0.12, valgrind 3.19.0",
    // InstructionMeasurement.ToString); null when none names one. Runs on several runtimes cannot be recorded together.
    internal static string? CountedRuntimeOf(IEnumerable<string> resultsPaths)
    {
        var versions = resultsPaths
            .SelectMany(ResultStore.ReadAll)
            .Where(r => r.Kind is "instructions-max" or "syscalls-max" && r.Detail is not null)
            .Select(r => CountedOn().Match(r.Detail!))
            .Where(m => m.Success)
            .Select(m => m.Groups[1].Value)
            .Distinct(StringComparer.Ordinal)
            .ToList();
        return versions.Count switch
        {
            0 => null,
            1 => versions[0],
            _ => throw new ToolInputException($"The results were counted on several runtimes ({string.Join(", ", versions)}): record runs of one runtime."),
        };
    }

    [System.Text.RegularExpressions.GeneratedRegex(@"; \.NET (\d+\.\d+\.\d+[^,]*), valgrind ")]
    private static partial System.Text.RegularExpressions.Regex CountedOn();
}
