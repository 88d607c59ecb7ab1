// Some budgets here read the process-wide allocation counter (code that hops threads), so nothing else in the
// process may allocate while they measure: every test in this assembly runs alone.
[assembly: Xunit.v3.Parallelization(Mode = Xunit.Sdk.ParallelMode.None)]

// The suites run one at a time on this machine, whatever started them.
[assembly: AssemblyFixture(typeof(PerfBudgets.Measuring.MeasurementLock))]
