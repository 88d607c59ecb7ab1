using System.Globalization;

namespace PerfBudgets.Load;

/// <summary>A scenario's state, reported once a second while it runs so that a long run does not look hung.</summary>
/// <param name="Scenario">The scenario's name.</param>
/// <param name="Elapsed">Time since the scenario started, warm-up included.</param>
/// <param name="Total">The planned length of all phases.</param>
/// <param name="Phase">The phase running now.</param>
/// <param name="Requests">Requests finished so far (successes and failures, warm-up included).</param>
/// <param name="CurrentRequestsPerSecond">Requests finished in the last second.</param>
/// <param name="Failed">Failed requests so far.</param>
/// <param name="NotSent">Open-model requests not sent so far because the in-flight bound was reached.</param>
/// <param name="InFlight">Requests running now.</param>
public sealed record LoadProgress(
    string Scenario,
    TimeSpan Elapsed,
    TimeSpan Total,
    LoadSimulation Phase,
    long Requests,
    double CurrentRequestsPerSecond,
    long Failed,
    long NotSent,
    int InFlight)
{
    /// <summary>One line for a console or a test log.</summary>
    public override string ToString() => string.Create(CultureInfo.InvariantCulture,
        $"{Scenario} {Elapsed.TotalSeconds,5:0}/{Total.TotalSeconds:0} s [{Phase}] requests={Requests:N0} now={CurrentRequestsPerSecond:N0} req/s failed={Failed:N0} not-sent={NotSent:N0} in-flight={InFlight}");
}
