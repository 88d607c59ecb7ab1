// BudgetReport [DIR]: reads DIR/results.json and DIR/history.jsonl (DIR defaults to artifacts/budgets under the current
// folder) and writes DIR/report.html. Exit code 1, with the reason, when there is no results.json to report on.
using PerfBudgets.Reporting;

if (args.Length > 1 || args is ["-h" or "--help"])
{
    Console.Error.WriteLine("usage: BudgetReport [DIR]   (default artifacts/budgets): writes DIR/report.html from DIR/results.json and DIR/history.jsonl");
    return 2;
}

var directory = Path.GetFullPath(args.Length == 1 ? args[0] : Path.Combine("artifacts", "budgets"));
try
{
    Console.WriteLine($"Report: {HtmlReport.Write(directory)}");
    return 0;
}
catch (FileNotFoundException e)
{
    Console.Error.WriteLine(e.Message);
    return 1;
}
