namespace PerfBudgets.Measuring;

/// <summary>One launch's time to its first 2xx answer (<see cref="StartupMeter"/>).</summary>
/// <param name="Wall">From the process's start to the answer, on the wall clock.</param>
/// <param name="Cpu">The CPU time the process had spent by the answer, all its threads.</param>
public readonly record struct StartupTime(TimeSpan Wall, TimeSpan Cpu);
