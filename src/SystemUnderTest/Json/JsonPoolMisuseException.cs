namespace SystemUnderTest.Json;

/// <summary>
/// A pooled buffer was used wrongly: returned twice, returned to a pool that does not own it, or used after it was
/// returned. Each is a bug in the caller that would otherwise hand one request's bytes to another, so it throws
/// at once instead of corrupting the pool.
/// </summary>
public sealed class JsonPoolMisuseException : InvalidOperationException
{
    /// <summary>Creates the exception with a message naming what was wrong.</summary>
    public JsonPoolMisuseException(string message)
        : base(message)
    {
    }

    /// <summary>Creates the exception with a message and a cause.</summary>
    public JsonPoolMisuseException(string message, Exception innerException)
        : base(message, innerException)
    {
    }

    /// <summary>Creates the exception with a default message.</summary>
    public JsonPoolMisuseException()
        : base("A pooled JSON buffer was misused.")
    {
    }
}
