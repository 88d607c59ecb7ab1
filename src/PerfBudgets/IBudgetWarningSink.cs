namespace PerfBudgets;

/// <summary>
/// Receives the one-line text of every baseline warning a gate raises (a budget within its limit but worse than the
/// baseline beyond its noise). A test suite passes its framework's warnings here, e.g. xunit v3's
/// <c>TestContext.Current.AddWarning</c>.
/// </summary>
public interface IBudgetWarningSink
{
    /// <summary>Reports one warning line.</summary>
    void Warn(string line);
}
