using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace SystemUnderTest.Json;

/// <summary>
/// The serializer settings every strategy and endpoint shares: the source-generated context with the configured
/// depth and string limits, and its metadata for the two shapes (one employee, a list).
/// </summary>
public sealed class EmployeeJson
{
    /// <summary>Creates the settings from <paramref name="options"/>.</summary>
    public EmployeeJson(JsonPoolOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        var serializerOptions = new JsonSerializerOptions
        {
            // Run-time options replace the context's generation options, so the naming policy is repeated here.
            PropertyNamingPolicy = JsonNamingPolicy.CamelCase,
            MaxDepth = options.MaximumDepth,

            // A null where the record says non-null, or a missing constructor argument, is bad input, not a default.
            RespectNullableAnnotations = true,
            RespectRequiredConstructorParameters = true,
            Converters = { new BoundedStringConverter(options.MaximumStringBytes) },
        };
        Context = new EmployeeJsonContext(serializerOptions);
        Employee = Context.Employee;
        List = Context.ListEmployee;
        ReaderOptions = new JsonReaderOptions { MaxDepth = options.MaximumDepth };
        WriterOptions = new JsonWriterOptions { Encoder = serializerOptions.Encoder, Indented = false, SkipValidation = true };
    }

    /// <summary>Settings with the default <see cref="JsonPoolOptions"/>.</summary>
    public static EmployeeJson Default { get; } = new(new JsonPoolOptions());

    /// <summary>The context, created once (a context caches its metadata).</summary>
    public EmployeeJsonContext Context { get; }

    /// <summary>Metadata of one employee.</summary>
    public JsonTypeInfo<Employee> Employee { get; }

    /// <summary>Metadata of a list of employees.</summary>
    public JsonTypeInfo<List<Employee>> List { get; }

    /// <summary>Reader options matching the serializer's depth limit, for reading from a <c>Utf8JsonReader</c>.</summary>
    public JsonReaderOptions ReaderOptions { get; }

    /// <summary>
    /// Writer options for a reused <c>Utf8JsonWriter</c>, matching what <c>JsonSerializer</c> uses internally so
    /// every strategy writes the same bytes. Validation is skipped because the serializer's metadata writes well-formed JSON.
    /// </summary>
    public JsonWriterOptions WriterOptions { get; }
}
