using PerfBudgets;
using PerfBudgets.Diagnostics;
using PerfBudgets.Measuring;
using TextStats;
using Xunit;

// Meters read this process's counters: one test at a time.
[assembly: Xunit.v3.Parallelization(Mode = Xunit.Sdk.ParallelMode.None)]

// One measuring test assembly at a time on this machine (the machine-wide lock, held while the assembly runs).
[assembly: AssemblyFixture(typeof(MeasurementLock))]

namespace TextStats.Tests;

public sealed class WordCounterBudgetTests
{
    private static readonly string Paragraph = string.Join(' ', Enumerable.Repeat("budget gate count alloc heap", 40));

    [Fact]
    public void Add_allocates_nothing_for_known_words()
    {
        var counter = new WordCounter();
        counter.Add(Paragraph);
        var measured = AllocationMeter.PerOperation(() => counter.Add(Paragraph), operations: 1_000);
        BudgetGate.Default.Check("Text.Add.BytesPerOp", measured.BytesPerOperation, measured.ToString(),
            // Called only when the budget fails (PerfBudgets.Diagnostics): the types the operation allocates.
            () => AllocationProfiler.PerOperation(() => counter.Add(Paragraph)).ToAttribution());
    }

    [Fact]
    public void A_counter_keeps_nothing_of_the_texts_it_counted()
    {
        var counter = new WordCounter();
        // The measured interval is a parameter of budgets.json, which perfbudgets calibrate lengthens until the heap
        // readings' own bytes are under half the limit.
        void Op() => counter.Add(Paragraph);
        var operations = (int)BudgetGate.Default.Book.Parameter("Text.Add.RetainedBytesPerOp.Operations");
        var m = RetainedMemoryMeter.Measure(Op, warmUp: 100, first: 1_000, second: operations);
        BudgetGate.Default.Check("Text.Add.RetainedBytesPerOp", m.BytesPerOperation, m.ToString());
    }

}
