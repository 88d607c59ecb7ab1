using System.CommandLine;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets compare BASE.json HEAD.json [--budgets budgets.json]</c>: prints the change table between two runs
/// (<see cref="ChangeTable"/>). A comparison is information: it exits 0 whatever changed, 1 only on unreadable input.
/// </summary>
internal static class CompareCommand
{
    public static Command Create()
    {
        var baseline = new Argument<string>("BASE.json") { Description = "The results.json of the base run." };
        var head = new Argument<string>("HEAD.json") { Description = "The results.json of the run compared with it." };
        var budgets = new Option<string?>("--budgets") { Description = "The budgets.json whose noise thresholds flag a change as worse (none: nothing is flagged)." };
        var command = new Command("compare", "Prints the change, budget by budget, between two runs' results.json.") { baseline, head, budgets };
        command.SetAction(parseResult => CommandAction.Run(() =>
        {
            var before = BaselineResults.Load(parseResult.GetValue(baseline)!, "base");
            var after = BaselineResults.Load(parseResult.GetValue(head)!, "head");
            var book = parseResult.GetValue(budgets) is { } budgetsPath ? LoadBook(budgetsPath) : null;
            Console.Write(ChangeTable.Compare(before.Results, after.Results, book).Render());
            return 0;
        }));
        return command;
    }

    /// <summary>The budget book whose noise thresholds flag a change; the same in every profile, so the active one serves.</summary>
    internal static BudgetBook LoadBook(string path) =>
        File.Exists(path)
            ? BudgetBook.Load(path, HarnessEnvironment.Profile)
            : throw new ToolInputException($"--budgets '{Path.GetFullPath(path)}' does not exist.");
}
