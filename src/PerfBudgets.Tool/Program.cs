using System.CommandLine;

namespace PerfBudgets.Tool;

/// <summary>The <c>perfbudgets</c> command: one subcommand per file (<c>*Command.cs</c>).</summary>
internal static class Program
{
    private static Task<int> Main(string[] args)
    {
        var root = new RootCommand("perfbudgets: the report, comparisons, load runs and limits of PerfBudgets runs.")
        {
            ReportCommand.Create(),
            CompareCommand.Create(),
            LoadCommand.Create(),
            LocustCommand.Create(),
            RecordCommand.Create(),
            CalibrateCommand.Create(),
            ProposeCommand.Create(),
            BaselineRunCommand.Create(),
            UploadCommand.Create(),
            BaselineCommand.Create(),
            ChangesCommand.Create(),
            SummaryCommand.Create(),
            RuntimesCommand.Create(),
            CountsCommand.Create(),
        };
        return root.Parse(args).InvokeAsync();
    }
}
