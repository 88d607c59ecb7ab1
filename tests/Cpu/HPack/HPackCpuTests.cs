using PerfBudgets;
using PerfBudgets.Diagnosing;
using PerfBudgets.Measuring;
using PerfGate.Tests.Workloads;
using SystemUnderTest.HPack;

namespace PerfGate.Tests.Cpu.HPack;

public sealed class HPackCpuTests
{
    private static readonly Lazy<HPackStoryArchive> Corpus = new(() => HPackStoryArchive.Read(HPackWorkloads.CorpusArchivePath));
    private readonly BudgetGate _gate = BudgetGate.Default;

    private int Attempts => _gate.Book.IntParameter("Cpu.Attempts");

    [Fact]
    public void HPack_Decode_TypicalRequest_CpuCost()
    {
        var handler = new HeaderCounter();
        var (decoder, typical) = HPackWorkloads.PrimedDecoderAndTypicalRequest(handler);
        handler.Reset();

        _gate.CheckCost("HPack.Decode.TypicalRequest.CpuCost", () => CpuMeter.PerOperation(() => decoder.Decode(typical, endHeaders: true, handler)),
            $"{typical.Length}-byte block, 10 headers", Attempts,
            () => CpuProfiler.PerOperation(() => decoder.Decode(typical, endHeaders: true, handler)).ToAttribution());

        (handler.Headers % 10).Should().Be(0, "every measured decode produced the block's 10 headers");
        handler.Headers.Should().BeGreaterThan(0);
    }

    [Fact]
    public void HPack_Decode_Corpus_CpuCost()
    {
        var stories = HPackWorkloads.EncodedCorpusStories(Corpus.Value);
        var counter = new HeaderCounter();
        long headers = 0;

        _gate.CheckCost("HPack.Decode.Corpus.CpuCost", () => CpuMeter.PerOperation(() => headers = HPackWorkloads.DecodeCorpus(stories, counter)),
            $"{stories.Sum(s => s.Length):N0} blocks per op, a new decoder per story", Attempts,
            () => CpuProfiler.PerOperation(() => headers = HPackWorkloads.DecodeCorpus(stories, counter)).ToAttribution());

        headers.Should().BeGreaterThan(300_000, "the whole corpus was decoded");
    }

    [Fact]
    public void HPack_Encode_GrpcResponse_CpuCost()
    {
        var operation = HPackWorkloads.GrpcResponseOperation(new HPackEncoder());
        long written = 0;

        _gate.CheckCost("HPack.Encode.GrpcResponse.CpuCost", () => CpuMeter.PerOperation(() => written += operation()),
            "6 response headers + 2 trailers per op, warm encoder", Attempts,
            () => CpuProfiler.PerOperation(() => written += operation()).ToAttribution());

        written.Should().BeGreaterThan(0);
    }

    [Fact]
    public void HPack_Encode_RawData_CpuCost()
    {
        var stories = HPackWorkloads.RawCorpusStories(Corpus.Value);
        var buffer = new byte[1 << 16];
        long written = 0;

        _gate.CheckCost("HPack.Encode.RawData.CpuCost", () => CpuMeter.PerOperation(() => written = HPackWorkloads.EncodeRawCorpus(stories, buffer)),
            $"{stories.Sum(s => s.Length):N0} raw-data blocks per op, a new encoder per story", Attempts,
            () => CpuProfiler.PerOperation(() => written = HPackWorkloads.EncodeRawCorpus(stories, buffer)).ToAttribution());

        written.Should().BeGreaterThan(300_000, "every raw-data story was encoded");
    }
}
