using System.Text.Json;
using Microsoft.AspNetCore.Http;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;

namespace PerfBudgets.Server.Upload;

/// <summary>
/// Reads an upload's body, <c>{"commit", "branch", "parents", "runtime", "valgrindVersion", "machine", "results"}</c>
/// where <c>results</c> is the run's <c>results.json</c>, with an optional <c>ancestry</c>
/// (<c>[{"commit", "parents"}]</c>), and refuses anything else with a 400 naming the field.
/// </summary>
/// <remarks>
/// Checked field by field rather than bound to a type, so a wrong type or a missing field says which one; the
/// <c>results</c> document is also read by the core's own reader, so whatever is stored can be served back as a
/// <c>PERF_BASELINE</c>. The counts are bounded by <see cref="ResultsServerOptions"/> before any list is read: more
/// figures or ancestry entries than the server takes is 413 (the upload is too large), more parents of one commit than
/// it takes is 400 (no commit git makes).
/// </remarks>
internal static class UploadParser
{
    private static readonly HashSet<string> Verdicts =
        Enum.GetNames<BudgetVerdict>().Select(JsonNamingPolicy.KebabCaseLower.ConvertName).ToHashSet(StringComparer.Ordinal);

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

            var results = Required(root, "results", JsonValueKind.Object);
            var figures = Results(results, limits.MaxResultsPerUpload);
            if (figures.Count == 0)
            {
                // PERF_BASELINE refuses an empty results.json (an interrupted run); so does the server, up front.
                throw Bad("'results.results' holds no results; was the run interrupted?");
            }

            var resultsJson = results.GetRawText();
            try
            {
                ResultStore.Parse(resultsJson);
            }
            catch (Exception e) when (e is JsonException or NotSupportedException or InvalidOperationException)
            {
                throw Bad($"'results' is not a results.json: {e.Message}", e);
            }

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

    private static List<UploadedResult> Results(JsonElement results, int maxResults)
    {
        var list = new List<UploadedResult>();
        var names = new HashSet<string>(StringComparer.Ordinal);
        var index = 0;
        var items = Required(results, "results", JsonValueKind.Array);
        if (items.GetArrayLength() > maxResults)
        {
            throw TooMany($"'results.results' holds {items.GetArrayLength()} figures; this server takes at most {maxResults} per upload (MaxResultsPerUpload).");
        }

        foreach (var item in items.EnumerateArray())
        {
            var at = $"results[{index++}]";
            if (item.ValueKind != JsonValueKind.Object)
            {
                throw Bad($"'{at}' must be an object.");
            }

            var budget = RequiredText(item, "budget", at);
            if (!names.Add(budget))
            {
                throw Bad($"'{at}': budget '{budget}' appears twice.");
            }

            var verdict = RequiredText(item, "verdict", at);
            if (!Verdicts.Contains(verdict))
            {
                throw Bad($"'{at}.verdict' is '{verdict}'; expected one of {string.Join(", ", Verdicts)}.");
            }

            double? limit = item.TryGetProperty("limit", out var l) && l.ValueKind != JsonValueKind.Null
                ? Number(l, $"{at}.limit")
                : null;
            list.Add(new UploadedResult(
                budget,
                RequiredText(item, "kind", at),
                Measured(item, at),
                limit,
                RequiredText(item, "unit", at),
                verdict,
                OptionalNoise(item, "noise", at),
                OptionalNoise(item, "noiseAbsolute", at),
                MeasuredUtc(item)));
        }

        return list;
    }

    // The budget's noise threshold the gate records with each figure (results.json files written before it have none).
    private static double? OptionalNoise(JsonElement item, string name, string at)
    {
        if (!item.TryGetProperty(name, out var value) || value.ValueKind == JsonValueKind.Null)
        {
            return null;
        }

        return value.ValueKind == JsonValueKind.Number && value.TryGetDouble(out var noise) && noise >= 0 && double.IsFinite(noise)
            ? noise
            : throw Bad($"'{at}.{name}' must be a number at least 0.");
    }

    // When the figure was measured; the core's reader has already accepted the entry, so a time it cannot read is absent.
    private static DateTimeOffset? MeasuredUtc(JsonElement item) =>
        item.TryGetProperty("timestampUtc", out var value) && value.ValueKind == JsonValueKind.String
        && DateTimeOffset.TryParse(String(value, "timestampUtc"), System.Globalization.CultureInfo.InvariantCulture, System.Globalization.DateTimeStyles.RoundtripKind, out var time)
            ? time
            : null;

    // The figure; absent or null is a budget the gate could not measure, stored as not measured (as NaN is).
    private static double Measured(JsonElement item, string at) =>
        item.TryGetProperty("measured", out var value) && value.ValueKind != JsonValueKind.Null ? Number(value, $"{at}.measured") : double.NaN;

    private static double Number(JsonElement element, string field)
    {
        // results.json writes NaN and infinities as strings (AllowNamedFloatingPointLiterals). A number past double's
        // range (1e999) is no figure the gate writes: GetDouble would throw FormatException for it, a 500.
        if (element.ValueKind == JsonValueKind.Number)
        {
            return element.TryGetDouble(out var number) ? number : throw Bad($"'{field}' is out of a double's range.");
        }

        return element.ValueKind == JsonValueKind.String && String(element, field) is "NaN" or "Infinity" or "-Infinity"
            ? double.Parse(String(element, field), System.Globalization.CultureInfo.InvariantCulture)
            : throw Bad($"'{field}' must be a number.");
    }

    private static JsonElement Required(JsonElement parent, string name, string at) =>
        parent.TryGetProperty(name, out var value) && value.ValueKind != JsonValueKind.Null
            ? value
            : throw Bad($"'{Field(at, name)}' is missing.");

    private static JsonElement Required(JsonElement parent, string name, JsonValueKind kind, string at = "")
    {
        var value = Required(parent, name, at);
        return value.ValueKind == kind
            ? value
            : throw Bad($"'{Field(at, name)}' must be {(kind == JsonValueKind.Array ? "an array" : "an object")}.");
    }

    private static string RequiredText(JsonElement parent, string name, string at = "")
    {
        var value = Required(parent, name, at);
        return value.ValueKind == JsonValueKind.String && String(value, Field(at, name)) is { } text && !string.IsNullOrWhiteSpace(text)
            ? InputText.Check(text, Field(at, name), MaxLength(name))
            : throw Bad($"'{Field(at, name)}' must be a non-empty string.");
    }

    private static string? OptionalText(JsonElement parent, string name) =>
        !parent.TryGetProperty(name, out var value) || value.ValueKind == JsonValueKind.Null
            ? null
            : value.ValueKind == JsonValueKind.String
                ? InputText.Check(String(value, name), name, MaxLength(name))
                : throw Bad($"'{name}' must be a string or null.");

    // A JSON string as text. An escaped lone surrogate ("\ud800") is valid JSON that no .NET string reader takes:
    // GetString throws InvalidOperationException for it, which answered 500.
    private static string String(JsonElement value, string field)
    {
        try
        {
            return value.GetString()!;
        }
        catch (InvalidOperationException e)
        {
            throw Bad($"'{field}' holds a lone UTF-16 surrogate, which no UTF-8 text can.", e);
        }
    }

    private static int MaxLength(string name) => name switch
    {
        "commit" => InputText.MaxCommitLength,
        "branch" => InputText.MaxBranchLength,
        "budget" => InputText.MaxBudgetLength,
        _ => InputText.MaxLabelLength,
    };

    private static string Field(string at, string name) => at.Length == 0 ? name : $"{at}.{name}";

    private static ServerInputException TooMany(string message) => new(StatusCodes.Status413PayloadTooLarge, message);

    private static ServerInputException Bad(string message, Exception? inner = null) =>
        inner is null ? new(StatusCodes.Status400BadRequest, message) : new(StatusCodes.Status400BadRequest, message, inner);
}
