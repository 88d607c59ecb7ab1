using System.Globalization;
using System.Text.Json;
using System.Text.Json.Serialization;
using PerfBudgets.Load;

namespace PerfBudgets.Reporting.Storage;

/// <summary>
/// Writes a <see cref="LoadResult"/> as one entry of the <c>loads</c> array of <c>results.json</c>, and reads it back.
/// </summary>
/// <remarks>
/// The file keeps the names it has always had, so that a reader of an older version reads a newer file: <c>ok</c> is
/// <see cref="LoadResult.Completed"/>, <c>achievedRate</c> is <see cref="LoadResult.RequestsPerSecond"/>,
/// <c>rpsPerSecond</c> the per-second buckets, <c>latencyMs</c> an object of <c>p50</c> … <c>max</c>, and the status
/// codes are keyed by their text. <c>copies</c> and <c>scheduled</c> are new; an older reader ignores them, and an
/// entry written without them reads them as 0. Reading is tolerant: names in any case, numbers as text, a field
/// missing reads as 0 (a missing latency as NaN, a missing model as empty), and only an entry without a scenario name
/// or with a field of the wrong type is refused (<see cref="JsonException"/>). The rate is recomputed from the buckets:
/// an entry without them reads a rate of 0.
/// </remarks>
internal sealed class LoadResultJson : JsonConverter<LoadResult>
{
    private static readonly JsonSerializerOptions MachineOptions = new()
    {
        PropertyNameCaseInsensitive = true,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
    };

    /// <inheritdoc />
    public override void Write(Utf8JsonWriter writer, LoadResult value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(value);
        writer.WriteStartObject();
        writer.WriteString("scenario", value.Scenario);
        writer.WriteString("model", value.Model);
        writer.WriteString("phases", value.Phases);
        writer.WriteNumber("copies", value.Copies);
        writer.WritePropertyName("targetRate");
        if (value.TargetRate is { } target)
        {
            Number(writer, target);
        }
        else
        {
            writer.WriteNullValue();
        }

        Number(writer, "achievedRate", value.RequestsPerSecond);
        Number(writer, "measuredSeconds", value.MeasuredSeconds);
        writer.WriteNumber("scheduled", value.Scheduled);
        writer.WriteNumber("requests", value.Requests);
        writer.WriteNumber("ok", value.Completed);
        writer.WriteNumber("failed", value.Failed);
        writer.WriteNumber("notSent", value.NotSent);
        writer.WriteNumber("abandoned", value.Abandoned);
        writer.WriteStartObject("latencyMs");
        Number(writer, "p50", value.P50Ms);
        Number(writer, "p75", value.P75Ms);
        Number(writer, "p90", value.P90Ms);
        Number(writer, "p95", value.P95Ms);
        Number(writer, "p99", value.P99Ms);
        Number(writer, "max", value.MaxMs);
        writer.WriteEndObject();
        Number(writer, "scheduleLagP99Ms", value.ScheduleLagP99Ms);
        writer.WriteNumber("peakInFlight", value.PeakInFlight);
        writer.WriteStartArray("rpsPerSecond");
        foreach (var bucket in value.RequestsPerSecondBuckets)
        {
            Number(writer, bucket);
        }

        writer.WriteEndArray();
        writer.WriteStartObject("statusCodes");
        foreach (var (code, count) in value.StatusCodes.OrderBy(c => c.Key))
        {
            writer.WriteNumber(code.ToString(CultureInfo.InvariantCulture), count);
        }

        writer.WriteEndObject();
        writer.WriteNumber("bytesSent", value.BytesSent);
        writer.WriteNumber("bytesReceived", value.BytesReceived);
        writer.WriteStartObject("errors");
        foreach (var (error, count) in value.Errors)
        {
            writer.WriteNumber(error, count);
        }

        writer.WriteEndObject();
        writer.WritePropertyName("timestampUtc");
        JsonSerializer.Serialize(writer, value.TimestampUtc, options);
        writer.WritePropertyName("machine");
        JsonSerializer.Serialize(writer, value.Machine, MachineOptions);
        writer.WriteEndObject();
    }

    /// <inheritdoc />
    public override LoadResult Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        using var document = JsonDocument.ParseValue(ref reader);
        return Read(document.RootElement);
    }

    /// <summary>Reads one entry of <c>loads</c>; throws <see cref="JsonException"/> for an entry that is not one.</summary>
    public static LoadResult Read(JsonElement entry)
    {
        if (entry.ValueKind != JsonValueKind.Object)
        {
            throw new JsonException($"a load entry is an object, not {entry.ValueKind}");
        }

        var fields = new Dictionary<string, JsonElement>(StringComparer.OrdinalIgnoreCase);
        foreach (var property in entry.EnumerateObject())
        {
            fields[property.Name] = property.Value;
        }

        var scenario = Text(fields, "scenario");
        if (string.IsNullOrEmpty(scenario))
        {
            throw new JsonException("a load entry without a scenario name");
        }

        var latency = fields.TryGetValue("latencyMs", out var l) && l.ValueKind == JsonValueKind.Object
            ? l.EnumerateObject().ToDictionary(p => p.Name, p => p.Value, StringComparer.OrdinalIgnoreCase)
            : [];
        return new LoadResult
        {
            Scenario = scenario,
            Model = Text(fields, "model") ?? string.Empty,
            Phases = Text(fields, "phases") ?? string.Empty,
            Copies = (int)Whole(fields, "copies"),
            TargetRate = fields.TryGetValue("targetRate", out var t) && t.ValueKind != JsonValueKind.Null ? Number(t) : null,
            MeasuredSeconds = Number(fields, "measuredSeconds", 0),
            Scheduled = Whole(fields, "scheduled"),
            Requests = Whole(fields, "requests"),
            Completed = Whole(fields, "ok"),
            Failed = Whole(fields, "failed"),
            NotSent = Whole(fields, "notSent"),
            Abandoned = Whole(fields, "abandoned"),
            P50Ms = Number(latency, "p50", double.NaN),
            P75Ms = Number(latency, "p75", double.NaN),
            P90Ms = Number(latency, "p90", double.NaN),
            P95Ms = Number(latency, "p95", double.NaN),
            P99Ms = Number(latency, "p99", double.NaN),
            MaxMs = Number(latency, "max", double.NaN),
            ScheduleLagP99Ms = Number(fields, "scheduleLagP99Ms", 0),
            PeakInFlight = (int)Whole(fields, "peakInFlight"),
            RequestsPerSecondBuckets = Present(fields, "rpsPerSecond") is { ValueKind: JsonValueKind.Array } buckets
                ? buckets.EnumerateArray().Select(Number).ToArray()
                : [],
            StatusCodes = Present(fields, "statusCodes") is { ValueKind: JsonValueKind.Object } codes
                ? codes.EnumerateObject().ToDictionary(c => int.TryParse(c.Name, NumberStyles.Integer, CultureInfo.InvariantCulture, out var code) ? code : throw new JsonException($"status code '{c.Name}' is not a number"), c => (long)Number(c.Value))
                : new Dictionary<int, long>(),
            BytesSent = Whole(fields, "bytesSent"),
            BytesReceived = Whole(fields, "bytesReceived"),
            Errors = Present(fields, "errors") is { ValueKind: JsonValueKind.Object } errors
                ? errors.EnumerateObject().ToDictionary(e => e.Name, e => (long)Number(e.Value), StringComparer.Ordinal)
                : new Dictionary<string, long>(StringComparer.Ordinal),
            TimestampUtc = Present(fields, "timestampUtc") is { } stamp ? stamp.Deserialize<DateTimeOffset>() : null,
            Machine = Present(fields, "machine") is { } machine ? machine.Deserialize<MachineInfo>(MachineOptions) : null,
        };
    }

    private static JsonElement? Present(Dictionary<string, JsonElement> fields, string name) =>
        fields.TryGetValue(name, out var value) && value.ValueKind != JsonValueKind.Null ? value : null;

    private static string? Text(Dictionary<string, JsonElement> fields, string name) =>
        Present(fields, name) is { } value
            ? value.ValueKind == JsonValueKind.String ? value.GetString() : throw new JsonException($"'{name}' is not text")
            : null;

    private static long Whole(Dictionary<string, JsonElement> fields, string name) =>
        Present(fields, name) is { } value ? (long)Number(value) : 0;

    private static double Number(Dictionary<string, JsonElement> fields, string name, double missing) =>
        Present(fields, name) is { } value ? Number(value) : missing;

    // As the file has always been read: a number, or a number written as text ("NaN" included).
    private static double Number(JsonElement value) => value.ValueKind switch
    {
        JsonValueKind.Number => value.GetDouble(),
        JsonValueKind.String when double.TryParse(value.GetString(), NumberStyles.Float, CultureInfo.InvariantCulture, out var parsed) => parsed,
        _ => throw new JsonException($"'{value}' is not a number"),
    };

    // NaN and the infinities as the store writes them elsewhere (named literals).
    private static void Number(Utf8JsonWriter writer, double value)
    {
        if (double.IsFinite(value))
        {
            writer.WriteNumberValue(value);
        }
        else
        {
            writer.WriteStringValue(value.ToString(CultureInfo.InvariantCulture));
        }
    }

    private static void Number(Utf8JsonWriter writer, string name, double value)
    {
        writer.WritePropertyName(name);
        Number(writer, value);
    }
}
