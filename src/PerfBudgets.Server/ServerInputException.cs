namespace PerfBudgets.Server;

/// <summary>
/// Raised for a request the results server refuses (no token, a malformed or oversized upload, an unknown project):
/// the endpoint answers with <see cref="StatusCode"/> and a JSON problem body carrying the message, and stores nothing.
/// </summary>
internal sealed class ServerInputException : Exception
{
    public ServerInputException(int statusCode, string message) : base(message) => StatusCode = statusCode;

    public ServerInputException(int statusCode, string message, Exception innerException) : base(message, innerException) =>
        StatusCode = statusCode;

    /// <summary>The HTTP status of the refusal (400, 401, 403, 404, 413, 415, or 503 when the server has no room for an upload).</summary>
    public int StatusCode { get; }
}
