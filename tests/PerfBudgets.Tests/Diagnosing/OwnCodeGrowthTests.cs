using PerfBudgets.Diagnosing;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tests.Diagnosing;

/// <summary>
/// <see cref="OwnCodeGrowth"/> and the counted comparison that uses it: a method's growth with what it called is its own
/// difference, so a change made through a framework method that other methods call too is named with its whole share.
/// </summary>
public sealed class OwnCodeGrowthTests
{
    private const string Unit = CountAttribution.InstructionsUnit;
    private const string Memmove = "System.Buffer::Memmove";
    private const string WriteChildren = "Markdown.Renderers.RendererBase::WriteChildren";
    private const string ReadLine = "Markdown.Parsers.LineReader::ReadLine";

    [Fact]
    public void Growth_through_a_framework_method_that_others_call_too_is_named_by_the_caller_that_grew_with_its_share()
    {
        // Recorded: ReadLine copies 900 instructions/op through Memmove, WriteChildren 100. The change: a ToList()
        // snapshot in WriteChildren copies 1,000 more. Credited in this run's shares, Memmove's +1,000 would go 55/45
        // to WriteChildren and ReadLine; their own differences say all of it is WriteChildren's.
        IReadOnlyList<AttributionEntry> recordedExclusive = [new(Memmove, 1_000, Unit, null), new(WriteChildren, 500, Unit, null), new(ReadLine, 400, Unit, null)];
        IReadOnlyList<AttributionEntry> recordedOwn = [new(ReadLine, 1_300, Unit, null), new(WriteChildren, 600, Unit, null)];
        var now = new Attribution("now", [new(Memmove, 2_000, Unit, null), new(WriteChildren, 500, Unit, null), new(ReadLine, 400, Unit, null)])
        {
            OwnCode = [new(WriteChildren, 1_600, Unit, null), new(ReadLine, 1_300, Unit, null)],
        };

        var grown = CountAttribution.Grown(now, recordedExclusive, "the recording", fold: null, recordedOwn, grewBy: 1_000);

        grown.Should().Be($"grew since the recording, own code with what it called: {WriteChildren} +1,000 {Unit} (100% of the +1,000 growth; 600 → 1,600); "
            + $"then by method (exclusive): {Memmove} +1,000 {Unit} (1,000 → 2,000)");
    }

    [Fact]
    public void A_state_machine_the_compiler_renumbered_since_the_recording_is_compared_with_itself()
    {
        // An async method added before CopyAsync took d__1; CopyAsync's state machine became d__3.
        const string Was = "IO.FileCopyLoop+<CopyAsync>d__1::MoveNext";
        const string Now = "IO.FileCopyLoop+<CopyAsync>d__3::MoveNext";
        const string Added = "IO.FileCopyLoop+<HashAsync>d__1::MoveNext";
        IReadOnlyList<AttributionEntry> recordedExclusive = [new(Was, 9_000, Unit, null), new(Memmove, 1_000, Unit, null)];
        var now = new Attribution("now", [new(Now, 9_500, Unit, null), new(Added, 300, Unit, null), new(Memmove, 1_000, Unit, null)])
        {
            OwnCode = [new(Now, 21_339, Unit, null), new(Added, 300, Unit, null)],
        };

        var grown = CountAttribution.Grown(now, recordedExclusive, "the recording", fold: null, [new(Was, 16_156, Unit, null)], grewBy: 5_483);

        grown.Should().Be($"grew since the recording, own code with what it called: {Now} +5,183 {Unit} (95% of the +5,483 growth; 16,156 → 21,339), "
            + $"{Added} +300 {Unit} (5% of the +5,483 growth; 0 → 300); then by method (exclusive): {Now} +500 {Unit} (9,000 → 9,500), {Added} +300 {Unit} (0 → 300)");
    }

    [Theory]
    [InlineData("App.Service+<>c::<Build>b__0_1", "two lambdas of one method: neither is taken for the other")]
    [InlineData("App.Service+<>c::<Build>b__0_0", "the recorded name is still there: the other one is new")]
    public void A_generated_name_that_does_not_match_one_to_one_is_new(string alsoNow, string why)
    {
        const string Recorded = "App.Service+<>c::<Build>b__0_0";
        const string Renamed = "App.Service+<>c::<Build>b__0_2";
        IReadOnlyList<AttributionEntry> before = [new(Recorded, 100, Unit, null)];
        IReadOnlyList<AttributionEntry> now = [new(Renamed, 150, Unit, null), new(alsoNow, 100, Unit, null)];

        OwnCodeGrowth.Describe(now, before, grewBy: null, "the recording", least: 1, keptAtMost: int.MaxValue).Should()
            .Contain($"{Renamed} +150 {Unit}", why).And.Contain("0 → 150", why);
    }

    [Theory]
    [InlineData("A+<RunAsync>d__12::MoveNext", "A+<RunAsync>d__#::MoveNext")]
    [InlineData("A+<>c__DisplayClass3_0::<Run>b__1", "A+<>c__DisplayClass#::<Run>b__#")]
    [InlineData("A::<Run>g__Step|3_0", "A::<Run>g__Step|#")]
    [InlineData("A::Run", "A::Run")]
    [InlineData("A+<>c::<.cctor>b__4_0", "A+<>c::<.cctor>b__#")]
    public void The_compilers_ordinals_are_taken_out_of_a_name(string name, string without) =>
        GeneratedNames.WithoutOrdinals(name).Should().Be(without);

    [Fact]
    public void A_method_missing_from_a_full_recording_is_compared_with_a_bound()
    {
        IReadOnlyList<AttributionEntry> before = [.. Enumerable.Range(0, 4).Select(i => new AttributionEntry($"M{i}", 100 - i, Unit, null))];
        IReadOnlyList<AttributionEntry> now = [new("New::Method", 500, Unit, null), .. before];

        OwnCodeGrowth.Describe(now, before, grewBy: 500, "the recording", least: 1, keptAtMost: 4).Should().Be(
            $"grew since the recording, own code with what it called: New::Method +403 {Unit} (81% of the +500 growth; at most 97 → 500)");
    }

    [Fact]
    public void A_sampled_change_within_its_sampling_error_is_not_named()
    {
        // 1,000 B/op from 400 samples errs by about 50 B/op each side: +100 is within three of those errors, +400 is not.
        IReadOnlyList<AttributionEntry> before = [new("App.Parse", 1_000, "B/op", null, 400)];

        OwnCodeGrowth.Describe([new("App.Parse", 1_100, "B/op", null, 400)], before, grewBy: null, "the recording", least: 1, keptAtMost: int.MaxValue).Should().BeNull();
        OwnCodeGrowth.Describe([new("App.Parse", 1_400, "B/op", null, 400)], before, grewBy: null, "the recording", least: 1, keptAtMost: int.MaxValue).Should()
            .Be("grew since the recording, own code with what it called: App.Parse +400 B/op (100% of the methods' growth; 1,000 → 1,400)");
    }

    [Fact]
    public void Against_a_reference_that_ran_none_of_the_methods_all_of_their_cost_is_growth() =>
        OwnCodeGrowth.Describe([new("App.Add", 48, "B/op", null, 900)], [], grewBy: 48, "the recording", least: 1, keptAtMost: int.MaxValue).Should()
            .Be("grew since the recording, own code with what it called: App.Add +48 B/op (100% of the +48 growth; 0 → 48)");

    [Fact]
    public void Nothing_grew_where_nothing_ran() =>
        OwnCodeGrowth.Describe([], [new("A", 10, Unit, null)], grewBy: null, "the recording", least: 1, keptAtMost: 40).Should().BeNull();
}
