using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace SystemUnderTest.Json;

/// <summary>
/// Reads strings like the built-in converter but refuses one longer than a configured number of UTF-8 bytes, so a
/// huge string is a clear <see cref="JsonException"/> before it is ever materialised. Writes exactly as the built-in
/// converter does, so output bytes are unchanged.
/// </summary>
internal sealed class BoundedStringConverter(int maximumBytes) : JsonConverter<string>
{
    public override bool HandleNull => false;

    public override string? Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        if (reader.TokenType != JsonTokenType.String)
        {
            throw new JsonException(string.Create(CultureInfo.InvariantCulture, $"Expected a string but found {reader.TokenType} at byte {reader.TokenStartIndex}."));
        }

        var length = reader.HasValueSequence ? reader.ValueSequence.Length : reader.ValueSpan.Length;
        if (length > maximumBytes)
        {
            throw new JsonException(string.Create(CultureInfo.InvariantCulture, $"A string of {length} bytes at byte {reader.TokenStartIndex} exceeds the limit of {maximumBytes} bytes (JsonPools:MaximumStringBytes)."));
        }

        return reader.GetString();
    }

    public override void Write(Utf8JsonWriter writer, string value, JsonSerializerOptions options) => writer.WriteStringValue(value);
}
