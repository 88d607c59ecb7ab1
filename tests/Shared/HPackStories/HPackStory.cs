using System.Text;
using System.Text.Json;

namespace Shared.HPackStories;

/// <summary>
/// A story of the hpack-test-case corpus (github.com/http2jp/hpack-test-case): the header blocks of one
/// connection, in order, each with its headers and, for encoder outputs, the wire bytes and the
/// SETTINGS_HEADER_TABLE_SIZE acknowledged before it.
/// </summary>
internal sealed class HPackStory
{
    /// <summary>Creates a story from its cases.</summary>
    public HPackStory(IReadOnlyList<HPackStoryCase> cases, string? description = null)
    {
        Cases = cases;
        Description = description;
    }

    /// <summary>The header blocks in order.</summary>
    public IReadOnlyList<HPackStoryCase> Cases { get; }

    /// <summary>The story's description, if it has one.</summary>
    public string? Description { get; }

    /// <summary>Parses a story's JSON.</summary>
    public static HPackStory Parse(ReadOnlySpan<byte> json)
    {
        var reader = new Utf8JsonReader(json);
        using var document = JsonDocument.ParseValue(ref reader);
        var root = document.RootElement;
        var cases = new List<HPackStoryCase>();
        foreach (var element in root.GetProperty("cases").EnumerateArray())
        {
            int? tableSize = element.TryGetProperty("header_table_size", out var size) && size.ValueKind == JsonValueKind.Number ? size.GetInt32() : null;
            var wire = element.TryGetProperty("wire", out var w) ? Convert.FromHexString(w.GetString() ?? "") : null;
            var headers = new List<KeyValuePair<string, string>>();
            foreach (var header in element.GetProperty("headers").EnumerateArray())
            {
                foreach (var property in header.EnumerateObject())
                {
                    headers.Add(new(property.Name, property.Value.GetString() ?? ""));
                }
            }

            cases.Add(new HPackStoryCase(tableSize, wire, headers));
        }

        var description = root.TryGetProperty("description", out var d) ? d.GetString() : null;
        return new HPackStory(cases, description);
    }

    /// <summary>Writes the story in the corpus's JSON format.</summary>
    public byte[] ToJson()
    {
        using var stream = new MemoryStream();
        using (var writer = new Utf8JsonWriter(stream, new JsonWriterOptions { Indented = true }))
        {
            writer.WriteStartObject();
            if (Description != null)
            {
                writer.WriteString("description", Description);
            }

            writer.WriteStartArray("cases");
            for (var i = 0; i < Cases.Count; i++)
            {
                var c = Cases[i];
                writer.WriteStartObject();
                writer.WriteNumber("seqno", i);
                if (c.HeaderTableSize is { } size)
                {
                    writer.WriteNumber("header_table_size", size);
                }

                if (c.Wire != null)
                {
#if NET9_0_OR_GREATER
                    writer.WriteString("wire", Convert.ToHexStringLower(c.Wire));
#else
                    // Convert.ToHexStringLower is new in .NET 9.
                    writer.WriteString("wire", Convert.ToHexString(c.Wire).ToLowerInvariant());
#endif
                }

                writer.WriteStartArray("headers");
                foreach (var (name, value) in c.Headers)
                {
                    writer.WriteStartObject();
                    writer.WriteString(name, value);
                    writer.WriteEndObject();
                }

                writer.WriteEndArray();
                writer.WriteEndObject();
            }

            writer.WriteEndArray();
            writer.WriteEndObject();
        }

        return stream.ToArray();
    }

    /// <summary>The story's header bytes as UTF-8 (names and values in the corpus are text).</summary>
    public static byte[] Utf8(string s) => Encoding.UTF8.GetBytes(s);
}
