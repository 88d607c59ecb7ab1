namespace PerfBudgets.Budgets;

/// <summary>What a budget kind's figures are in; a budget's own unit (<c>B/request</c>) names the operation as well.</summary>
internal enum UnitFamily
{
    /// <summary>Bytes: allocated, or on the wire.</summary>
    Bytes,

    /// <summary>Milliseconds: a latency, or time spent blocked.</summary>
    Time,

    /// <summary>A count of events: errors, collections, contentions.</summary>
    Count,

    /// <summary>Events per second.</summary>
    Rate,

    /// <summary>A dimensionless ratio.</summary>
    Ratio,

    /// <summary>CPU time in calibration units.</summary>
    CpuCost,

    /// <summary>Instructions executed.</summary>
    Instructions,

    /// <summary>System calls made.</summary>
    SystemCalls,

    /// <summary>Cycles estimated from a cache simulation.</summary>
    Cycles,
}
