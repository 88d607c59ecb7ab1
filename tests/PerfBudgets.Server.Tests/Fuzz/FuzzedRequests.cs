using System.Globalization;
using System.Text;
using System.Text.Json.Nodes;

namespace PerfBudgets.Server.Tests.Fuzz;

/// <summary>
/// Upload bodies and read URLs generated from one <see cref="Random"/> with a fixed seed: a well-formed upload broken in
/// one to four places (hostile text, figures that are not numbers or not finite, fields removed or of another type,
/// commit graphs with cycles, too many parents, duplicates, escaped lone surrogates in values and in property names,
/// truncation, random bytes), and reads naming hostile projects, budgets, commits and query values. The same seed gives
/// the same sequence.
/// </summary>
internal sealed class FuzzedRequests(int seed)
{
    // Stands for an escaped lone surrogate, which the JSON writer would not write: replaced in the body's text. ASCII
    // letters, which the writer leaves as they are (it escapes anything else, and a marker it escaped was never
    // replaced: no body held a lone surrogate).
    private const string LoneSurrogate = "LONESURROGATE";

    private static readonly string[] Texts =
    [
        "", " ", "main", "a1", "gate", "Test.Budget0.BytesPerOp", new string('x', 101), new string('y', 256), new string('z', 5000),
        "nul\0here", $"lone{LoneSurrogate}", "line\nbreak", "tab\there", "\u202Eright-to-left", "emoji 🚀", "'; DROP TABLE runs; --",
        "[link](https://evil.example)", "<img src=x onerror=alert(1)>", "%00", "../../etc/passwd", "ä/ö/ü", "a/b", "\u007F", "\uFFFF",
    ];

    private static readonly JsonNode?[] Figures =
    [
        "NaN", "Infinity", "-Infinity", 1.7e308, -1.7e308, double.Epsilon, 0, -1, 120, "fast", null, true, new JsonObject(), new JsonArray(),
        JsonValue.Create(long.MaxValue), JsonValue.Create(decimal.MaxValue),
    ];

    // Raw percent-encoded values for reads, lone surrogates and NULs among them (a URL cannot carry them otherwise).
    private static readonly string[] QueryValues =
    [
        "main", "a1", "c0", "", "%00", "%ED%A0%80", "%0A", "2147483647", "-1", "0", "1e308", "NaN", "Infinity", "abc", "%FF%FE",
        new string('q', 3000), "%E2%80%AE", "a1,b1,c1", string.Join(',', Enumerable.Range(0, 40).Select(i => $"p{i}")), "Test.Budget0.BytesPerOp",
    ];

    private static readonly string[] Queries = ["branch", "commit", "parents", "minRuns", "minShift", "last", "before", "x"];

    private readonly Random _random = new(seed);

    /// <summary>What the last <see cref="NextUpload"/> or <see cref="NextRead"/> did, for a failure's message.</summary>
    public string Last { get; private set; } = "";

    /// <summary>An upload's body text and whether to send the project's token and a JSON content type.</summary>
    public (string Body, bool WithToken, bool AsJson, string? IdempotencyKey) NextUpload(int index)
    {
        var body = RunningResultsServer.UploadBody($"f{index}", [$"f{index - 1}"], RunningResultsServer.ResultsJson(budgets: 1 + _random.Next(4)));
        var changes = new List<string>();
        for (var i = _random.Next(1, 5); i > 0; i--)
        {
            changes.Add(Break(body));
        }

        var text = body.ToJsonString().Replace(LoneSurrogate, "\\ud800", StringComparison.Ordinal);
        switch (_random.Next(20))
        {
            case 0:
                text = text[.._random.Next(text.Length)];
                changes.Add("truncated");
                break;
            case 1:
                var bytes = new byte[_random.Next(1, 200)];
                _random.NextBytes(bytes);
                text = Encoding.Latin1.GetString(bytes);
                changes.Add("random bytes");
                break;
        }

        var withToken = _random.Next(20) != 0;
        var asJson = _random.Next(30) != 0;
        var key = _random.Next(10) == 0 ? Pick(["k1", "k2", "", " ", "k k", "\"q\"", new string('k', 300)]) : null;
        Last = $"upload {index}: {string.Join("; ", changes)}{(withToken ? "" : "; no token")}{(asJson ? "" : "; not JSON")}{(key is null ? "" : $"; key '{key}'")}";
        return (text, withToken, asJson, key);
    }

    /// <summary>A read's relative URL.</summary>
    public string NextRead()
    {
        var project = _random.Next(8) == 0 ? Escape(Pick(Texts)) : RunningResultsServer.Project;
        var budget = _random.Next(3) == 0 ? Escape(Pick(Texts)) : "Test.Budget0.BytesPerOp";
        var path = Pick([
            $"api/projects/{project}/runs", $"api/projects/{project}/budgets", $"api/projects/{project}/budgets/{budget}/series",
            $"api/projects/{project}/changes", $"projects/{project}", $"projects/{project}/budgets/{budget}", "", "projects",
            $"api/projects/{project}/counts", $"api/projects/{project}/counts/{(_random.Next(2) == 0 ? new string('a', 64) : Escape(Pick(Texts)))}",
        ]);
        var query = string.Join('&', Enumerable.Range(0, _random.Next(4)).Select(_ => $"{Pick(Queries)}={Pick(QueryValues)}"));
        Last = $"GET /{path}?{query}";
        return query.Length == 0 ? path : $"{path}?{query}";
    }

    // One break of a well-formed body, said in words.
    private string Break(JsonObject body)
    {
        // An earlier break may have taken the results away: then the break is of the body's own fields.
        var results = (body["results"] as JsonObject)?["results"] as JsonArray;
        var entry = results is { Count: > 0 } ? results[_random.Next(results.Count)] as JsonObject : null;
        var kind = _random.Next(10);
        if (entry is null && kind is 1 or 2 or 4 or 7 or 9)
        {
            kind = 0;
        }

        switch (kind)
        {
            case 0:
                var field = Pick(["commit", "branch", "runtime", "machine", "valgrindVersion"]);
                body[field] = Pick(Texts);
                return $"{field} text";
            case 1:
                var name = Pick(["budget", "kind", "unit", "verdict", "detail", "profile", "timestampUtc"]);
                entry![name] = Pick(Texts);
                return $"result {name} text";
            case 2:
                var figure = Pick(["measured", "limit", "noise", "noiseAbsolute"]);
                entry![figure] = Figures[_random.Next(Figures.Length)]?.DeepClone();
                return $"result {figure} = {entry[figure]?.ToJsonString() ?? "null"}";
            case 3:
                var removed = Pick(["commit", "branch", "parents", "runtime", "machine", "results"]);
                body.Remove(removed);
                return $"no {removed}";
            case 4:
                entry!.Remove(Pick(["measured", "budget", "kind", "unit", "verdict", "limit", "machine"]));
                return "a result field removed";
            case 5:
                body["parents"] = new JsonArray(Enumerable.Range(0, _random.Next(30)).Select(_ => (JsonNode?)Pick(Texts)).ToArray());
                return "parents";
            case 6:
                body["ancestry"] = Ancestry();
                return "ancestry";
            case 7:
                results!.Add(entry!.DeepClone());
                return "a budget twice";
            case 9:
                // A property name with an escaped lone surrogate, in the body, a result or an ancestry entry.
                var (owner, where) = Pick<(JsonObject, string)>([(body, "body"), (entry!, "result"), (AncestryEntry(body), "ancestry entry")]);
                var key = Pick(owner.Select(p => p.Key).ToList());
                var value = owner[key]?.DeepClone();
                owner.Remove(key);
                owner[key[..(key.Length / 2)] + LoneSurrogate + key[(key.Length / 2)..]] = value;
                return $"lone surrogate in {where} key '{key}'";
            default:
                body[Pick(["commit", "parents", "results", "ancestry", "branch"])] = Figures[_random.Next(Figures.Length)]?.DeepClone();
                return "a field of another type";
        }
    }

    // A commit graph: a chain, a cycle, a dense graph (each commit naming up to 16 of the others), or junk entries.
    private JsonNode Ancestry()
    {
        var commits = _random.Next(1, 1_100);
        var parentsEach = _random.Next(1, 20);
        var dense = _random.Next(2) == 0;
        return new JsonArray(Enumerable.Range(0, commits).Select(i => (JsonNode?)(_random.Next(50) == 0
            ? Figures[_random.Next(Figures.Length)]?.DeepClone()
            : new JsonObject
            {
                ["commit"] = $"g{i}",
                ["parents"] = new JsonArray(Enumerable.Range(1, dense ? parentsEach : 1)
                    .Select(p => (JsonNode?)$"g{(i + p) % (commits + (_random.Next(10) == 0 ? 0 : 1))}").ToArray()),
            })).ToArray());
    }

    // The first ancestry entry of the body, one made when it has none.
    private static JsonObject AncestryEntry(JsonObject body)
    {
        if (body["ancestry"] is JsonArray { Count: > 0 } ancestry && ancestry[0] is JsonObject first)
        {
            return first;
        }

        var entry = new JsonObject { ["commit"] = "g1", ["parents"] = new JsonArray("g0") };
        body["ancestry"] = new JsonArray(entry);
        return entry;
    }

    private T Pick<T>(IReadOnlyList<T> choices) => choices[_random.Next(choices.Count)];

    /// <summary>
    /// <paramref name="text"/> percent-encoded for a URL path or query, the lone surrogate as the bytes a UTF-8 encoder
    /// would give it (ED A0 80), which no valid UTF-8 holds.
    /// </summary>
    public static string Escape(string text) =>
        string.Join("%ED%A0%80", text.Split(LoneSurrogate).Select(part =>
        {
            var escaped = new StringBuilder();
            foreach (var b in Encoding.UTF8.GetBytes(part))
            {
                escaped.Append(char.IsAsciiLetterOrDigit((char)b) || b is (byte)'.' or (byte)'-' or (byte)'_'
                    ? ((char)b).ToString()
                    : string.Create(CultureInfo.InvariantCulture, $"%{b:X2}"));
            }

            return escaped.ToString();
        }));
}
