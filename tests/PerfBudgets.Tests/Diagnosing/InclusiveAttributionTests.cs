using PerfBudgets.Budgets;
using PerfBudgets.Diagnosing;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tests.Diagnosing;

/// <summary>
/// <see cref="InclusiveAttribution"/> over a call graph kept as data (TestVectors/callgrind.out.calls and its perf map):
/// the program's methods with what they called folded in, named first by a counted failure.
/// </summary>
public sealed class InclusiveAttributionTests
{
    private const string Add = "TextStats.WordCounter::Add";
    private const string Lambda = "TextStats.WordCounter+<>c::<Add>b__0";
    private const string Loop = "Program+<>c__DisplayClass0_0::<<Main>$>b__0";
    private const string Precompiled = "[precompiled framework code or runtime stubs]";
    private const string WriteBarrier = "stub GC write barrier (JIT_CopiedWriteBarriers)";
    private const string Unit = CountAttribution.InstructionsUnit;

    private static readonly string Vectors = Path.Combine(AppContext.BaseDirectory, "TestVectors");

    private static InstructionMeasurement Measured() =>
        CallgrindMeasurement.From("Text.Add", [CallgrindProfile.Read(Path.Combine(Vectors, "callgrind.out.calls"))],
            PerfMap.Read(Path.Combine(Vectors, "perf-calls.map")), "10.0.12", "3.19.0");

    [Fact]
    public void A_profile_keeps_each_calls_inclusive_cost_by_caller_and_callee()
    {
        var profile = CallgrindProfile.Read(Path.Combine(Vectors, "callgrind.out.calls"));

        profile.CallInstructions[("0x0000000050002000", "0x0000000050003000")].Should().Be(500, "the cost after calls= is the callee's and its callees'");
        profile.CallInstructions[("0x0000000050004000", "0x0000000050005000")].Should().Be(100);
        profile.CallInstructions.Should().HaveCount(9);
        profile.ExclusiveInstructions.Values.Sum().Should().Be(profile.Instructions, "the call lines stay out of the exclusive counts");
    }

    [Fact]
    public void Each_of_the_programs_methods_is_credited_with_what_it_called_up_to_the_next_of_its_own()
    {
        var fold = InclusiveAttribution.Of(Measured())!;

        fold.OwnMethods.Select(m => (m.Method, Math.Round(m.Inclusive, 9))).Should().Equal(
            [(Add, 2_050), (Lambda, 100), (Loop, 15)],
            "Add: its 1,000, the dictionary and its dispatch stub (500), the precompiled code and its write barrier (350) and "
            + "Select's own 200, but not the lambda Select called back; the loop: its 10 and the stub it reached Add through");
        fold.OwnMethods[0].Exclusive.Should().Be(1_000);
        fold.IsOwn("PerfBudgets.Measuring.InstructionRegion::Measure").Should().BeFalse("the package's own code is not the program's");
        fold.ShareOf(Add, "System.Linq.Enumerable::Select").Should().Be(1);
        fold.ShareOf(Add, "stub ReportStubBlock<MethodCallThunk>").Should().Be(0, "the stub Add was called through is its caller's");
    }

    [Fact]
    public void The_own_methods_and_the_code_no_own_method_called_add_up_to_the_whole()
    {
        var measured = Measured();
        var fold = InclusiveAttribution.Of(measured)!;

        (fold.OwnMethods.Sum(m => m.Inclusive) + 20).Should().Be(measured.InstructionsPerOperation, "only the package's region (20) is above every own method");
    }

    [Fact]
    public void A_counted_breakdown_names_the_programs_methods_first_then_the_framework_by_exclusive_count()
    {
        var attribution = CountAttribution.From(Measured(), BudgetKind.InstructionsMax);

        attribution.Summary.Should().StartWith($"instructions per op, own code with what it called: {Add} 2,050 (94 %, 1,000 its own), {Lambda} 100");
        attribution.Summary.Should().Contain($"; then by method (exclusive): System.Collections.Generic.Dictionary`2[System.__Canon,System.Int32]::FindValue 400");
        attribution.Entries.Should().Contain(e => e.Name == WriteBarrier && e.Value == 50, "the write barriers are labelled as what they are");
        attribution.Entries.Sum(e => e.Value).Should().Be(2_185, "the entries stay exclusive, as recordings keep them");
    }

    [Fact]
    public void Growth_through_a_framework_call_is_named_by_the_method_that_made_it()
    {
        var measured = Measured();
        var now = CountAttribution.From(measured, BudgetKind.InstructionsMax);
        // Recorded before Add called the precompiled code (300) and its write barrier (50).
        var recording = now.Entries.Where(e => e.Name is not Precompiled and not WriteBarrier).ToList();

        var grown = CountAttribution.Grown(now, recording, "the recording", InclusiveAttribution.Of(measured));

        grown.Should().Be(
            $"grew since the recording, own code with what it called: {Add} +350 {Unit} (now 2,050); "
            + $"then by method (exclusive): {Precompiled} +300 {Unit} (0 → 300), {WriteBarrier} +50 {Unit} (0 → 50)");
    }

    [Fact]
    public void Without_a_call_graph_the_breakdown_is_by_exclusive_count_as_before()
    {
        var measured = Measured() with { CallGraph = null };

        CountAttribution.From(measured, BudgetKind.InstructionsMax).Summary.Should().StartWith("instructions per op by method (exclusive): TextStats.WordCounter::Add 1,000");
        InclusiveAttribution.Of(measured).Should().BeNull();
    }

    [Fact]
    public void Per_item_the_fold_is_divided_like_the_counts()
    {
        var fold = InclusiveAttribution.Of(Measured().PerItem(10))!;

        fold.OwnMethods[0].Inclusive.Should().BeApproximately(205, 1e-9);
    }

    [Theory]
    [InlineData("TextStats", true)]
    [InlineData("TextStats.Workloads", true)]
    [InlineData("Newtonsoft.Json", true)] // a library the adopter chose: where a version bump's cost shows
    [InlineData("System.Linq", false)]
    [InlineData("System.Private.CoreLib", false)]
    [InlineData("Microsoft.AspNetCore.Http", false)]
    [InlineData("netstandard", false)]
    [InlineData("PerfBudgets", false)]
    [InlineData("PerfBudgets.Diagnostics", false)]
    public void The_programs_own_code_is_every_module_but_the_platforms_and_this_packages(string module, bool own) =>
        InclusiveAttribution.IsOwnModule(module).Should().Be(own);
}
