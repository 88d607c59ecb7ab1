using BenchmarkDotNet.Attributes;
using SystemUnderTest.Api;

namespace PerfGate.Bench.Api;

/// <summary>The in-process half of the delay scenario: the cost of starting and awaiting N short delays.</summary>
[MemoryDiagnoser]
public class DelayComparisonBenchmarks
{
    [Params(100, 1_000)]
    public int Requests { get; set; }

    [Benchmark]
    public Task<DelayRunResult> AsyncDelays() => DelayComparison.RunAsyncDelaysAsync(Requests, TimeSpan.FromMilliseconds(1));
}
