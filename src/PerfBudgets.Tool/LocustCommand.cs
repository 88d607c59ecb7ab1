using System.CommandLine;
using System.Globalization;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Tool.Locust;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets locust PREFIX --scenario NAME [--warmup-prefix P] [--users N] [--phases TEXT] [--budgets FILE]</c>:
/// reads the CSV statistics of a headless Locust run (<see cref="LocustStats"/>), records them in <c>results.json</c>
/// under <c>loads</c> as scenario NAME, and gates the budgets <c>NAME.FailedRequests</c>,
/// <c>NAME.RequestsPerSecond</c> and <c>NAME.P99Ms</c>, printing each. Exit 0 when all are met, 1 when one is broken
/// or the input cannot be read. The Cake target <c>Load.Distributed</c> runs Locust and then this.
/// </summary>
internal static class LocustCommand
{
    public static Command Create()
    {
        var prefix = new Argument<string>("PREFIX") { Description = "The --csv prefix of the measured Locust run (PREFIX_stats.csv, PREFIX_stats_history.csv, PREFIX_failures.csv)." };
        var scenario = new Option<string>("--scenario") { Description = "The scenario's name: its budgets are NAME.FailedRequests, NAME.RequestsPerSecond and NAME.P99Ms.", Required = true };
        var warmUp = new Option<string?>("--warmup-prefix") { Description = "The --csv prefix of the warm-up run before it: its failures count, its figures do not." };
        var users = new Option<int>("--users") { Description = "The Locust users of the measured run (its closed-loop copies).", DefaultValueFactory = _ => 16 };
        var phases = new Option<string?>("--phases") { Description = "How the run was made, for the report (e.g. 'Locust: 2 workers, 16 users, 3 s warm-up run + 10 s')." };
        var budgets = new Option<string?>("--budgets") { Description = "The budgets.json (default: PERF_BUDGETS_FILE, else the nearest above the tool)." };
        var command = new Command("locust", "Gates a Locust run's CSV statistics against the budgets NAME.FailedRequests, NAME.RequestsPerSecond and NAME.P99Ms and records them in results.json.")
        {
            prefix, scenario, warmUp, users, phases, budgets,
        };
        command.SetAction(parseResult => CommandAction.Run(() =>
        {
            var name = parseResult.GetValue(scenario)!;
            var copies = parseResult.GetValue(users);
            if (copies < 1)
            {
                throw new ToolInputException($"--users {copies} is out of range: give 1 or more.");
            }

            var measured = LocustStats.Read(parseResult.GetValue(prefix)!);
            var warm = parseResult.GetValue(warmUp) is { } warmPrefix ? LocustStats.Read(warmPrefix) : null;
            var result = measured.ToLoadResult(name, parseResult.GetValue(phases) ?? $"Locust, {copies} users", copies, warm);
            var options = BudgetGateOptions.FromEnvironment();
            var gate = BudgetGate.Create(parseResult.GetValue(budgets) is { } file ? options with { BudgetsFile = Path.GetFullPath(file) } : options);

            Console.WriteLine(result);
            gate.RecordLoad(result);
            var checks = new[]
            {
                new BudgetCheck($"{name}.FailedRequests", result.Failed, result.Errors.Count == 0 ? result.ToString() : result.ErrorSummary()),
                new BudgetCheck($"{name}.RequestsPerSecond", result.RequestsPerSecond, result.ToString()),
                new BudgetCheck($"{name}.P99Ms", result.P99Ms, result.ToString()),
            };
            try
            {
                gate.CheckAll(checks);
            }
            catch (BudgetExceededException e)
            {
                Print(gate, checks);
                Console.Error.WriteLine(e.Message);
                return 1;
            }

            Print(gate, checks);
            Console.WriteLine($"Recorded in {gate.Store.ResultsPath} (loads: {name}).");
            return 0;
        }));
        return command;
    }

    private static void Print(BudgetGate gate, IEnumerable<BudgetCheck> checks)
    {
        foreach (var check in checks)
        {
            var budget = gate.Book.Get(check.BudgetName);
            var verdict = budget.IsMet(check.Measured) ? "pass" : "FAIL";
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"  {verdict}  {budget.Name}: {Figures.Format(check.Measured)} {budget.Unit} ({(budget.Kind.Direction == BudgetDirection.AtMost ? "≤" : "≥")} {Figures.Format(budget.Limit)})"));
        }
    }
}
