using System.CommandLine;
using System.Runtime.InteropServices;
using PerfBudgets.Tool.ResultsClient;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets upload --server URL --project P --token-file F --commit C [--branch B] [--parents P1,P2] [--ancestry N] ...</c>:
/// sends a run's <c>results.json</c> (by default <c>artifacts/budgets/results.json</c>) to the results server. The
/// token is read from a file so that it never appears in a process listing or a CI log.
/// </summary>
internal static class UploadCommand
{
    public static Command Create()
    {
        var server = ServerOption();
        var project = new Option<string>("--project") { Description = "The project on the server.", Required = true };
        var tokenFile = new Option<string>("--token-file") { Description = "A file holding the project's write token.", Required = true };
        var commit = new Option<string>("--commit") { Description = "The commit the run measured.", Required = true };
        var branch = new Option<string>("--branch") { Description = "The branch it ran on.", DefaultValueFactory = _ => "main" };
        var parents = new Option<string>("--parents") { Description = "The commit's parents, comma-separated (git rev-parse C^@).", DefaultValueFactory = _ => "" };
        var runtime = new Option<string>("--runtime") { Description = "The .NET runtime of the run.", DefaultValueFactory = _ => RuntimeInformation.FrameworkDescription };
        var valgrind = new Option<string?>("--valgrind-version") { Description = "Valgrind's version, where the counted budgets ran." };
        var machine = new Option<string>("--machine") { Description = "The machine or runner the run measured on.", DefaultValueFactory = _ => Environment.MachineName };
        var ancestry = new Option<int>("--ancestry") { Description = "Also send the parents of this many commits back from --commit (git rev-list --parents, run here), so the server can find the nearest ancestor of a commit never run.", DefaultValueFactory = _ => 0 };
        var idempotencyKey = new Option<string?>("--idempotency-key") { Description = "The upload's key: the server stores one run per key, so a CI job run again (say, its job id) does not upload twice. Default: a new GUID, reused by the upload's own retries." };
        var results = new Option<string>("--results") { Description = "The run's results.json.", DefaultValueFactory = _ => Path.Combine("artifacts", "budgets", "results.json") };
        var command = new Command("upload", "Uploads a run's results.json to a results server.")
        {
            server, project, tokenFile, commit, branch, parents, runtime, valgrind, machine, ancestry, idempotencyKey, results,
        };
        command.SetAction((parseResult, cancellationToken) => CommandAction.RunAsync(async () =>
        {
            var resultsPath = Path.GetFullPath(parseResult.GetValue(results)!);
            if (!File.Exists(resultsPath))
            {
                throw new ToolInputException($"--results '{resultsPath}' does not exist; run the gate first.");
            }

            var token = (await File.ReadAllTextAsync(parseResult.GetValue(tokenFile)!, cancellationToken)).Trim();
            var run = new RunDescription(
                parseResult.GetValue(commit)!,
                parseResult.GetValue(branch)!,
                SplitCommits(parseResult.GetValue(parents)),
                parseResult.GetValue(runtime)!,
                parseResult.GetValue(valgrind),
                parseResult.GetValue(machine)!)
            {
                Ancestry = GitAncestry.Read(parseResult.GetValue(commit)!, parseResult.GetValue(ancestry), Environment.CurrentDirectory),
                IdempotencyKey = parseResult.GetValue(idempotencyKey),
            };
            using var client = new ResultsServerClient(ServerUri(parseResult.GetValue(server)!));
            Console.WriteLine(await client.UploadAsync(parseResult.GetValue(project)!, token, run,
                await File.ReadAllTextAsync(resultsPath, cancellationToken), cancellationToken));
            return 0;
        }));
        return command;
    }

    /// <summary>The <c>--server URL</c> option the server's client commands share.</summary>
    internal static Option<string> ServerOption() =>
        new("--server") { Description = "The results server's address, e.g. http://127.0.0.1:5080.", Required = true };

    internal static Uri ServerUri(string url) =>
        Uri.TryCreate(url.EndsWith('/') ? url : url + "/", UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https"
            ? uri
            : throw new ToolInputException($"--server '{url}' is not an http(s) URL.");

    internal static string[] SplitCommits(string? list) =>
        (list ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);
}
