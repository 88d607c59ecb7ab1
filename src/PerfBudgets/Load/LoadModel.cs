namespace PerfBudgets.Load;

/// <summary>How a <see cref="LoadSimulation"/> decides when a request starts.</summary>
public enum LoadModel
{
    /// <summary>
    /// Closed model: a fixed number of copies (virtual users), each starting its next request when its previous one
    /// ends. The server's speed sets the rate, so a slow server slows its own arrivals.
    /// </summary>
    Closed,

    /// <summary>
    /// Open model: requests start on a fixed schedule (a rate per second) whether or not earlier ones have finished,
    /// as independent users arrive. Latency is measured from each request's intended start.
    /// </summary>
    Open,
}
