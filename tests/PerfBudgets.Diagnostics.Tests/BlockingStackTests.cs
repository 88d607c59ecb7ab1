using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;

namespace PerfBudgets.Diagnostics.Tests;

// Reading sampled stacks for the blocking budgets: which threads run a work item, which of those wait, where, and
// for whom. The stacks are kept as data (TestVectors/blocking-stacks.txt), with what each must read as.
public sealed class BlockingStackTests
{
    private static readonly string Vectors = Path.Combine(AppContext.BaseDirectory, "TestVectors", "blocking-stacks.txt");
    private static readonly string MainThreadVectors = Path.Combine(AppContext.BaseDirectory, "TestVectors", "main-thread-stacks.txt");

    public static TheoryData<string, string[]> Stacks() => Data(Vectors);

    public static TheoryData<string, string[]> MainThreadStacks() => Data(MainThreadVectors);

    private static TheoryData<string, string[]> Data(string vectors)
    {
        var data = new TheoryData<string, string[]>();
        foreach (var (expected, frames) in Read(vectors))
        {
            data.Add(expected, frames);
        }

        return data;
    }

    private static List<(string Expected, string[] Frames)> Read(string vectors)
    {
        var data = new List<(string, string[])>();
        string? expected = null;
        var frames = new List<string>();
        foreach (var line in File.ReadLines(vectors).Append("== end"))
        {
            if (line.StartsWith("== ", StringComparison.Ordinal))
            {
                if (expected is not null)
                {
                    data.Add((expected, [.. frames]));
                }

                expected = line[3..];
                frames.Clear();
            }
            else if (line.Length > 0 && !line.StartsWith('#'))
            {
                frames.Add(line);
            }
        }

        return data;
    }

    [Theory]
    [MemberData(nameof(Stacks))]
    public void A_sampled_stack_reads_as_its_vector_says(string expected, string[] frames)
    {
        Describe(BlockingStack.Read(frames)).Should().Be(expected, string.Join(Environment.NewLine, frames));
    }

    [Theory]
    [MemberData(nameof(MainThreadStacks))]
    public void A_main_thread_stack_at_startup_reads_as_its_vector_says(string expected, string[] frames)
    {
        Describe(BlockingStack.ReadMainThread(frames)).Should().Be(expected, string.Join(Environment.NewLine, frames));
    }

    private static string Describe(BlockingStack.Reading reading) => reading switch
    {
        { InWorkItem: false } => "idle",
        { InPlatformLock: true } => "platform lock",
        { IsBlocked: false } => "running",
        _ => $"blocked {reading.Wait} | {reading.Caller}",
    };

    [Fact]
    public void The_vectors_cover_every_reading()
    {
        var expectations = Read(Vectors).Select(row => row.Expected).ToList();

        expectations.Should().Contain("idle").And.Contain("running").And.Contain("platform lock");
        expectations.Count(e => e.StartsWith("blocked ", StringComparison.Ordinal)).Should().BeGreaterThanOrEqualTo(4);
    }
}
