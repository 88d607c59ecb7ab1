using PerfBudgets.Diagnosing;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tests.Diagnosing;

/// <summary><see cref="CountAttribution.Grown"/>: the methods whose counts grew since a recording that keeps only its largest.</summary>
public sealed class CountAttributionTests
{
    private const string Unit = CountAttribution.InstructionsUnit;

    // A recording of the 40 largest methods, Recorded0 (1,000) down to Recorded39 (610).
    private static readonly IReadOnlyList<AttributionEntry> Recording =
        [.. Enumerable.Range(0, CountAttribution.Kept).Select(i => new AttributionEntry($"Recorded{i}", 1_000 - (10 * i), Unit, null))];

    [Fact]
    public void A_recorded_methods_growth_is_its_own_exact_delta()
    {
        var now = new Attribution("now", [new AttributionEntry("Recorded3", 1_470, Unit, null)]);

        CountAttribution.Grown(now, Recording, "the recording").Should().Be("grew since the recording: Recorded3 +500 instructions/op (970 → 1,470)");
    }

    [Fact]
    public void A_method_new_since_the_recording_is_shown_against_a_bound_not_as_if_it_were_its_count()
    {
        var now = new Attribution("now", [new AttributionEntry("App::CountParagraphStarts", 243_302, Unit, null)]);

        CountAttribution.Grown(now, Recording, "the recording").Should().Be(
            "grew since the recording: App::CountParagraphStarts at least +242,692 instructions/op (not among the 40 recorded, so at most 610 then → 243,302)");
    }
}
