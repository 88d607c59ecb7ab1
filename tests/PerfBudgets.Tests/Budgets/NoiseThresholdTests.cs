using PerfBudgets.Budgets;
using PerfBudgets.Tests.Support;

namespace PerfBudgets.Tests.Budgets;

public sealed class NoiseThresholdTests
{
    private readonly BudgetBook _book = TestBudgets.Read("noise-thresholds");

    [Fact]
    public void A_budget_without_its_own_threshold_takes_its_kinds()
    {
        _book.NoiseThreshold("A.CpuCost").Should().Be(new NoiseThreshold(0.5, 0, "kind"));
    }

    [Fact]
    public void A_budgets_own_threshold_overrides_its_kinds()
    {
        _book.NoiseThreshold("B.CpuCost").Should().Be(new NoiseThreshold(0.35, 0, "budget"));
    }

    [Fact]
    public void An_absolute_floor_comes_with_the_kinds_relative_threshold()
    {
        _book.NoiseThreshold("C.BytesPerOp").Should().Be(new NoiseThreshold(0.02, 0.25, "kind"));
    }

    [Fact]
    public void A_kind_without_a_threshold_is_an_error_not_a_default()
    {
        _book.Invoking(b => b.NoiseThreshold("D.P99Ms")).Should().Throw<BudgetFileException>()
            .WithMessage("*no noise threshold for budget 'D.P99Ms'*\"p99-ms-max\"*");
    }

    [Theory]
    [InlineData("""{ "profiles": ["ci"], "noise": [], "budgets": [] }""", "'noise' must be an object")]
    [InlineData("""{ "profiles": ["ci"], "noise": { "fast-enough": 0.1 }, "budgets": [] }""", "unknown kind 'fast-enough'")]
    [InlineData("""{ "profiles": ["ci"], "noise": { "cpu-cost-max": -0.1 }, "budgets": [] }""", "'cpu-cost-max' must be a number at least 0")]
    [InlineData("""{ "profiles": ["ci"], "budgets": [ { "name": "X", "kind": "bytes-max", "limit": 1, "unit": "B", "noise": "0.1" } ] }""", "'noise' must be a number at least 0")]
    public void A_malformed_threshold_is_rejected(string json, string expected)
    {
        var act = () => BudgetBook.Parse(json, "budgets.json", "ci");

        act.Should().Throw<BudgetFileException>().WithMessage($"*{expected}*");
    }

    [Fact]
    public void The_repositorys_budget_file_gives_every_budget_a_threshold_and_says_where_each_comes_from()
    {
        var path = BudgetBook.Locate();
        var book = BudgetBook.Load(path, "ci");
        using var document = System.Text.Json.JsonDocument.Parse(System.IO.File.ReadAllText(path));
        var sources = document.RootElement.GetProperty("noiseSources");

        foreach (var budget in book.Budgets)
        {
            var threshold = book.NoiseThreshold(budget.Name);
            if (threshold.Source == "kind")
            {
                sources.TryGetProperty(budget.Kind.Name, out _).Should().BeTrue($"the threshold of kind {budget.Kind} needs a source");
            }
        }

        foreach (var entry in document.RootElement.GetProperty("budgets").EnumerateArray())
        {
            if (entry.TryGetProperty("noise", out _) || entry.TryGetProperty("noiseAbsolute", out _))
            {
                entry.TryGetProperty("noiseSource", out var source).Should().BeTrue($"{entry.GetProperty("name")} overrides its noise and must say why");
                source.GetString().Should().NotBeNullOrWhiteSpace();
            }
        }

        book.NoiseThreshold("Json.Endpoint.Employees9.ServerBytesPerRequest").Relative.Should().Be(0.03); // 6,193 / 6,041 - 1 = 0.025
        book.NoiseThreshold("Json.Endpoint.Echo9.ServerInstructions").Relative.Should().Be(0.01); // its 10 runs: 630,890 to 635,492, over the kind's 0.005
        book.NoiseThreshold("Sockets.Echo.ServerInstructions").Relative.Should().Be(0.005); // no override: the kind's
    }
}
