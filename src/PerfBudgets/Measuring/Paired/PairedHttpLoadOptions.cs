namespace PerfBudgets.Measuring;

/// <summary>How a paired HTTP load runs (<see cref="PairedHttpLoad"/>).</summary>
/// <param name="Connections">Concurrent closed loops per server, each with its own keep-alive connection.</param>
/// <param name="Rounds">
/// The alternating rounds that measure the rate and the p99: one server loaded at a time, so each has the machine as it
/// would alone; short rounds, so a neighbour's second falls on both.
/// </param>
/// <param name="RoundLength">How long an alternating round loads one server.</param>
/// <param name="DuetRounds">The rounds that load both servers at once and measure each one's CPU time per request.</param>
/// <param name="DuetRoundLength">How long a duet round lasts.</param>
public sealed record PairedHttpLoadOptions(int Connections, PairedRoundsOptions Rounds, TimeSpan RoundLength, PairedRoundsOptions DuetRounds, TimeSpan DuetRoundLength);
