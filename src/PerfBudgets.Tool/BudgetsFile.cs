using System.Text.Encodings.Web;
using System.Text.Json.Nodes;
using System.Text.Json;
using PerfBudgets.Budgets;
using PerfBudgets.Tool.Proposals;

namespace PerfBudgets.Tool;

/// <summary>
/// The text of a <c>budgets.json</c> as a tree that proposals and re-recordings are written into, field by field;
/// everything else in it is left as it was. The one writer of the file (<c>perfbudgets propose</c> and
/// <c>perfbudgets record</c> both write through it).
/// </summary>
/// <remarks>
/// Written back with a two-space indent, non-ASCII text unescaped and a final newline, the file round-trips
/// unchanged, so the diff of a rewrite holds only the changed numbers.
/// </remarks>
internal sealed class BudgetsFile
{
    private static readonly JsonSerializerOptions WriteOptions = new() { WriteIndented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    private readonly JsonObject _root;

    private BudgetsFile(JsonObject root) => _root = root;

    /// <summary>Reads the <c>budgets.json</c> at <paramref name="path"/>.</summary>
    public static BudgetsFile Read(string path) => Parse(File.ReadAllText(path));

    /// <summary>Parses the text of a <c>budgets.json</c>.</summary>
    public static BudgetsFile Parse(string json) =>
        new(JsonNode.Parse(json, documentOptions: new JsonDocumentOptions { CommentHandling = JsonCommentHandling.Skip })?.AsObject()
            ?? throw new JsonException("budgets.json holds null"));

    /// <summary>
    /// The field that holds <paramref name="budget"/>'s limit in <paramref name="profile"/>: <c>local</c> inside its
    /// <c>profiles</c> object when it overrides the limit for that profile, else <c>limit</c>.
    /// </summary>
    public string LimitField(string budget, string profile) =>
        Budget(budget)["profiles"] is JsonObject overrides && overrides.ContainsKey(profile) ? profile : "limit";

    /// <summary>Writes every proposal that changes something into the tree; returns how many budgets changed.</summary>
    public int Apply(IEnumerable<LimitProposal> proposals, string profile)
    {
        ArgumentNullException.ThrowIfNull(proposals);
        var changed = 0;
        foreach (var proposal in proposals.Where(p => p.IsChange))
        {
            var budget = Budget(proposal.Budget);
            var limit = JsonValue.Create(proposal.ProposedLimit!.Value);
            if (LimitField(proposal.Budget, profile) == "limit")
            {
                budget["limit"] = limit;
            }
            else
            {
                budget["profiles"]![profile] = limit;
            }

            if (proposal.ProposedRecorded is { } recorded)
            {
                budget["recorded"] = recorded;
            }

            changed++;
        }

        return changed;
    }

    /// <summary>The budgets' objects, in the file's order, to be rewritten in place.</summary>
    public IEnumerable<JsonObject> Budgets =>
        _root["budgets"]?.AsArray().OfType<JsonObject>() ?? throw new BudgetFileException("budgets.json has no 'budgets' array.");

    /// <summary>The parameter named <paramref name="name"/> (its object in <c>parameters</c>), or null when the file has none.</summary>
    public JsonObject? Parameter(string name) =>
        _root["parameters"]?.AsArray().OfType<JsonObject>().FirstOrDefault(p => p["name"]?.GetValue<string>() == name);

    /// <summary>The file's text.</summary>
    public string ToText() => _root.ToJsonString(WriteOptions) + "\n";

    /// <summary>Writes the file's text to <paramref name="path"/>.</summary>
    public void Write(string path) => File.WriteAllText(path, ToText());

    /// <summary>A number as this file writes it: <c>6804</c>, <c>9417.24</c>.</summary>
    public static string Number(double value) => JsonValue.Create(value).ToJsonString(WriteOptions);

    private JsonObject Budget(string name) =>
        _root["budgets"]?.AsArray().OfType<JsonObject>().FirstOrDefault(b => b["name"]?.GetValue<string>() == name)
            ?? throw new BudgetFileException($"budgets.json defines no budget named '{name}'.");
}
