using System.Text.Json;

namespace SystemUnderTest.Json;

internal static class RoundTripResult
{
    /// <summary>The JSON literal <c>null</c> is valid JSON but not an employee or a list: bad input, so a JsonException.</summary>
    public static T NotNull<T>(T? value) => value ?? throw new JsonException($"The JSON was null where a {typeof(T).Name} was expected.");
}
