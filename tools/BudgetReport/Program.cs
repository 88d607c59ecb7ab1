// BudgetReport [DIR]: reads DIR/results.json and DIR/history.jsonl (DIR defaults to artifacts/budgets under the current
// folder) and writes DIR/report.html. Exit code 1, with the reason, when there is no results.json to report on.
// BudgetReport record BUDGETS_JSON RESULTS_JSON...: re-records the counted budgets (instructions-max, syscalls-max) of
// BUDGETS_JSON at the median of one run's results or more, and prints old → new for each (the Cake target
// Record.Instructions runs it).
// BudgetReport docs [RESULTS_DIR] [DOCS_DIR]: fills the table markers of the markdown files under DOCS_DIR (default
// docs) from RESULTS_DIR/results.json and history.jsonl (default artifacts/budgets); the Cake target Docs runs it.
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Html;
using PerfBudgets.Reporting.Rendering;
using PerfBudgets.Reporting.Storage;

if (args is ["record", var budgets, _, ..])
{
    var results = args[2..];
    var valgrind = Valgrind.Current;
    if (!valgrind.IsAvailable)
    {
        Console.Error.WriteLine($"Cannot record counted budgets: {valgrind.UnavailableReason}");
        return 1;
    }

    try
    {
        foreach (var line in CountedBudgetRecorder.Record(budgets, results, InstructionMeter.RuntimeVersion, valgrind.Version!))
        {
            Console.WriteLine(line);
        }

        return 0;
    }
    catch (Exception e) when (e is BudgetFileException or IOException)
    {
        Console.Error.WriteLine(e.Message);
        return 1;
    }
}

if (args is ["docs", ..] && args.Length <= 3)
{
    var resultsDirectory = Path.GetFullPath(args.Length > 1 ? args[1] : Path.Combine("artifacts", "budgets"));
    var docsDirectory = Path.GetFullPath(args.Length > 2 ? args[2] : "docs");
    try
    {
        var changed = DocTables.UpdateDirectory(resultsDirectory, docsDirectory);
        Console.WriteLine(changed.Count == 0
            ? $"Docs: every table in {docsDirectory} is up to date with {resultsDirectory}"
            : $"Docs: rewrote {string.Join(", ", changed.Select(f => Path.GetRelativePath(docsDirectory, f)))}");
        return 0;
    }
    catch (Exception e) when (e is FileNotFoundException or DocTablesException)
    {
        Console.Error.WriteLine(e.Message);
        return 1;
    }
}

if (args.Length > 1 || args is ["-h" or "--help"])
{
    Console.Error.WriteLine("usage: BudgetReport [DIR]   (default artifacts/budgets): writes DIR/report.html from DIR/results.json and DIR/history.jsonl");
    Console.Error.WriteLine("       BudgetReport record BUDGETS_JSON RESULTS_JSON: re-records the counted budgets from a run's results, printing old → new");
    Console.Error.WriteLine("       BudgetReport docs [RESULTS_DIR] [DOCS_DIR]   (default artifacts/budgets docs): fills the table markers of DOCS_DIR/**/*.md from RESULTS_DIR/results.json and history.jsonl");
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
