namespace PerfBudgets.Measuring;

/// <summary>One launch's time to its first 2xx answer (<see cref="StartupMeter"/>).</summary>
/// <param name="Wall">From the process's start to the answer, on the wall clock.</param>
/// <param name="Cpu">The CPU time the process had spent by the answer, all its threads.</param>
/// <param name="WorkingSetBytes">The process's resident set at the answer (Linux <c>VmRSS</c>), or 0 where it cannot be read.</param>
public readonly record struct StartupTime(TimeSpan Wall, TimeSpan Cpu, long WorkingSetBytes);
