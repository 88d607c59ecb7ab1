namespace PerfBudgets.Budgets;

/// <summary>
/// Thrown when one or more budgets break. The message is one line per broken budget, which a reviewer can act on:
/// <c>Api.DelayAsync.ServerBytesPerRequest: 2,312 B/request &gt; budget 1,500 (+54%)</c>; the same figures are
/// properties (<see cref="Failures"/>, and the first failure's through <see cref="BudgetName"/>, <see cref="Measured"/>,
/// <see cref="Limit"/> and <see cref="Overshoot"/>), so a caller never parses the text.
/// </summary>
public sealed class BudgetExceededException : PerfBudgetsException
{
    /// <summary>Creates the exception for <paramref name="failures"/>, its message their lines.</summary>
    public BudgetExceededException(IReadOnlyList<BudgetFailure> failures)
        : base(string.Join(Environment.NewLine, Validate(failures).Select(f => f.Message)))
    {
        Failures = failures;
    }

    /// <summary>Every broken budget, in the order checked.</summary>
    public IReadOnlyList<BudgetFailure> Failures { get; }

    /// <summary>The (first) broken budget's name.</summary>
    public string BudgetName => Failures[0].BudgetName;

    /// <summary>What the (first) broken budget measured, in its unit; NaN when it was not measured.</summary>
    public double Measured => Failures[0].Measured;

    /// <summary>The (first) broken budget's limit.</summary>
    public double Limit => Failures[0].Limit;

    /// <summary>How far the (first) broken budget is past its limit, as a fraction of the limit (0.54 reads +54%).</summary>
    public double Overshoot => Failures[0].Overshoot;

    private static IReadOnlyList<BudgetFailure> Validate(IReadOnlyList<BudgetFailure> failures)
    {
        ArgumentNullException.ThrowIfNull(failures);
        return failures.Count > 0 ? failures : throw new ArgumentException("At least one failure is needed.", nameof(failures));
    }
}
