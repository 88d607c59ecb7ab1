using System.Text.Json;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using static PerfBudgets.Server.Upload.UploadFields;

namespace PerfBudgets.Server.Upload;

/// <summary>
/// Reads an upload's <c>results</c>, the run's <c>results.json</c>, with the core's own reader (the one
/// <c>PERF_BASELINE</c> uses), so that whatever is stored can be served back as a baseline; the figures stored are the
/// ones it read, checked as the server takes them.
/// </summary>
/// <remarks>
/// A document the core's reader refuses is checked field by field, so that the answer names the wrong field
/// (<c>'results[0].measured' must be a number</c>); only one whose fields all look right is refused as a whole
/// (<c>'results' is not a results.json: …</c>). The core's model cannot tell some absent fields from their defaults
/// (a missing <c>measured</c> reads as 0, a missing <c>verdict</c> as pass, a missing <c>timestampUtc</c> as year 1),
/// so those three are looked up in the document.
/// </remarks>
internal static class UploadedResultsParser
{
    private static readonly HashSet<string> Verdicts =
        Enum.GetNames<BudgetVerdict>().Select(JsonNamingPolicy.KebabCaseLower.ConvertName).ToHashSet(StringComparer.Ordinal);

    /// <summary>The figures of <paramref name="results"/>, whose text is <paramref name="resultsJson"/>.</summary>
    public static List<UploadedResult> Parse(JsonElement results, string resultsJson, int maxResults)
    {
        var items = Required(results, "results", JsonValueKind.Array);
        if (items.GetArrayLength() > maxResults)
        {
            throw TooMany($"'results.results' holds {items.GetArrayLength()} figures; this server takes at most {maxResults} per upload (MaxResultsPerUpload).");
        }

        IReadOnlyList<BudgetResult?> read;
        try
        {
            read = ResultStore.Parse(resultsJson);
        }
        catch (Exception e) when (e is JsonException or NotSupportedException or InvalidOperationException)
        {
            var checkedFigures = FieldByField(items);
            throw checkedFigures.Count == 0 ? NoFigures() : Bad($"'results' is not a results.json: {e.Message}", e);
        }

        // The document's 'results' and the one the core read differ only where the key is given twice, each a list.
        if (read.Count != items.GetArrayLength())
        {
            throw Bad("'results.results' is given twice.");
        }

        var figures = new List<UploadedResult>(read.Count);
        var names = new HashSet<string>(StringComparer.Ordinal);
        var index = 0;
        foreach (var item in items.EnumerateArray())
        {
            var at = $"results[{index}]";
            var result = read[index++] ?? throw Bad($"'{at}' must be an object.");
            var budget = Text(result.Budget, "budget", at);
            if (!names.Add(budget))
            {
                throw Bad($"'{at}': budget '{budget}' appears twice.");
            }

            var verdict = Verdict(item, at);
            figures.Add(new UploadedResult(
                budget,
                Text(result.Kind, "kind", at),
                item.TryGetProperty("measured", out var measured) && measured.ValueKind != JsonValueKind.Null ? result.Measured : double.NaN,
                result.Limit,
                Text(result.Unit, "unit", at),
                verdict,
                Noise(result.Noise, "noise", at),
                Noise(result.NoiseAbsolute, "noiseAbsolute", at),
                item.TryGetProperty("timestampUtc", out var time) && time.ValueKind == JsonValueKind.String ? result.TimestampUtc : null));
        }

        return figures.Count > 0 ? figures : throw NoFigures();
    }

    /// <summary>
    /// The text of <paramref name="results"/> with each <c>"measured": null</c> written as <c>"NaN"</c>, the gate's own
    /// "not measured", or null when no entry has one. The core's reader (which reads the stored text back as a
    /// <c>PERF_BASELINE</c>) refuses a null figure, so it is stored in the gate's spelling: the run is then a baseline
    /// like any other, and the figure not measured, as the docs say.
    /// </summary>
    public static string? NullMeasuredAsNaN(JsonElement results)
    {
        if (!results.TryGetProperty("results", out var items) || items.ValueKind != JsonValueKind.Array
            || !items.EnumerateArray().Any(i => i.ValueKind == JsonValueKind.Object && i.TryGetProperty("measured", out var m) && m.ValueKind == JsonValueKind.Null))
        {
            return null;
        }

        try
        {
            var document = System.Text.Json.Nodes.JsonNode.Parse(results.GetRawText())!;
            foreach (var item in document["results"]!.AsArray())
            {
                if (item is System.Text.Json.Nodes.JsonObject entry && entry.TryGetPropertyValue("measured", out var measured) && measured is null)
                {
                    entry["measured"] = "NaN";
                }
            }

            return document.ToJsonString();
        }
        catch (InvalidOperationException e)
        {
            // A value the writer cannot write again (an escaped lone surrogate): no name or figure a server takes.
            throw Bad("'results' holds a lone UTF-16 surrogate, which no UTF-8 text can.", e);
        }
    }

    // PERF_BASELINE refuses an empty results.json (an interrupted run); so does the server, up front.
    private static ServerInputException NoFigures() => Bad("'results.results' holds no results; was the run interrupted?");

    // The checks of each entry in the document itself, for one the core's reader refused: the first wrong field is the
    // answer. Returns the entries when none is wrong.
    private static List<UploadedResult> FieldByField(JsonElement items)
    {
        var list = new List<UploadedResult>();
        var names = new HashSet<string>(StringComparer.Ordinal);
        var index = 0;
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

            var verdict = Verdict(item, at);
            double? limit = item.TryGetProperty("limit", out var l) && l.ValueKind != JsonValueKind.Null
                ? Number(l, $"{at}.limit")
                : null;
            list.Add(new UploadedResult(
                budget,
                RequiredText(item, "kind", at),
                item.TryGetProperty("measured", out var measured) && measured.ValueKind != JsonValueKind.Null ? Number(measured, $"{at}.measured") : double.NaN,
                limit,
                RequiredText(item, "unit", at),
                verdict,
                Noise(OptionalNumber(item, "noise", at), "noise", at),
                Noise(OptionalNumber(item, "noiseAbsolute", at), "noiseAbsolute", at)));
        }

        return list;
    }

    private static string Verdict(JsonElement item, string at)
    {
        var verdict = RequiredText(item, "verdict", at);
        return Verdicts.Contains(verdict)
            ? verdict
            : throw Bad($"'{at}.verdict' is '{verdict}'; expected one of {string.Join(", ", Verdicts)}.");
    }

    private static double? OptionalNumber(JsonElement item, string name, string at) =>
        !item.TryGetProperty(name, out var value) || value.ValueKind == JsonValueKind.Null
            ? null
            : value.ValueKind == JsonValueKind.Number && value.TryGetDouble(out var number) ? number : double.NaN;

    // The budget's noise threshold the gate records with each figure (results.json files written before it have none).
    private static double? Noise(double? noise, string name, string at) =>
        noise is not { } value || (value >= 0 && double.IsFinite(value))
            ? noise
            : throw Bad($"'{at}.{name}' must be a number at least 0.");
}
