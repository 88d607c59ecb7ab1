using PerfBudgets.Budgets;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Budgets;

/// <summary>
/// <c>noiseAbsolute</c> per kind (the file's top-level object) and per budget, and the noise threshold every
/// results.json entry now carries with its figure.
/// </summary>
public sealed class NoiseAbsoluteTests : IDisposable
{
    private readonly TestBudgets _budgets = new("noise-absolute");

    [Fact]
    public void A_budget_takes_its_kinds_absolute_floor_its_own_overrides_it_and_a_kind_without_one_has_none()
    {
        _budgets.Book.NoiseThreshold("A.RetainedBytes").Should().Be(new NoiseThreshold(1.0, 2, "kind"));
        _budgets.Book.NoiseThreshold("B.RetainedBytes").Should().Be(new NoiseThreshold(1.0, 0.5, "kind"));
        _budgets.Book.NoiseThreshold("C.BytesPerOp").Should().Be(new NoiseThreshold(0.02, 0, "kind"));
    }

    [Theory]
    [InlineData("""{ "profiles": ["ci"], "noiseAbsolute": [], "budgets": [] }""", "'noiseAbsolute' must be an object")]
    [InlineData("""{ "profiles": ["ci"], "noiseAbsolute": { "fast-enough": 1 }, "budgets": [] }""", "'noiseAbsolute' names unknown kind 'fast-enough'")]
    [InlineData("""{ "profiles": ["ci"], "noiseAbsolute": { "bytes-max": -1 }, "budgets": [] }""", "'bytes-max' must be a number at least 0")]
    public void A_malformed_kind_floor_is_rejected(string json, string expected)
    {
        var act = () => BudgetBook.Parse(json, "budgets.json", "ci");

        act.Should().Throw<BudgetFileException>().WithMessage($"*{expected}*");
    }

    [Fact]
    public void The_repositorys_figures_that_wander_around_zero_have_an_absolute_floor()
    {
        var book = BudgetBook.Load(BudgetBook.Locate(), "ci");

        // 0 → 0.008 of an exponent recorded at 0 is within its spread over 30 unchanged runs (-0.0083 to 0.0018).
        book.NoiseThreshold("Sockets.Echo.Growth").Absolute.Should().Be(0.011);
        // 0.003 → 0.43 B is within the kind's floor; every retained-bytes budget takes it.
        book.Budgets.Where(b => b.Kind == BudgetKind.RetainedBytesPerOpMax).Should().NotBeEmpty()
            .And.OnlyContain(b => book.NoiseThreshold(b.Name).Absolute == 2);
    }

    [Fact]
    public void Every_entry_the_gate_records_carries_its_budgets_noise_threshold_and_an_informational_figure_none()
    {
        var gate = _budgets.Gate();
        gate.Check("A.RetainedBytes", 0.43);
        gate.Check("C.BytesPerOp", 80);
        gate.Observe("E.Informational", 3, "ms");

        var json = File.ReadAllText(gate.Store.ResultsPath);
        var results = ResultStore.Parse(json).ToDictionary(r => r.Budget);
        (results["A.RetainedBytes"].Noise, results["A.RetainedBytes"].NoiseAbsolute).Should().Be((1.0, 2.0));
        (results["C.BytesPerOp"].Noise, results["C.BytesPerOp"].NoiseAbsolute).Should().Be((0.02, 0.0));
        (results["E.Informational"].Noise, results["E.Informational"].NoiseAbsolute).Should().Be((null, null));
        json.Should().Contain("\"noise\": 0.02").And.Contain("\"noiseAbsolute\": 2");
    }

    [Fact]
    public void An_entry_written_before_the_noise_was_recorded_still_reads_with_none()
    {
        const string old = """
            { "results": [ { "budget": "A.RetainedBytes", "kind": "retained-bytes-per-op-max", "measured": 0.43, "limit": 64,
              "unit": "B/op", "verdict": "pass", "profile": "ci", "timestampUtc": "2026-11-24T20:00:00+00:00",
              "machine": { "logicalCores": 2, "operatingSystem": "Linux", "architecture": "X64", "runtime": ".NET 10.0.12",
                           "gcMode": "workstation", "concurrentGc": true }, "detail": null } ] }
            """;

        var entry = ResultStore.Parse(old).Single();

        entry.Measured.Should().Be(0.43);
        (entry.Noise, entry.NoiseAbsolute).Should().Be((null, null));
    }

    public void Dispose() => _budgets.Dispose();
}
