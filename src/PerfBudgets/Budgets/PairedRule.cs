namespace PerfBudgets.Budgets;

/// <summary>
/// How a paired budget (<c>vs-base-ratio-max</c>, <c>vs-base-ratio-min</c>) judges its interval of head ÷ base against
/// its limit: <c>pairedRule</c> in <c>budgets.json</c>, <c>catch</c> when absent.
/// </summary>
public enum PairedRule
{
    /// <summary>
    /// <c>catch</c>: the limit is the smallest change the budget must catch. It fails when the interval shows a change
    /// toward the limit (it lies wholly above 1 under a ceiling, wholly below 1 under a floor) and does not rule the
    /// limit out (its far end reaches past the limit), and when the whole interval lies beyond the limit. A change
    /// the size of the limit therefore fails once the interval is narrower than the change, while unchanged code fails
    /// only as often as its interval misses 1.
    /// </summary>
    Catch,

    /// <summary>
    /// <c>beyond</c>: it fails only when the whole interval lies beyond the limit. A change the size of the limit then
    /// passes about half the time, and only changes larger than the limit by the interval's half-width fail reliably:
    /// for comparisons whose intervals are not yet shown to hold 1 on unchanged code as often as they claim.
    /// </summary>
    Beyond,
}
