using System.Text.Json;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tool.Locust;

namespace PerfBudgets.Tool;

/// <summary>
/// Runs a command's work and turns bad input into one line on standard error and exit code 1: the answer to a missing
/// or malformed file is its reason, never a stack trace. Anything else is a bug and is left to propagate.
/// </summary>
internal static class CommandAction
{
    /// <summary>Exit code of a command that failed on its input.</summary>
    public const int BadInput = 1;

    public static int Run(Func<int> work)
    {
        ArgumentNullException.ThrowIfNull(work);
        try
        {
            return work();
        }
        catch (Exception e) when (IsBadInput(e))
        {
            return Report(e);
        }
    }

    public static async Task<int> RunAsync(Func<Task<int>> work)
    {
        ArgumentNullException.ThrowIfNull(work);
        try
        {
            return await work();
        }
        catch (Exception e) when (IsBadInput(e))
        {
            return Report(e);
        }
    }

    // The harness's own exceptions for bad files, and the file system's for files that cannot be read or written.
    private static bool IsBadInput(Exception e) =>
        e is ToolInputException or LocustStatsException or BudgetFileException or BaselineFileException or JsonException or IOException or UnauthorizedAccessException;

    private static int Report(Exception e)
    {
        Console.Error.WriteLine(e.Message.ReplaceLineEndings(" "));
        return BadInput;
    }
}
