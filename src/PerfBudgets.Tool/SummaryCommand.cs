using System.CommandLine;
using System.Text;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tool.ResultsClient;
using PerfBudgets.Tool.Summary;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets summary --server URL --project P --base COMMIT</c>: this run's results against the base commit's run
/// on the results server, as markdown for a pull request (<see cref="PullRequestSummary"/>). Written to <c>--out</c>,
/// else appended to the file <c>$GITHUB_STEP_SUMMARY</c> names, else printed. A summary is information: it exits 0
/// whatever failed or changed, 1 only on unreadable input or a server that refuses.
/// </summary>
internal static class SummaryCommand
{
    /// <summary>The variable GitHub Actions sets to the file a job's summary is appended to.</summary>
    public const string StepSummaryVariable = "GITHUB_STEP_SUMMARY";

    public static Command Create()
    {
        var server = UploadCommand.ServerOption();
        var project = new Option<string>("--project") { Description = "The project on the server.", Required = true };
        var tokenFile = new Option<string?>("--token-file") { Description = "A file holding the project's token, for a server started with --read-token-required." };
        var baseCommit = new Option<string>("--base") { Description = "The base commit, e.g. $(git merge-base HEAD origin/main).", Required = true };
        var parents = new Option<string>("--parents") { Description = "The base commit's parents, comma-separated, to find its nearest ancestor on a miss.", DefaultValueFactory = _ => "" };
        var results = new Option<string>("--results") { Description = "This run's results.json.", DefaultValueFactory = _ => Path.Combine("artifacts", "budgets", "results.json") };
        var output = new Option<string?>("--out") { Description = $"Where to write the markdown (default: appended to ${StepSummaryVariable} when set, else printed)." };
        var branch = new Option<string>("--branch") { Description = "The branch whose change points are warned about.", DefaultValueFactory = _ => "main" };
        var last = new Option<int>("--last") { Description = "Warn about change points within this many latest runs of --branch.", DefaultValueFactory = _ => 10 };
        var budgets = new Option<string?>("--budgets") { Description = "The budgets.json whose noise thresholds mark a change as worse than noise (none: nothing is)." };
        var top = new Option<int>("--top") { Description = "How many of the largest changes to list.", DefaultValueFactory = _ => 10 };
        var command = new Command("summary", "Writes a pull request's markdown summary: failures, largest changes against the base, counted budgets, recent change points.")
        {
            server, project, tokenFile, baseCommit, parents, results, output, budgets, branch, last, top,
        };
        command.SetAction((parseResult, cancellationToken) => CommandAction.RunAsync(async () =>
        {
            if (parseResult.GetValue(last) < 1 || parseResult.GetValue(top) < 1)
            {
                throw new ToolInputException("--last and --top are at least 1.");
            }

            var head = BaselineResults.Load(parseResult.GetValue(results)!, "results");
            var book = parseResult.GetValue(budgets) is { } budgetsPath ? CompareCommand.LoadBook(budgetsPath) : null;
            var name = parseResult.GetValue(project)!;
            using var client = new ResultsServerClient(UploadCommand.ServerUri(parseResult.GetValue(server)!));
            var token = parseResult.GetValue(tokenFile) is { } file ? (await File.ReadAllTextAsync(file, cancellationToken)).Trim() : null;
            var baseline = await client.BaselineOrNearestAsync(name, parseResult.GetValue(baseCommit)!,
                UploadCommand.SplitCommits(parseResult.GetValue(parents)), token, cancellationToken);
            var baseResults = baseline.ResultsJson is { } json ? PullRequestSummary.ByName(ResultStore.Parse(json)) : null;
            var changes = await client.ChangesAsync(name, parseResult.GetValue(branch)!, parseResult.GetValue(last), token, cancellationToken);
            var markdown = PullRequestSummary.Render(head.Results.Values.ToList(), baseline, baseResults, book, changes,
                parseResult.GetValue(branch)!, parseResult.GetValue(last), parseResult.GetValue(top));
            await WriteAsync(markdown, parseResult.GetValue(output), cancellationToken);
            return 0;
        }));
        return command;
    }

    private static async Task WriteAsync(string markdown, string? output, CancellationToken cancellationToken)
    {
        var encoding = new UTF8Encoding(false);
        if (output is not null)
        {
            var path = Path.GetFullPath(output);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            await File.WriteAllTextAsync(path, markdown, encoding, cancellationToken);
            Console.Error.WriteLine($"perfbudgets summary: wrote {path}");
        }
        else if (Environment.GetEnvironmentVariable(StepSummaryVariable) is { Length: > 0 } stepSummary)
        {
            // Appended: earlier steps of the job may have written their own part of the summary.
            await File.AppendAllTextAsync(stepSummary, markdown + Environment.NewLine, encoding, cancellationToken);
            Console.Error.WriteLine($"perfbudgets summary: appended to ${StepSummaryVariable} ({stepSummary})");
        }
        else
        {
            Console.Write(markdown);
        }
    }
}
