using System.Text.Json;
using System.Text.Json.Serialization;
using PerfBudgets.Load;

namespace PerfBudgets.Reporting.Storage;

/// <summary>
/// Writes a <see cref="LoadResult"/> as one entry of the <c>loads</c> array of <c>results.json</c>, and reads it back,
/// through <see cref="Entry"/>: the entry's shape, which System.Text.Json reads and writes.
/// </summary>
/// <remarks>
/// The file keeps the names it has always had, so that a reader of an older version reads a newer file: <c>ok</c> is
/// <see cref="LoadResult.Completed"/>, <c>achievedRate</c> is <see cref="LoadResult.RequestsPerSecond"/>,
/// <c>rpsPerSecond</c> the per-second buckets, <c>latencyMs</c> an object of <c>p50</c> … <c>max</c>, and the status
/// codes are keyed by their text. <c>copies</c> and <c>scheduled</c> are new; an older reader ignores them, and an
/// entry written without them reads them as 0. Reading is tolerant: names in any case, numbers as text (<c>"NaN"</c>
/// included), a field missing or null reads as 0 (a missing latency as NaN, a missing model as empty), and only an
/// entry without a scenario name or with a field of the wrong type is refused (<see cref="JsonException"/>). The rate
/// is recomputed from the buckets: an entry without them reads a rate of 0.
/// </remarks>
internal sealed class LoadResultJson : JsonConverter<LoadResult>
{
    private static readonly JsonSerializerOptions EntryOptions = new()
    {
        PropertyNameCaseInsensitive = true,
        PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
        // NaN and the infinities as the store writes them elsewhere (named literals), and numbers written as text.
        NumberHandling = JsonNumberHandling.AllowReadingFromString | JsonNumberHandling.AllowNamedFloatingPointLiterals,
    };

    /// <inheritdoc />
    public override void Write(Utf8JsonWriter writer, LoadResult value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        ArgumentNullException.ThrowIfNull(value);
        JsonSerializer.Serialize(writer, Entry.Of(value), EntryOptions);
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

        var read = entry.Deserialize<Entry>(EntryOptions)!;
        return string.IsNullOrEmpty(read.Scenario) ? throw new JsonException("a load entry without a scenario name") : read.ToResult();
    }

    /// <summary>One entry of <c>loads</c>, field by field in the order they are written.</summary>
    internal sealed record Entry
    {
        public string? Scenario { get; init; }

        public string? Model { get; init; }

        public string? Phases { get; init; }

        public int? Copies { get; init; }

        // Null in a closed model, and written so.
        public double? TargetRate { get; init; }

        // Written for readers of the file; read back from the buckets, never from here.
        public double? AchievedRate { get; init; }

        public double? MeasuredSeconds { get; init; }

        public long? Scheduled { get; init; }

        public long? Requests { get; init; }

        public long? Ok { get; init; }

        public long? Failed { get; init; }

        public long? NotSent { get; init; }

        public long? Abandoned { get; init; }

        public Latency? LatencyMs { get; init; }

        public double? ScheduleLagP99Ms { get; init; }

        public int? PeakInFlight { get; init; }

        public IReadOnlyList<double>? RpsPerSecond { get; init; }

        public IReadOnlyDictionary<int, long>? StatusCodes { get; init; }

        public long? BytesSent { get; init; }

        public long? BytesReceived { get; init; }

        public IReadOnlyDictionary<string, long>? Errors { get; init; }

        public DateTimeOffset? TimestampUtc { get; init; }

        public MachineInfo? Machine { get; init; }

        public static Entry Of(LoadResult load) => new()
        {
            Scenario = load.Scenario,
            Model = load.Model,
            Phases = load.Phases,
            Copies = load.Copies,
            TargetRate = load.TargetRate,
            AchievedRate = load.RequestsPerSecond,
            MeasuredSeconds = load.MeasuredSeconds,
            Scheduled = load.Scheduled,
            Requests = load.Requests,
            Ok = load.Completed,
            Failed = load.Failed,
            NotSent = load.NotSent,
            Abandoned = load.Abandoned,
            LatencyMs = new Latency(load.P50Ms, load.P75Ms, load.P90Ms, load.P95Ms, load.P99Ms, load.MaxMs),
            ScheduleLagP99Ms = load.ScheduleLagP99Ms,
            PeakInFlight = load.PeakInFlight,
            RpsPerSecond = load.RequestsPerSecondBuckets,
            StatusCodes = new SortedDictionary<int, long>(load.StatusCodes.ToDictionary()),
            BytesSent = load.BytesSent,
            BytesReceived = load.BytesReceived,
            Errors = load.Errors,
            TimestampUtc = load.TimestampUtc,
            Machine = load.Machine,
        };

        public LoadResult ToResult() => new()
        {
            Scenario = Scenario!,
            Model = Model ?? string.Empty,
            Phases = Phases ?? string.Empty,
            Copies = Copies ?? 0,
            TargetRate = TargetRate,
            MeasuredSeconds = MeasuredSeconds ?? 0,
            Scheduled = Scheduled ?? 0,
            Requests = Requests ?? 0,
            Completed = Ok ?? 0,
            Failed = Failed ?? 0,
            NotSent = NotSent ?? 0,
            Abandoned = Abandoned ?? 0,
            P50Ms = LatencyMs?.P50 ?? double.NaN,
            P75Ms = LatencyMs?.P75 ?? double.NaN,
            P90Ms = LatencyMs?.P90 ?? double.NaN,
            P95Ms = LatencyMs?.P95 ?? double.NaN,
            P99Ms = LatencyMs?.P99 ?? double.NaN,
            MaxMs = LatencyMs?.Max ?? double.NaN,
            ScheduleLagP99Ms = ScheduleLagP99Ms ?? 0,
            PeakInFlight = PeakInFlight ?? 0,
            RequestsPerSecondBuckets = RpsPerSecond ?? [],
            StatusCodes = StatusCodes ?? new Dictionary<int, long>(),
            BytesSent = BytesSent ?? 0,
            BytesReceived = BytesReceived ?? 0,
            Errors = Errors ?? new Dictionary<string, long>(StringComparer.Ordinal),
            TimestampUtc = TimestampUtc,
            Machine = Machine,
        };
    }

    /// <summary>The <c>latencyMs</c> object: the percentiles and the largest, in milliseconds.</summary>
    internal sealed record Latency(double? P50, double? P75, double? P90, double? P95, double? P99, double? Max);
}
