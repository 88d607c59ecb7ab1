namespace PerfBudgets.Server.Changes;

/// <summary>One run's figure of a budget, in a series ordered oldest first.</summary>
/// <param name="Commit">The commit the run measured.</param>
/// <param name="Figure">What it measured, in the budget's unit.</param>
internal sealed record CommitFigure(string Commit, double Figure);
