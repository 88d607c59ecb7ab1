namespace PerfBudgets.Measuring;

/// <summary>Which build a paired round measures (<see cref="PairedRounds"/>).</summary>
public enum PairedSide
{
    /// <summary>The build of the base commit (<see cref="BaseBuild"/>).</summary>
    Base,

    /// <summary>The build under test: the working tree.</summary>
    Head,
}
