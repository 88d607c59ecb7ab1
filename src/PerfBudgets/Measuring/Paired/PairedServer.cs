namespace PerfBudgets.Measuring;

/// <summary>A running server of one build in a paired comparison: where it listens and its process, whose CPU clock is read.</summary>
/// <param name="BaseAddress">The server's base address (loopback).</param>
/// <param name="ProcessId">The server's process id.</param>
public sealed record PairedServer(Uri BaseAddress, int ProcessId);
