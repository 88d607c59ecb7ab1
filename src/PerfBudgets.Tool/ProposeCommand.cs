using System.CommandLine;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Reporting;
using PerfBudgets.Tool.Proposals;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets propose [--history H] [--budgets B] [--profile P] [--write]</c>: proposes each budget's limit from the
/// runs in history.jsonl by <see cref="LimitPolicy"/> and prints the change to budgets.json as a diff
/// (<see cref="ProposalListing"/>); <c>--write</c> rewrites budgets.json with it.
/// </summary>
internal static class ProposeCommand
{
    public static Command Create()
    {
        var history = new Option<string>("--history") { Description = "The history of runs.", DefaultValueFactory = _ => Path.Combine("artifacts", "budgets", "history.jsonl") };
        var budgets = new Option<string>("--budgets") { Description = "The budget book whose limits are proposed.", DefaultValueFactory = _ => BudgetBook.FileName };
        var profile = new Option<string>("--profile") { Description = "The profile whose runs and limits are used (default PERF_PROFILE, else ci).", DefaultValueFactory = _ => HarnessEnvironment.Profile };
        var write = new Option<bool>("--write") { Description = "Rewrite budgets.json with the proposed limits." };
        var command = new Command("propose", "Proposes each budget's limit from history.jsonl by the repository's policy, as a diff of budgets.json.")
        {
            history, budgets, profile, write,
        };
        command.SetAction(parseResult => CommandAction.Run(() =>
            Propose(parseResult.GetValue(history)!, parseResult.GetValue(budgets)!, parseResult.GetValue(profile)!, parseResult.GetValue(write))));
        return command;
    }

    private static int Propose(string historyPath, string budgetsPath, string profile, bool write)
    {
        foreach (var (option, path) in new[] { ("--budgets", budgetsPath), ("--history", historyPath) })
        {
            if (!File.Exists(path))
            {
                throw new ToolInputException(option == "--history"
                    ? $"No history at '{Path.GetFullPath(path)}': every run of the budget suites appends to it (dotnet test); run them first, or point --history at one."
                    : $"--budgets '{Path.GetFullPath(path)}' does not exist.");
            }
        }

        var text = File.ReadAllText(budgetsPath);
        var book = BudgetBook.Parse(text, budgetsPath, profile);
        var entries = ResultStore.ReadHistory(historyPath, out var unreadable);
        var proposals = HistoryProposals.From(book, entries);
        if (unreadable > 0)
        {
            Console.WriteLine($"{unreadable} lines of {historyPath} could not be read and are left out.");
        }

        if (proposals.Count == 0)
        {
            Console.WriteLine($"{historyPath} has no measured run of any budget of {budgetsPath} in profile {profile} ({entries.Count} lines; info, not-measured and NaN figures are skipped): nothing to propose.");
            return 0;
        }

        var file = BudgetsFile.Parse(text);
        Console.Write(ProposalListing.Render(proposals, file, budgetsPath, historyPath, profile));
        var withoutRuns = book.Budgets.Count - proposals.Count;
        if (withoutRuns > 0)
        {
            Console.WriteLine($"{withoutRuns} budgets have no measured run in the history and are left as they are.");
        }

        if (!write)
        {
            return 0;
        }

        var changed = file.Apply(proposals, profile);
        var rewritten = file.ToText();
        // The budget book must still load (a counted limit must be its recorded count plus margin) before it is written.
        BudgetBook.Parse(rewritten, budgetsPath, profile);
        File.WriteAllText(budgetsPath, rewritten);
        Console.WriteLine($"Wrote {changed} proposed limits to {budgetsPath}.");
        return 0;
    }
}
