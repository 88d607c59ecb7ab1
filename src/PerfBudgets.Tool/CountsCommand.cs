using System.CommandLine;
using System.Globalization;
using PerfBudgets.Tool.ResultsClient;

namespace PerfBudgets.Tool;

/// <summary>
/// <c>perfbudgets counts push|pull --server URL --project P [--token-file F] [--store DIR]</c>: keeps the gate's store
/// of counted runs on the results server, so that a pull request's gate reuses what main's CI counted. <c>push</c>
/// (main's CI, after the gate, with the write token) sends every entry of the store the server lacks and marks the
/// others used, as a fetch does, so that what main keeps reusing from its own cache stays on the server; <c>pull</c>
/// (before the gate) fetches the server's most recently used entries the store lacks. A fetched entry is reused only
/// where every file its run mapped is byte-identical here; otherwise the gate counts again and says which file differs.
/// </summary>
internal static class CountsCommand
{
    public static Command Create()
    {
        var command = new Command("counts", "Keeps the gate's store of counted runs on a results server: push after main's run, pull before a pull request's.")
        {
            Push(),
            Pull(),
        };
        return command;
    }

    private static Command Push()
    {
        var (server, project, store) = Common();
        var tokenFile = new Option<string>("--token-file") { Description = "A file holding the project's write token.", Required = true };
        var command = new Command("push", "Sends every counted run of the store that the results server does not hold, and marks those it holds used.") { server, project, tokenFile, store };
        command.SetAction((parseResult, cancellationToken) => CommandAction.RunAsync(async () =>
        {
            var folder = Path.GetFullPath(parseResult.GetValue(store)!);
            var token = (await File.ReadAllTextAsync(parseResult.GetValue(tokenFile)!, cancellationToken)).Trim();
            var name = parseResult.GetValue(project)!;
            using var client = new ResultsServerClient(UploadCommand.ServerUri(parseResult.GetValue(server)!));
            var held = (await client.StoredCountsAsync(name, token, cancellationToken)).Select(c => c.Key).ToHashSet(StringComparer.Ordinal);
            var entries = StoredCountArchive.Entries(folder);
            var (sent, bytes) = (0, 0L);
            foreach (var (key, entry) in entries.Where(e => !held.Contains(e.Key)))
            {
                var archive = StoredCountArchive.Pack(entry);
                await client.StoreCountAsync(name, key, archive, token, cancellationToken);
                (sent, bytes) = (sent + 1, bytes + archive.Length);
            }

            // What the server held is marked used: main's CI reuses those from its own cache and never fetches them,
            // and without the mark they would be the first the server lets go.
            var heldHere = entries.Select(e => e.Key).Where(held.Contains).ToList();
            var marked = heldHere.Count == 0 ? 0 : await client.MarkCountsUsedAsync(name, heldHere, token, cancellationToken);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"perfbudgets counts push: sent {sent} of the {entries.Count} counted runs in {folder} ({bytes / 1e6:0.0} MB); the server held the other {entries.Count - sent}, {marked} of them marked used"));
            return 0;
        }));
        return command;
    }

    private static Command Pull()
    {
        var (server, project, store) = Common();
        var tokenFile = new Option<string?>("--token-file") { Description = "A file holding the project's token, for a server started with --read-token-required." };
        var newest = new Option<int>("--newest") { Description = "Fetch at most this many, the most recently used on the server.", DefaultValueFactory = _ => 32 };
        var command = new Command("pull", "Fetches the results server's most recently used counted runs that the store does not hold.") { server, project, tokenFile, store, newest };
        command.SetAction((parseResult, cancellationToken) => CommandAction.RunAsync(async () =>
        {
            var most = parseResult.GetValue(newest) is > 0 and var n ? n : throw new ToolInputException("--newest must be positive.");
            var folder = Path.GetFullPath(parseResult.GetValue(store)!);
            var token = parseResult.GetValue(tokenFile) is { } file ? (await File.ReadAllTextAsync(file, cancellationToken)).Trim() : null;
            var name = parseResult.GetValue(project)!;
            using var client = new ResultsServerClient(UploadCommand.ServerUri(parseResult.GetValue(server)!));
            Directory.CreateDirectory(folder);
            var (fetched, bytes, refused) = (0, 0L, 0);
            List<(string Key, long Bytes)> listed = [];
            string? unreachable = null;
            try
            {
                listed = [.. (await client.StoredCountsAsync(name, token, cancellationToken)).Where(c => StoredCountArchive.IsKey(c.Key)).Take(most)];
                foreach (var (key, _) in listed.Where(c => !Directory.Exists(StoredCountArchive.Folder(folder, c.Key))))
                {
                    var archive = await client.StoredCountAsync(name, key, token, cancellationToken);
                    try
                    {
                        StoredCountArchive.Unpack(archive, key, folder);
                        (fetched, bytes) = (fetched + 1, bytes + archive.Length);
                    }
                    catch (ToolInputException e)
                    {
                        // One entry of another shape is not a reason to count everything: the gate counts that one again.
                        Console.Error.WriteLine($"perfbudgets counts pull: warning: {e.Message}");
                        refused++;
                    }
                }
            }
            catch (ToolInputException e) when (ResultsServerClient.CouldNotReach(e, cancellationToken))
            {
                // The store is a cache: a server that cannot be reached makes the gate count what it lacks, not fail the
                // job. A refusal (a wrong token or project) is a mistake in the job's settings and fails it.
                Console.Error.WriteLine($"perfbudgets counts pull: warning: {e.Message.TrimEnd('.')}; the gate counts what the store lacks.");
                unreachable = "; the server could not be reached";
            }

            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"perfbudgets counts pull: fetched {fetched} counted runs into {folder} ({bytes / 1e6:0.0} MB){unreachable ?? $"; {listed.Count - fetched - refused} of the server's {listed.Count} newest were here already{(refused > 0 ? $", {refused} refused" : "")}"}"));
            return 0;
        }));
        return command;
    }

    private static (Option<string> Server, Option<string> Project, Option<string> Store) Common() =>
    (
        UploadCommand.ServerOption(),
        new Option<string>("--project") { Description = "The project on the server.", Required = true },
        new Option<string>("--store")
        {
            Description = "The gate's store of counted runs: PERF_REUSE_DIR, else artifacts/reuse (beside budgets.json, run from there).",
            DefaultValueFactory = _ => PerfBudgets.Budgets.HarnessEnvironment.ReuseDirectory ?? Path.Combine("artifacts", "reuse"),
        }
    );
}
