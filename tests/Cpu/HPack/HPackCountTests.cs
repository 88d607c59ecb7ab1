using PerfBudgets;
using PerfBudgets.Budgets;
using Cpu.Counted;

namespace Cpu.HPack;

public sealed class HPackCountTests(CountedRuns runs)
{
    public static TheoryData<string, string> Workloads => new()
    {
        { "HPack.Decode.TypicalRequest", "the typical 10-header request block on a warm decoder, per block" },
        { "HPack.Decode.Corpus", "every block of the corpus's nine encoder folders, a new decoder per story, per corpus" },
        { "HPack.Encode.GrpcResponse", "6 response headers + 2 trailers on a warm encoder, per response" },
        { "HPack.Encode.RawData", "every raw-data story, a new encoder per story, per corpus" },
    };

    [Theory(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    [MemberData(nameof(Workloads))]
    public Task HPack_Instructions(string workload, string describe) =>
        CountedCheck.InProcessAsync(runs, workload, $"{workload}.Instructions", describe);

    // The two corpus runs, whose working set (30,222 blocks; 3,384 raw-data blocks, a dynamic table per story) is where
    // cache and memory behaviour show: their cycles as the fixed simulated caches estimate them, which an instruction
    // count cannot see.
    [Theory(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    [InlineData("HPack.Decode.Corpus", "every block of the corpus's nine encoder folders, a new decoder per story, per corpus")]
    [InlineData("HPack.Encode.RawData", "every raw-data story, a new encoder per story, per corpus")]
    public Task HPack_EstimatedCycles(string workload, string describe) =>
        CountedCheck.InProcessAsync(runs, workload, $"{workload}.EstimatedCycles", describe);
}
