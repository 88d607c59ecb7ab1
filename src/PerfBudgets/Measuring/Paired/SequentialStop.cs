using PerfBudgets.Reporting;

namespace PerfBudgets.Measuring;

/// <summary>Where a comparison run adaptively under a limit stopped (<see cref="SequentialPairs"/>), and why there.</summary>
/// <param name="ProcessPairs">The pairs of processes it ran.</param>
/// <param name="MaxProcessPairs">The most it would have run.</param>
/// <param name="Look">The look it stopped at, from 1.</param>
/// <param name="Looks">The looks it would have made.</param>
/// <param name="LookConfidence">Each look's two-sided confidence: the design's split evenly among the looks.</param>
/// <param name="Why">Where the interval lay against the budget's limit when it stopped (<see cref="Budgets.PairedDecision"/>).</param>
/// <param name="Decided">False when the cap stopped it undecided, or another figure of the same pairs of processes did.</param>
internal sealed record SequentialStop(int ProcessPairs, int MaxProcessPairs, int Look, int Looks, double LookConfidence, string Why, bool Decided)
{
    public override string ToString() =>
        (Decided
            ? $"decided at look {Look} of {Looks} ({ProcessPairs} of at most {MaxProcessPairs} pairs of processes): {Why}"
            : Look == Looks
                ? $"not decided at the cap ({ProcessPairs} pairs of processes, look {Look} of {Looks}): {Why}"
                : $"not decided where the other figures of the same pairs of processes stopped the comparison (look {Look} of {Looks}, {ProcessPairs} pairs of processes): {Why}") +
        $"; each look's interval at {Figures.Format(LookConfidence * 100)}%, so that the stated confidence holds wherever it stopped";
}
