using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace PerfBudgets.Gating;

/// <summary>
/// The retry policy of a count: a count over its limit is counted again in a fresh process and the smaller gated.
/// Work the runtime does on its own clock (a timer, a stub or helper made at a run-dependent time) only ever adds to a
/// count, while a regression in the code raises both.
/// </summary>
internal static class CountConfirmation
{
    /// <summary>
    /// The measurement to gate and its description: the first when it is within the limit or on another runtime than
    /// the recording's (which fails either way), else the smaller of two, described with both counts.
    /// </summary>
    public static async Task<(InstructionMeasurement Measurement, string? Describe)> ChooseAsync(
        Budget budget, InstructionMeasurement measurement, Func<Task<InstructionMeasurement>> confirm, string? describe)
    {
        var first = CountedFigure.Of(budget, measurement);
        var sameRuntime = budget.RecordedOn is not { } on || on.Runtime == measurement.RuntimeVersion;
        if (budget.IsMet(first) || !sameRuntime)
        {
            return (measurement, describe);
        }

        var second = await confirm().ConfigureAwait(false);
        var secondFigure = CountedFigure.Of(budget, second);
        var chosen = secondFigure < first ? second : measurement;
        var counts = $"counted twice, each in a process of its own: {Figures.Format(first)} then {Figures.Format(secondFigure)} {budget.Unit}, the smaller gated";
        return (chosen, string.IsNullOrEmpty(describe) ? counts : $"{describe}; {counts}");
    }
}
