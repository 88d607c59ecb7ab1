using System.CommandLine;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets record BUDGETS_JSON RESULTS_JSON...</c>: re-records the counted budgets (instructions-max,
/// syscalls-max) of BUDGETS_JSON at the median of the runs' results, printing old → new for each
/// (<see cref="CountedBudgetRecorder"/>; the Cake target Record.Instructions runs it).
/// </summary>
internal static class RecordCommand
{
    public static Command Create()
    {
        var budgets = new Argument<string>("BUDGETS_JSON") { Description = "The budgets.json to rewrite." };
        var results = new Argument<string[]>("RESULTS_JSON") { Description = "The results.json of one run or more.", Arity = ArgumentArity.OneOrMore };
        var command = new Command("record", "Re-records the counted budgets from the results of one run or more, printing old → new.") { budgets, results };
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

            foreach (var line in CountedBudgetRecorder.Record(budgetsPath, resultsPaths, InstructionMeter.RuntimeVersion, valgrind.Version!))
            {
                Console.WriteLine(line);
            }

            return 0;
        }));
        return command;
    }
}
