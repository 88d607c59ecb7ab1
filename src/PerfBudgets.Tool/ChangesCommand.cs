using System.CommandLine;
using System.Globalization;
using System.Text;
using PerfBudgets.Reporting;
using PerfBudgets.Tool.ResultsClient;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets changes --server URL --project P [--branch main] [--last N] [--min-runs 5] [--min-shift 0.1]</c>: the change points the results server
/// finds in the timed budgets' series, one line each (budget, commit, median before → after, shift). Exits 0 whatever
/// it lists.
/// </summary>
internal static class ChangesCommand
{
    public static Command Create()
    {
        var server = UploadCommand.ServerOption();
        var project = new Option<string>("--project") { Description = "The project on the server.", Required = true };
        var tokenFile = new Option<string?>("--token-file") { Description = "A file holding the project's token, for a server started with --read-token-required." };
        var branch = new Option<string>("--branch") { Description = "The branch whose runs form the series.", DefaultValueFactory = _ => "main" };
        var last = new Option<int?>("--last") { Description = "Only change points within this many latest runs of the branch (default: all)." };
        var minRuns = new Option<int?>("--min-runs") { Description = "The fewest runs a level holds on each side of a change (server default 5)." };
        var minShift = new Option<double?>("--min-shift") { Description = "The smallest step reported for every budget, larger median / smaller - 1 (server default: each budget's noise threshold, else its kind's default)." };
        var command = new Command("changes", "Lists where the timed budgets' series shifted, from the results server.") { server, project, tokenFile, branch, last, minRuns, minShift };
        command.SetAction((parseResult, cancellationToken) => CommandAction.RunAsync(async () =>
        {
            if (parseResult.GetValue(last) is < 1)
            {
                throw new ToolInputException("--last is at least 1.");
            }

            using var client = new ResultsServerClient(UploadCommand.ServerUri(parseResult.GetValue(server)!));
            var token = parseResult.GetValue(tokenFile) is { } file ? (await File.ReadAllTextAsync(file, cancellationToken)).Trim() : null;
            var changes = await client.ChangesAsync(parseResult.GetValue(project)!, parseResult.GetValue(branch)!, parseResult.GetValue(last), token, cancellationToken,
                parseResult.GetValue(minRuns), parseResult.GetValue(minShift));
            Console.Write(Render(changes, parseResult.GetValue(branch)!));
            return 0;
        }));
        return command;
    }

    /// <summary>The table <c>perfbudgets changes</c> prints, then one line that counts the change points.</summary>
    public static string Render(IReadOnlyList<ReportedChange> changes, string branch)
    {
        ArgumentNullException.ThrowIfNull(changes);
        var text = new StringBuilder();
        if (changes.Count > 0)
        {
            text.AppendLine("| Budget | Commit | Before → after | Unit | Shift | Runs since |").AppendLine("|---|---|---|---|---:|---:|");
            foreach (var c in changes)
            {
                text.AppendLine(CultureInfo.InvariantCulture,
                    $"| {c.Budget} | {c.Commit}{(c.RuntimeChanged ? " (runtime changed)" : "")} | {Figures.Format(c.MedianBefore)} → {Figures.Format(c.MedianAfter)} | {c.Unit} | {Figures.Percent(c.RelativeShift * 100, signed: true)} | {c.RunsAfter} |");
            }
        }

        text.AppendLine(CultureInfo.InvariantCulture, $"{changes.Count} change point{(changes.Count == 1 ? "" : "s")} in the timed budgets of {branch}.");
        return text.ToString();
    }
}
