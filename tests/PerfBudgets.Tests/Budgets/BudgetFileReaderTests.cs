using PerfBudgets.Budgets;

namespace PerfBudgets.Tests.Budgets;

public sealed class BudgetFileReaderTests
{
    // Each malformed file, and the words its error must contain.
    public static TheoryData<string, string> BadFiles => new()
    {
        { "not json", "not valid JSON" },
        { """{ "budgets": [] }""", "'profiles'" },
        { """{ "profiles": ["local"], "budgets": [] }""", "profile 'ci'" },
        { """{ "profiles": ["ci"] }""", "'budgets' must be an array" },
        { """{ "profiles": ["ci"], "budgets": [ { "kind": "bytes-max", "limit": 1, "unit": "B" } ] }""", "'name'" },
        { """{ "profiles": ["ci"], "budgets": [ { "name": "X", "kind": "fast-enough", "limit": 1, "unit": "B" } ] }""", "unknown kind 'fast-enough'" },
        { """{ "profiles": ["ci"], "budgets": [ { "name": "X", "kind": "bytes-max", "limit": "1", "unit": "B" } ] }""", "numeric 'limit'" },
        { """{ "profiles": ["ci"], "budgets": [ { "name": "X", "kind": "bytes-max", "limit": 1 } ] }""", "'unit'" },
        { """{ "profiles": ["ci"], "budgets": [ { "name": "X", "kind": "bytes-max", "limit": 1, "unit": "B", "profiles": { "nightly": 2 } } ] }""", "unknown profile 'nightly'" },
        { """{ "profiles": ["ci"], "budgets": [ { "name": "X", "kind": "bytes-max", "limit": 1, "unit": "B" }, { "name": "X", "kind": "bytes-max", "limit": 1, "unit": "B" } ] }""", "defined twice" },
        { """{ "profiles": ["ci"], "budgets": [ { "name": "X", "kind": "bytes-max", "limit": 1, "unit": "B", "pairedRule": "catch" } ] }""", "'pairedRule' applies to paired budgets only" },
        { """{ "profiles": ["ci"], "budgets": [ { "name": "X", "kind": "vs-base-ratio-max", "limit": 1.05, "unit": "head/base", "pairedRule": "strict" } ] }""", "'pairedRule' is \"strict\"; it is \"catch\"*or \"beyond\"" },
        { """{ "profiles": ["ci"], "budgets": [ { "name": "X", "kind": "vs-base-ratio-max", "limit": 1.05, "unit": "head/base", "pairedRule": 1 } ] }""", "'pairedRule' is 1;" },
    };

    [Theory]
    [MemberData(nameof(BadFiles))]
    public void A_malformed_file_is_rejected_with_a_message_naming_the_problem(string json, string expected)
    {
        var act = () => BudgetFileReader.Read(json, "budgets.json", "ci", targetFramework: null);

        act.Should().Throw<BudgetFileException>().WithMessage($"*{expected}*");
    }

    [Fact]
    public void A_paired_budget_catches_its_limit_unless_it_says_beyond()
    {
        var book = BudgetFileReader.Read("""
            { "profiles": ["ci"],
              "budgets": [ { "name": "X", "kind": "vs-base-ratio-max", "limit": 1.05, "unit": "head/base" },
                           { "name": "Y", "kind": "vs-base-ratio-min", "limit": 0.95, "unit": "head/base", "pairedRule": "beyond" } ] }
            """, "budgets.json", "ci", targetFramework: null);

        book.Get("X").PairedRule.Should().Be(PairedRule.Catch);
        book.Get("Y").PairedRule.Should().Be(PairedRule.Beyond);
    }

    [Fact]
    public void A_budgets_own_noise_and_its_kinds_absolute_floor_are_read_beside_it()
    {
        var book = BudgetFileReader.Read("""
            { "profiles": ["ci"], "noise": { "bytes-max": 0.1 }, "noiseAbsolute": { "bytes-max": 4 },
              "budgets": [ { "name": "X", "kind": "bytes-max", "limit": 1, "unit": "B", "noise": 0.2 },
                           { "name": "Y", "kind": "bytes-max", "limit": 1, "unit": "B" } ] }
            """, "budgets.json", "ci", targetFramework: null);

        (book.Get("X").Noise, book.Get("X").NoiseAbsolute).Should().Be((0.2, 4.0));
        (book.Get("Y").Noise, book.KindNoise("bytes-max")).Should().Be((null, 0.1));
    }

    [Fact]
    public void A_counted_limit_that_is_not_its_recording_plus_margin_names_the_sum()
    {
        var act = () => BudgetFileReader.Read("""
            { "profiles": ["ci"], "budgets": [ { "name": "X", "kind": "instructions-max", "limit": 1000, "unit": "instructions/op",
              "recorded": 1000, "margin": 0.01, "recordedOn": { "runtime": "10.0.12", "valgrind": "3.19.0" } } ] }
            """, "budgets.json", "ci", targetFramework: null);

        act.Should().Throw<BudgetFileException>()
            .WithMessage("budgets.json: budget 'X': limit 1000 is not recorded 1000 + margin 1.0 % = 1010; change 'recorded' or 'margin' (or re-record), not the limit.");
    }
}
