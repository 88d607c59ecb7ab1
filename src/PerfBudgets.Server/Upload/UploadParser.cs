using System.Text.Json;
using static PerfBudgets.Server.Upload.UploadFields;

namespace PerfBudgets.Server.Upload;

/// <summary>
/// Reads an upload's body, <c>{"commit", "branch", "parents", "runtime", "valgrindVersion", "machine", "results"}</c>
/// where <c>results</c> is the run's <c>results.json</c>, with an optional <c>ancestry</c>
/// (<c>[{"commit", "parents"}]</c>), and refuses anything else with a 400 naming the field.
/// </summary>
/// <remarks>
/// Checked field by field rather than bound to a type, so a wrong type or a missing field says which one; the
/// <c>results</c> document is read by the core's own reader (<see cref="UploadedResultsParser"/>), so whatever is
/// stored can be served back as a <c>PERF_BASELINE</c>. The counts are bounded by <see cref="ResultsServerOptions"/> before any list is read: more
/// figures or ancestry entries than the server takes is 413 (the upload is too large), more parents of one commit than
/// it takes is 400 (no commit git makes).
/// </remarks>
internal static class UploadParser
{
    public static RunUpload Parse(ReadOnlyMemory<byte> body, ResultsServerOptions limits)
    {
        ArgumentNullException.ThrowIfNull(limits);
        JsonDocument document;
        try
        {
            document = JsonDocument.Parse(body);
        }
        catch (JsonException e)
        {
            throw Bad($"The body is not JSON (truncated or malformed): {e.Message}", e);
        }

        using (document)
        {
            var root = document.RootElement;
            if (root.ValueKind != JsonValueKind.Object)
            {
                throw Bad("The body must be a JSON object.");
            }

            CheckPropertyNames(root);

            var results = Required(root, "results", JsonValueKind.Object);
            var rewritten = UploadedResultsParser.NullMeasuredAsNaN(results);
            var resultsJson = rewritten ?? results.GetRawText();
            using var normalised = rewritten is null ? null : JsonDocument.Parse(rewritten);
            var figures = UploadedResultsParser.Parse(normalised?.RootElement ?? results, resultsJson, limits.MaxResultsPerUpload);
            var run = new RunUpload(
                RequiredText(root, "commit"),
                RequiredText(root, "branch"),
                Parents(root, limits.MaxParentsPerCommit),
                RequiredText(root, "runtime"),
                OptionalText(root, "valgrindVersion"),
                RequiredText(root, "machine"),
                resultsJson,
                figures,
                Ancestry(root, limits));
            return AncestryCycle.Find(run.Ancestry.Prepend(new CommitParents(run.Commit, run.Parents))) is { } onCycle
                ? throw Bad($"'ancestry' is not a history git makes: commit {onCycle} is its own ancestor (a cycle through it).")
                : run;
        }
    }

    private static List<CommitParents> Ancestry(JsonElement root, ResultsServerOptions limits)
    {
        var ancestry = new List<CommitParents>();
        if (!root.TryGetProperty("ancestry", out var list) || list.ValueKind == JsonValueKind.Null)
        {
            return ancestry;
        }

        if (list.ValueKind != JsonValueKind.Array)
        {
            throw Bad("'ancestry' must be an array.");
        }

        if (list.GetArrayLength() > limits.MaxAncestryPerUpload)
        {
            throw TooMany($"'ancestry' holds {list.GetArrayLength()} commits; this server takes at most {limits.MaxAncestryPerUpload} per upload (MaxAncestryPerUpload).");
        }

        var index = 0;
        foreach (var item in list.EnumerateArray())
        {
            var at = $"ancestry[{index++}]";
            if (item.ValueKind != JsonValueKind.Object)
            {
                throw Bad($"'{at}' must be an object.");
            }

            ancestry.Add(new CommitParents(RequiredText(item, "commit", at), Parents(item, limits.MaxParentsPerCommit, at)));
        }

        return ancestry;
    }

    private static List<string> Parents(JsonElement parent, int maxParents, string at = "")
    {
        var parents = new List<string>();
        var list = Required(parent, "parents", JsonValueKind.Array, at);
        if (list.GetArrayLength() > maxParents)
        {
            throw Bad($"'{Field(at, "parents")}' names {list.GetArrayLength()} parents; this server takes at most {maxParents} per commit (MaxParentsPerCommit).");
        }

        foreach (var commit in list.EnumerateArray())
        {
            if (commit.ValueKind != JsonValueKind.String || string.IsNullOrWhiteSpace(String(commit, Field(at, "parents"))))
            {
                throw Bad($"'{Field(at, "parents")}' must be an array of commit ids (strings).");
            }

            parents.Add(InputText.Check(String(commit, Field(at, "parents")), Field(at, "parents"), InputText.MaxCommitLength));
        }

        return parents;
    }
}
