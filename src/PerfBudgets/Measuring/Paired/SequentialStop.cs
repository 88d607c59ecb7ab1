using PerfBudgets.Reporting;

namespace PerfBudgets.Measuring;

/// <summary>Where a comparison run adaptively under a limit stopped (<see cref="SequentialPairs"/>), and why there.</summary>
/// <param name="ProcessPairs">The pairs of processes it ran.</param>
/// <param name="MaxProcessPairs">The most it would have run.</param>
/// <param name="Look">The look it stopped at, from 1.</param>
/// <param name="Looks">The looks it would have made.</param>
/// <param name="LookConfidence">Each look's two-sided confidence: the design's split evenly among the looks.</param>
/// <param name="Limit">The budget's limit it was decided against.</param>
/// <param name="Side">Where the interval lay when it stopped, <c>above</c> or <c>below</c> the limit; null when the cap stopped it.</param>
internal sealed record SequentialStop(int ProcessPairs, int MaxProcessPairs, int Look, int Looks, double LookConfidence, double Limit, string? Side)
{
    public override string ToString() =>
        (Side is null
            ? $"not decided at the cap ({ProcessPairs} pairs of processes, look {Look} of {Looks}): the interval still holds {Figures.Format(Limit)}"
            : $"decided at look {Look} of {Looks} ({ProcessPairs} of at most {MaxProcessPairs} pairs of processes): the interval lies wholly {Side} {Figures.Format(Limit)}") +
        $"; each look's interval at {Figures.Format(LookConfidence * 100)}%, so that the stated confidence holds wherever it stopped";
}
