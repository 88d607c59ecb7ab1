namespace PerfBudgets.Server.Cli;

/// <summary>The <c>perfbudgets-server</c> command: the results server (<see cref="ServeCommand"/>).</summary>
internal static class Program
{
    private static Task<int> Main(string[] args) => ServeCommand.Create().Parse(args).InvokeAsync();
}
