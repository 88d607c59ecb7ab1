using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace PerfBudgets.Server;

/// <summary>
/// A run's <c>results.json</c> as an anonymous reader of a public server is given it: each budget's <c>detail</c> cut
/// to <see cref="ResultsServerOptions.MaxAnonymousDetailLength"/> characters, saying how long it was. A writer may
/// store a detail of megabytes (a 7 MB one was fetched by anyone, as often as they liked); a detail is a reason for a
/// reader, and the figures a baseline is read for are untouched. A holder of one of the project's tokens gets the text
/// as stored.
/// </summary>
internal static class AnonymousDetails
{
    public static string Cut(string resultsJson, int maxLength)
    {
        // No detail is longer than the whole text: most runs are served without being parsed.
        if (resultsJson.Length <= maxLength || !HasLongDetail(resultsJson, maxLength))
        {
            return resultsJson;
        }

        var document = JsonNode.Parse(resultsJson)!;
        foreach (var entry in document["results"]!.AsArray().OfType<JsonObject>())
        {
            if (entry["detail"] is JsonValue value && value.GetValueKind() == JsonValueKind.String)
            {
                string detail;
                try
                {
                    detail = value.GetValue<string>();
                }
                catch (InvalidOperationException)
                {
                    entry["detail"] = "(not shown: it holds text no UTF-8 can)";
                    continue;
                }

                if (detail.Length > maxLength)
                {
                    entry["detail"] = string.Create(CultureInfo.InvariantCulture,
                        $"{detail[..maxLength]}… (cut from {detail.Length:N0} characters; the project's token reads it whole)");
                }
            }
        }

        return document.ToJsonString();
    }

    private static bool HasLongDetail(string resultsJson, int maxLength)
    {
        using var document = JsonDocument.Parse(resultsJson);
        return document.RootElement.TryGetProperty("results", out var results) && results.ValueKind == JsonValueKind.Array
            && results.EnumerateArray().Any(entry => entry.ValueKind == JsonValueKind.Object
                && entry.TryGetProperty("detail", out var detail) && detail.ValueKind == JsonValueKind.String
                && detail.GetRawText().Length > maxLength);
    }
}
