namespace PerfBudgets.Measuring;

/// <summary>One header line of a response as received.</summary>
/// <param name="Name">The field name as the server wrote it, e.g. <c>Content-Type</c>.</param>
/// <param name="Value">The field value, without the surrounding whitespace.</param>
/// <param name="Bytes">The line on the wire, its CRLF included.</param>
public sealed record ResponseHeaderLine(string Name, string Value, int Bytes);
