// The meters measure this process: the process-wide allocation counter sees every thread's allocations and the CPU
// profiler every thread's samples, and the load-runner tests time their schedules against the clock. A second test
// running beside them would be measured with them: every test in this assembly runs alone.
// The add-ons', the tool's and the results server's test projects link this file and run the same way.
[assembly: Xunit.v3.Parallelization(Mode = Xunit.Sdk.ParallelMode.None)]

// One measuring test assembly at a time on this machine, whatever started it: the package's lock, as an adopter holds it.
[assembly: AssemblyFixture(typeof(PerfBudgets.Measuring.MeasurementLock))]
