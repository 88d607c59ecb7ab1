// Timed CPU costs are measured one at a time: a second measurement in the process would be the noise of the first.
[assembly: Xunit.v3.Parallelization(Mode = Xunit.Sdk.ParallelMode.None)]

// The suites run one at a time on this machine, whatever started them (CountedRuns holds the MeasurementLock), and the
// counted budgets' two Callgrind runs start in the background as the suite starts.
[assembly: AssemblyFixture(typeof(Cpu.Counted.CountedRuns))]
