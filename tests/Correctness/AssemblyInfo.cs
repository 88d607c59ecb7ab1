
// The suites run one at a time on this machine, whatever started them.
[assembly: AssemblyFixture(typeof(PerfBudgets.Measuring.MeasurementLock))]
