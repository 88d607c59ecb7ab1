using System.CommandLine;
using System.Text.Json;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting.Storage;
using PerfGate.Build.Docs;

namespace PerfGate.Build;

/// <summary>This repository's tooling: <c>docs</c> (<see cref="DocsCommand"/>) and <c>crosscheck</c> (<see cref="CrossCheckCommand"/>).</summary>
internal static class Program
{
    private static Task<int> Main(string[] args) =>
        new RootCommand("PerfGate's own tooling: the generated tables of docs/ and the load runner's cross-check against wrk.")
        {
            DocsCommand.Create(),
            CrossCheckCommand.Create(),
        }.Parse(args).InvokeAsync();

    /// <summary>Runs a command's work; bad input is one line on standard error and exit code 1, never a stack trace.</summary>
    public static int Run(Func<int> work)
    {
        ArgumentNullException.ThrowIfNull(work);
        try
        {
            return work();
        }
        catch (Exception e) when (e is BuildInputException or DocTablesException or PerfBudgetsException or JsonException or IOException or UnauthorizedAccessException)
        {
            Console.Error.WriteLine(e.Message.ReplaceLineEndings(" "));
            return 1;
        }
    }
}
