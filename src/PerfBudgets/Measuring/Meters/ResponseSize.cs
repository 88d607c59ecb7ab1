using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// One HTTP/1.1 response as it crossed the wire (<see cref="ResponseSizeMeter"/>): the bytes of its head (status line,
/// header lines and the blank line that ends them) apart from the bytes of its body, counted on the client's socket.
/// </summary>
/// <remarks>
/// Both counts are exact for a given request and server: the only header whose value changes from one response to the
/// next, <c>Date</c>, has a fixed width (an IMF-fixdate, RFC 9110 section 5.6.7, is always 29 characters), so the
/// same request gives the same counts every time.
/// </remarks>
/// <param name="StatusCode">The status code, e.g. 200.</param>
/// <param name="HeaderBytes">The head on the wire: status line, every header line with its CRLF, and the final CRLF.</param>
/// <param name="BodyBytes">The body on the wire, framing included (a chunked body's size lines and CRLFs).</param>
/// <param name="ContentBytes">The body's content: <see cref="BodyBytes"/> without the chunked framing.</param>
/// <param name="Headers">Every header line received, in order.</param>
public sealed record ResponseSize(int StatusCode, long HeaderBytes, long BodyBytes, long ContentBytes, IReadOnlyList<ResponseHeaderLine> Headers)
{
    /// <summary>The whole response on the wire: <see cref="HeaderBytes"/> + <see cref="BodyBytes"/>.</summary>
    public long TotalBytes => HeaderBytes + BodyBytes;

    /// <summary>The header names received, in order (e.g. <c>Content-Length, Content-Type, Date, Server</c>).</summary>
    public IReadOnlyList<string> HeaderNames => Headers.Select(h => h.Name).ToArray();

    /// <summary>
    /// The head line by line, for a failure's detail: <c>status 200, head 137 B = status line 17 B + Content-Length 20 B +
    /// Content-Type 47 B + Date 37 B + Server 16 B + end 2 B; body 1,234 B</c>.
    /// </summary>
    public override string ToString()
    {
        var statusLine = HeaderBytes - Headers.Sum(h => (long)h.Bytes) - 2;
        var lines = string.Join(" + ", Headers.Select(h => string.Create(CultureInfo.InvariantCulture, $"{h.Name} {h.Bytes:N0} B")));
        var body = BodyBytes == ContentBytes
            ? string.Create(CultureInfo.InvariantCulture, $"body {BodyBytes:N0} B")
            : string.Create(CultureInfo.InvariantCulture, $"body {BodyBytes:N0} B ({ContentBytes:N0} B of content, the rest chunk framing)");
        return string.Create(CultureInfo.InvariantCulture,
            $"status {StatusCode}, head {HeaderBytes:N0} B = status line {statusLine:N0} B{(lines.Length == 0 ? string.Empty : " + " + lines)} + end 2 B; {body}");
    }
}
