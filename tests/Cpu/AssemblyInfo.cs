// CPU costs are measured one at a time: a second measurement in the process would be the noise of the first.
[assembly: CollectionBehavior(DisableTestParallelization = true)]

// The suites run one at a time on this machine, whatever started them.
[assembly: AssemblyFixture(typeof(PerfGate.Tests.OneSuiteAtATime))]
