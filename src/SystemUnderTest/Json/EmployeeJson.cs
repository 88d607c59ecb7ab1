using System.Text.Json;

namespace SystemUnderTest.Json;

/// <summary>
/// The serializer settings every strategy and endpoint shares: two instances of the source-generated context, one
/// for writing (fast path) and one for reading with the configured limits, and the two shapes over them.
/// </summary>
public sealed class EmployeeJson
{
    /// <summary>Creates the settings from <paramref name="options"/>.</summary>
    public EmployeeJson(JsonPoolOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);

        // Run-time options replace the context's generation options, so the naming policy is repeated in both.
        // Writing: nothing beyond what [JsonSourceGenerationOptions] says, so the generated serialize handler is used.
        WriteContext = new EmployeeJsonContext(new JsonSerializerOptions
        {
            PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
            MaxDepth = options.MaximumDepth,
        });

        // Reading untrusted input: depth and string limits, and a null where the record says non-null, or a missing
        // constructor argument, is bad input rather than a default. Both checks are new in .NET 9's serializer: on .NET 8
        // (built only for the three-runtime comparison) they read as defaults, and reading skips their small cost.
        ReadContext = new EmployeeJsonContext(new JsonSerializerOptions
        {
            PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
            MaxDepth = options.MaximumDepth,
#if NET9_0_OR_GREATER
            RespectNullableAnnotations = true,
            RespectRequiredConstructorParameters = true,
#endif
            Converters = { new BoundedStringConverter(options.MaximumStringBytes) },
        });
        Employee = new JsonShape<Employee>(WriteContext.Employee, ReadContext.Employee);
        List = new JsonShape<List<Employee>>(WriteContext.ListEmployee, ReadContext.ListEmployee);
        ReaderOptions = new JsonReaderOptions { MaxDepth = options.MaximumDepth };
        WriterOptions = new JsonWriterOptions { Encoder = WriteContext.Options.Encoder, Indented = false, SkipValidation = true };
    }

    /// <summary>Settings with the default <see cref="JsonPoolOptions"/>.</summary>
    public static EmployeeJson Default { get; } = new(new JsonPoolOptions());

    /// <summary>The context used for serializing (a context caches its metadata, so it is created once).</summary>
    public EmployeeJsonContext WriteContext { get; }

    /// <summary>The context used for deserializing, with the input limits.</summary>
    public EmployeeJsonContext ReadContext { get; }

    /// <summary>One employee.</summary>
    public JsonShape<Employee> Employee { get; }

    /// <summary>A list of employees.</summary>
    public JsonShape<List<Employee>> List { get; }

    /// <summary>Reader options matching the depth limit, for reading from a <c>Utf8JsonReader</c>.</summary>
    public JsonReaderOptions ReaderOptions { get; }

    /// <summary>
    /// Writer options for a reused <c>Utf8JsonWriter</c>, matching what <c>JsonSerializer</c> uses internally so
    /// every strategy writes the same bytes. Validation is skipped because the serializer's metadata writes well-formed JSON.
    /// </summary>
    public JsonWriterOptions WriterOptions { get; }
}
