using System.Text.Json.Serialization;

namespace SystemUnderTest.Json;

/// <summary>
/// Source-generated System.Text.Json metadata for every type the JSON pools serialize: no reflection at run time,
/// and the serializer's per-type work is compiled ahead of time. Run-time options (depth and string limits) are
/// supplied by <see cref="EmployeeJson"/>, which creates the one context instance the app uses.
/// </summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase)]
[JsonSerializable(typeof(Employee))]
[JsonSerializable(typeof(List<Employee>))]
public sealed partial class EmployeeJsonContext : JsonSerializerContext;
