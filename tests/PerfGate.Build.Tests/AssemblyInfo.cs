// The tooling's tests write and read files of their own only; they measure nothing, so they need no measurement lock.
[assembly: Xunit.v3.Parallelization(Mode = Xunit.Sdk.ParallelMode.None)]
