namespace PerfBudgets.Load;

/// <summary>What one request of a load scenario came to: success or failure, with its status code and sizes.</summary>
/// <param name="IsSuccess">True for a correct answer.</param>
/// <param name="StatusCode">The protocol's status code (HTTP status), or 0 when the protocol has none.</param>
/// <param name="BytesSent">Payload bytes sent (request body, or a socket frame), as the step counts them.</param>
/// <param name="BytesReceived">Payload bytes received (response body, or a socket frame), as the step counts them.</param>
/// <param name="Error">Why a failed request failed; failures are counted per distinct text.</param>
public readonly record struct LoadStepOutcome(bool IsSuccess, int StatusCode = 0, long BytesSent = 0, long BytesReceived = 0, string? Error = null)
{
    /// <summary>A correct answer.</summary>
    public static LoadStepOutcome Success(int statusCode = 0, long bytesSent = 0, long bytesReceived = 0) =>
        new(true, statusCode, bytesSent, bytesReceived);

    /// <summary>A wrong answer or a failed exchange; <paramref name="error"/> names it in the result.</summary>
    public static LoadStepOutcome Failure(string error, int statusCode = 0, long bytesSent = 0, long bytesReceived = 0) =>
        new(false, statusCode, bytesSent, bytesReceived, string.IsNullOrWhiteSpace(error) ? "step reported failure" : error);
}
