using System.CommandLine;
using System.Text;
using PerfBudgets.Tool.ResultsClient;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets baseline --server URL --project P --commit SHA --out FILE</c>: writes what the server holds for that
/// commit as a results.json for <c>PERF_BASELINE</c>, so a pull request compares with its merge base without running
/// it again. A miss exits 1 naming the nearest ancestor the server has a run of.
/// </summary>
internal static class BaselineCommand
{
    public static Command Create()
    {
        var server = UploadCommand.ServerOption();
        var project = new Option<string>("--project") { Description = "The project on the server.", Required = true };
        var commit = new Option<string>("--commit") { Description = "The commit whose run is wanted, e.g. $(git merge-base HEAD main).", Required = true };
        var parents = new Option<string>("--parents") { Description = "The commit's parents, comma-separated, to find its nearest ancestor on a miss.", DefaultValueFactory = _ => "" };
        var tokenFile = new Option<string?>("--token-file") { Description = "A file holding the project's token, for a server started with --read-token-required." };
        var output = new Option<string>("--out") { Description = "Where to write the results.json.", Required = true };
        var command = new Command("baseline", "Fetches the results.json a results server holds for a commit.") { server, project, commit, parents, tokenFile, output };
        command.SetAction((parseResult, cancellationToken) => CommandAction.RunAsync(async () =>
        {
            using var client = new ResultsServerClient(UploadCommand.ServerUri(parseResult.GetValue(server)!));
            var token = parseResult.GetValue(tokenFile) is { } file ? (await File.ReadAllTextAsync(file, cancellationToken)).Trim() : null;
            var results = await client.BaselineAsync(parseResult.GetValue(project)!, parseResult.GetValue(commit)!,
                UploadCommand.SplitCommits(parseResult.GetValue(parents)), cancellationToken, token);
            var path = Path.GetFullPath(parseResult.GetValue(output)!);
            Directory.CreateDirectory(Path.GetDirectoryName(path)!);
            await File.WriteAllTextAsync(path, results, new UTF8Encoding(false), cancellationToken);
            Console.Error.WriteLine($"perfbudgets baseline: wrote {path}");
            return 0;
        }));
        return command;
    }
}
