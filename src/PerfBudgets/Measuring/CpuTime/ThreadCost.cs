namespace PerfBudgets.Measuring;

/// <summary>On-CPU time the threads of one name (e.g. <c>.NET TP Worker</c>) spent on one request.</summary>
public readonly record struct ThreadCost(string ThreadName, long Nanoseconds);
