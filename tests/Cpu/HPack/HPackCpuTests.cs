using PerfBudgets;
using PerfBudgets.Diagnosing;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using PerfGate.Tests.Cpu.Counted;
using PerfGate.Tests.HPackStories;
using PerfGate.Tests.Workloads;
using SystemUnderTest.HPack;

namespace PerfGate.Tests.Cpu.HPack;

/// <summary>
/// The timed budgets that stay beside the counted ones: the two corpus runs, whose working set (30,222 blocks, 3,384
/// raw-data blocks, a dynamic table per story) is where cache and memory behaviour show, which an instruction count
/// cannot see. Both are user-space code with no system calls, so their cost in calibration units does not depend on
/// the kernel. They wait for the counted runs to finish and measure on a quiet machine.
/// </summary>
public sealed class HPackCpuTests(CountedRuns runs)
{
    private static readonly Lazy<HPackStoryArchive> Corpus = new(() => HPackStoryArchive.Read(HPackWorkloads.CorpusArchivePath));
    private readonly BudgetGate _gate = SuiteGate.Current;

    private int Attempts => _gate.Book.IntParameter("Cpu.Attempts");

    [Fact]
    public async Task HPack_Decode_Corpus_CpuCost()
    {
        await runs.WhenIdleAsync();
        var stories = HPackWorkloads.EncodedCorpusStories(Corpus.Value);
        var counter = new HeaderCounter();
        long headers = 0;

        _gate.CheckCost("HPack.Decode.Corpus.CpuCost", () => CpuMeter.PerOperation(() => headers = HPackWorkloads.DecodeCorpus(stories, counter)),
            $"{stories.Sum(s => s.Length):N0} blocks per op, a new decoder per story", Attempts,
            () => CpuProfiler.PerOperation(() => headers = HPackWorkloads.DecodeCorpus(stories, counter)).ToAttribution());

        headers.Should().BeGreaterThan(300_000, "the whole corpus was decoded");
    }

    [Fact]
    public async Task HPack_Encode_RawData_CpuCost()
    {
        await runs.WhenIdleAsync();
        var stories = HPackWorkloads.RawCorpusStories(Corpus.Value);
        var buffer = new byte[1 << 16];
        long written = 0;

        _gate.CheckCost("HPack.Encode.RawData.CpuCost", () => CpuMeter.PerOperation(() => written = HPackWorkloads.EncodeRawCorpus(stories, buffer)),
            $"{stories.Sum(s => s.Length):N0} raw-data blocks per op, a new encoder per story", Attempts,
            () => CpuProfiler.PerOperation(() => written = HPackWorkloads.EncodeRawCorpus(stories, buffer)).ToAttribution());

        written.Should().BeGreaterThan(300_000, "every raw-data story was encoded");
    }
}
