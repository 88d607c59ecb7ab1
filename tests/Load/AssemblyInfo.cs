// Load scenarios measure throughput on a shared 2-core machine: two at once would measure each other.
[assembly: Xunit.v3.Parallelization(Mode = Xunit.Sdk.ParallelMode.None)]

// The suites run one at a time on this machine, whatever started them.
[assembly: AssemblyFixture(typeof(PerfBudgets.Measuring.MeasurementLock))]

// One fixed-pool server for the blocking and open-model tests, started when the first of them needs it.
[assembly: AssemblyFixture(typeof(Load.FixedPoolServer))]
