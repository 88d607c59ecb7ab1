using System.Text.Json.Serialization.Metadata;

namespace SystemUnderTest.Json;

/// <summary>
/// The metadata of one shape (one employee, or a list) for each direction. Writing uses options the source generator
/// recognises, so <c>JsonSerializer</c> takes the generated fast path and allocates nothing; reading adds the input
/// limits (depth, string length, nullable annotations, required constructor parameters), which the fast path does
/// not support, so they would cost ~312 B per serialized employee in the metadata path if they applied to writing too.
/// </summary>
/// <typeparam name="T">The shape's type.</typeparam>
/// <param name="Write">Metadata for serializing (fast path).</param>
/// <param name="Read">Metadata for deserializing untrusted input (limits enforced).</param>
public sealed record JsonShape<T>(JsonTypeInfo<T> Write, JsonTypeInfo<T> Read);
