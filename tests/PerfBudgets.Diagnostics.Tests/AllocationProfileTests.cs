namespace PerfBudgets.Diagnostics.Tests;

/// <summary>
/// <see cref="AllocationProfile.Describe"/>: the program's own allocating methods first, then the frames that did the
/// allocating when they are the framework's, then the types.
/// </summary>
public sealed class AllocationProfileTests
{
    // The samples' ToList_Snapshot break as a profile: List<string> and its array, allocated by List's constructor
    // inside Enumerable.ToList, called from WordCounter.Add.
    private static readonly AllocationProfile Snapshot = new(
        [new TypeAllocation("System.String[]", 750, 100), new TypeAllocation("System.Collections.Generic.List`1[System.String]", 343, 53)],
        Operations: 10_000, Samples: 153, EventName: "AllocationSampled", Elapsed: TimeSpan.FromSeconds(1))
    {
        Methods = [new MethodAllocation("TextStats.WordCounter.Add", 1_093, 153)],
        AllocatingFrames = [new MethodAllocation("System.Collections.Generic.List`1[System.__Canon]..ctor", 1_093, 153)],
    };

    [Fact]
    public void A_framework_calls_allocation_is_named_by_the_method_that_made_the_call_first() =>
        Snapshot.Describe().Should().StartWith(
            "allocated in, own code with what it called: TextStats.WordCounter.Add ≈ 1,093 B; "
            + "innermost frames: System.Collections.Generic.List`1[System.__Canon]..ctor ≈ 1,093 B; "
            + "top types per op: System.String[] ≈ 750 B, System.Collections.Generic.List`1[System.String] ≈ 343 B (≈ 1,093 B/op in all");

    [Fact]
    public void Frames_that_are_the_own_methods_themselves_are_not_repeated() =>
        (Snapshot with { AllocatingFrames = Snapshot.Methods }).Describe().Should().NotContain("innermost frames");

    [Fact]
    public void Without_stacks_the_types_come_first() =>
        (Snapshot with { Methods = [], AllocatingFrames = [] }).Describe().Should().StartWith("top types per op: System.String[] ≈ 750 B");
}
