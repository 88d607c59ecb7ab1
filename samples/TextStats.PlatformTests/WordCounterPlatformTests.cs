using PerfBudgets;
using PerfBudgets.Measuring;
using TextStats;
using Xunit;

[assembly: Xunit.v3.Parallelization(Mode = Xunit.Sdk.ParallelMode.None)]

namespace TextStats.PlatformTests;

public sealed class WordCounterPlatformTests
{
    private static readonly string Paragraph = string.Join(' ', Enumerable.Repeat("budget gate count alloc heap", 40));

    [Fact]
    public void Add_allocates_nothing_for_known_words_under_the_testing_platform()
    {
        // The gate refuses a Debug build by name, so this passing is the proof that `dotnet test` ran Release.
        var counter = new WordCounter();
        counter.Add(Paragraph);
        var measured = AllocationMeter.PerOperation(() => counter.Add(Paragraph), operations: 1_000);
        BudgetGate.Default.Check("Text.Add.BytesPerOp", measured.BytesPerOperation, measured.ToString());
    }
}
