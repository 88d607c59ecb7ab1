using System.Text.Json;
using Microsoft.AspNetCore.Http;

namespace PerfBudgets.Server.Upload;

/// <summary>
/// The checks of one field of an upload's JSON, each refusing a wrong one with a <see cref="ServerInputException"/>
/// naming the field (<c>'results[3].budget' is missing</c>): 400 for a wrong field, 413 for a list past its bound.
/// </summary>
internal static class UploadFields
{
    public static JsonElement Required(JsonElement parent, string name, string at) =>
        parent.TryGetProperty(name, out var value) && value.ValueKind != JsonValueKind.Null
            ? value
            : throw Bad($"'{Field(at, name)}' is missing.");

    public static JsonElement Required(JsonElement parent, string name, JsonValueKind kind, string at = "")
    {
        var value = Required(parent, name, at);
        return value.ValueKind == kind
            ? value
            : throw Bad($"'{Field(at, name)}' must be {(kind == JsonValueKind.Array ? "an array" : "an object")}.");
    }

    public static string RequiredText(JsonElement parent, string name, string at = "")
    {
        var value = Required(parent, name, at);
        return value.ValueKind == JsonValueKind.String
            ? Text(String(value, Field(at, name)), name, at)
            : throw Bad($"'{Field(at, name)}' must be a non-empty string.");
    }

    /// <summary>The text of field <paramref name="name"/> as read, checked as <see cref="RequiredText"/> checks it; null is a missing field.</summary>
    public static string Text(string? text, string name, string at) =>
        text is null
            ? throw Bad($"'{Field(at, name)}' is missing.")
            : !string.IsNullOrWhiteSpace(text)
                ? InputText.Check(text, Field(at, name), MaxLength(name))
                : throw Bad($"'{Field(at, name)}' must be a non-empty string.");

    public static string? OptionalText(JsonElement parent, string name) =>
        !parent.TryGetProperty(name, out var value) || value.ValueKind == JsonValueKind.Null
            ? null
            : value.ValueKind == JsonValueKind.String
                ? InputText.Check(String(value, name), name, MaxLength(name))
                : throw Bad($"'{name}' must be a string or null.");

    // A JSON string as text. An escaped lone surrogate ("\ud800") is valid JSON that no .NET string reader takes:
    // GetString throws InvalidOperationException for it, which answered 500.
    public static string String(JsonElement value, string field)
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

    /// <summary>
    /// Refuses a property name anywhere in <paramref name="element"/> that a value of the same place would be refused
    /// for (<see cref="InputText"/>): an escaped lone surrogate in a name ("comm\ud800it") made every later look-up or
    /// enumeration of its object throw InvalidOperationException, a 500 with an empty body.
    /// </summary>
    public static void CheckPropertyNames(JsonElement element, string at = "")
    {
        switch (element.ValueKind)
        {
            case JsonValueKind.Object:
                foreach (var property in element.EnumerateObject())
                {
                    string name;
                    try
                    {
                        name = property.Name;
                    }
                    catch (InvalidOperationException e)
                    {
                        throw Bad($"'{(at.Length == 0 ? "the body" : at)}' has a property name that holds a lone UTF-16 surrogate, which no UTF-8 text can.", e);
                    }

                    if (InputText.Problem(name, InputText.MaxLabelLength) is { } problem)
                    {
                        throw Bad($"'{(at.Length == 0 ? "the body" : at)}' has a property name that {problem}.");
                    }

                    CheckPropertyNames(property.Value, Field(at, name));
                }

                break;
            case JsonValueKind.Array:
                var index = 0;
                foreach (var item in element.EnumerateArray())
                {
                    CheckPropertyNames(item, $"{at}[{index++}]");
                }

                break;
        }
    }

    public static double Number(JsonElement element, string field)
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

    public static string Field(string at, string name) => at.Length == 0 ? name : $"{at}.{name}";

    public static ServerInputException TooMany(string message) => new(StatusCodes.Status413PayloadTooLarge, message);

    public static ServerInputException Bad(string message, Exception? inner = null) =>
        inner is null ? new(StatusCodes.Status400BadRequest, message) : new(StatusCodes.Status400BadRequest, message, inner);

    private static int MaxLength(string name) => name switch
    {
        "commit" => InputText.MaxCommitLength,
        "branch" => InputText.MaxBranchLength,
        "budget" => InputText.MaxBudgetLength,
        _ => InputText.MaxLabelLength,
    };
}
