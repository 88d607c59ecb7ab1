using System.CommandLine;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Html;

namespace PerfBudgets.Tool;

/// <summary><c>perfbudgets report [DIR]</c>: writes DIR/report.html from DIR/results.json and DIR/history.jsonl.</summary>
internal static class ReportCommand
{
    public static Command Create()
    {
        var directory = new Argument<string>("DIR")
        {
            Description = "The results folder (default artifacts/budgets).",
            DefaultValueFactory = _ => Path.Combine("artifacts", "budgets"),
        };
        var command = new Command("report", "Writes DIR/report.html from DIR/results.json and DIR/history.jsonl.") { directory };
        command.SetAction(parseResult => CommandAction.Run(() =>
        {
            // HtmlReport throws FileNotFoundException, naming the file, when there is no results.json to report on.
            Console.WriteLine($"Report: {HtmlReport.Write(Path.GetFullPath(parseResult.GetValue(directory)!))}");
            return 0;
        }));
        return command;
    }
}
