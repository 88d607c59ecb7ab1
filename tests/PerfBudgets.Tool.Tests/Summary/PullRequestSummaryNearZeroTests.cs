using System.Text.Json.Nodes;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tool.ResultsClient;
using PerfBudgets.Tool.Summary;

namespace PerfBudgets.Tool.Tests.Summary;

/// <summary>
/// The summary's "largest changes" with figures that wander around zero: a change within the budget's absolute noise
/// floor is not listed, and one from a base near zero is given in the budget's unit, ranked by its share of the limit,
/// not as a percentage of almost nothing (<c>Sockets.Echo.Growth</c> 0 → 0.008 once led the list as +851,235%).
/// </summary>
public sealed class PullRequestSummaryNearZeroTests
{
    private const string Budgets = """
        {
          "profiles": ["ci"],
          "noise": { "growth-exponent-max": 0.005, "retained-bytes-per-op-max": 1.0, "p99-ms-max": 0.4 },
          "noiseAbsolute": { "retained-bytes-per-op-max": 2 },
          "budgets": [
            { "name": "Echo.Growth", "kind": "growth-exponent-max", "limit": 0.02, "unit": "exponent", "noiseAbsolute": 0.011,
              "recorded": 0, "margin": 0.02, "recordedOn": { "runtime": "10.0.12", "valgrind": "3.19.0" } },
            { "name": "Pool.RetainedBytes", "kind": "retained-bytes-per-op-max", "limit": 64, "unit": "B/op" },
            { "name": "Api.P99Ms", "kind": "p99-ms-max", "limit": 50, "unit": "ms" },
            { "name": "Echo.RetainedBytes", "kind": "retained-bytes-per-op-max", "limit": 64, "unit": "B/op" }
          ]
        }
        """;

    [Fact]
    public void With_budgets_json_changes_within_the_absolute_floor_are_left_out_and_the_rest_ranked_by_a_meaningful_size()
    {
        var book = BudgetBook.Parse(Budgets, "budgets.json", "ci");

        var text = Render(book);

        text.Should().NotContain("| Echo.Growth |", "0 → 0.008 is within its floor of 0.011");
        text.Should().NotContain("| Pool.RetainedBytes |", "0.003 → 0.43 B is within the kind's floor of 2 B");
        text.Should().Contain("| Api.P99Ms | 12 | 15 | ms | +25% | worse |");
        text.Should().Contain("| Echo.RetainedBytes | 0.922 | -10 | B/op | -10.922 (17% of the limit) | better |");
        text.Should().Contain("2 changes no larger than the budget's absolute noise floor (`noiseAbsolute`) not listed.");
        text.Should().Contain("A change from a figure near 0 (under 5% of its limit) is given in the budget's unit");
        text.IndexOf("| Api.P99Ms |", StringComparison.Ordinal).Should().BeLessThan(text.IndexOf("| Echo.RetainedBytes |", StringComparison.Ordinal),
            "+25% ranks above a move of 17% of the limit");
    }

    [Fact]
    public void Without_budgets_json_a_change_from_near_zero_is_shown_in_the_unit_and_ranked_by_its_share_of_the_limit()
    {
        var text = Render(book: null);

        text.Should().NotContain("up from 0").And.NotContain("14,233%");
        text.Should().Contain("| Echo.Growth | 0 | 0.008 | exponent | +0.008 (40% of the limit) |");
        text.Should().Contain("| Pool.RetainedBytes | 0.003 | 0.43 | B/op | +0.427 (0.7% of the limit) |");
        Order(text, "| Echo.Growth |", "| Api.P99Ms |", "| Echo.RetainedBytes |", "| Pool.RetainedBytes |");
    }

    [Fact]
    public void An_informational_figure_from_near_zero_has_no_limit_to_rank_it_by_and_comes_after_the_ranked_changes()
    {
        var baseRun = Results(("Api.P99Ms", "p99-ms-max", 12, 50, "ms"), ("Stall.P99Ms", "info", 0.14, double.NaN, "ms"));
        var head = Results(("Api.P99Ms", "p99-ms-max", 12.6, 50, "ms"), ("Stall.P99Ms", "info", 3.381, double.NaN, "ms"));

        var text = PullRequestSummary.Render(head, new BaselineAnswer("b1", "b1", "{}"), PullRequestSummary.ByName(baseRun), null, [], "main", 10, 10);

        text.Should().Contain("| Stall.P99Ms | 0.14 | 3.381 | ms | +3.241 |").And.NotContain("2,315%");
        Order(text, "| Api.P99Ms | 12 | 12.6 | ms | +5% |", "| Stall.P99Ms |");
    }

    [Fact]
    public void Without_budgets_json_the_floor_the_head_run_recorded_with_its_figure_still_counts()
    {
        var text = Render(book: null, headNoiseAbsolute: new Dictionary<string, double> { ["Echo.Growth"] = 0.011, ["Pool.RetainedBytes"] = 2 });

        text.Should().NotContain("| Echo.Growth |").And.NotContain("| Pool.RetainedBytes |");
        text.Should().Contain("2 changes no larger than the budget's absolute noise floor");
    }

    // The summary's "largest changes" section.
    private static string Render(BudgetBook? book, IReadOnlyDictionary<string, double>? headNoiseAbsolute = null)
    {
        var baseRun = Results(("Echo.Growth", "growth-exponent-max", 0, 0.02, "exponent"), ("Pool.RetainedBytes", "retained-bytes-per-op-max", 0.003, 64, "B/op"),
            ("Api.P99Ms", "p99-ms-max", 12, 50, "ms"), ("Echo.RetainedBytes", "retained-bytes-per-op-max", 0.922, 64, "B/op"));
        var head = Results(("Echo.Growth", "growth-exponent-max", 0.008, 0.02, "exponent"), ("Pool.RetainedBytes", "retained-bytes-per-op-max", 0.43, 64, "B/op"),
            ("Api.P99Ms", "p99-ms-max", 15, 50, "ms"), ("Echo.RetainedBytes", "retained-bytes-per-op-max", -10, 64, "B/op"))
            .Select(r => headNoiseAbsolute?.GetValueOrDefault(r.Budget) is { } floor and > 0 ? r with { NoiseAbsolute = floor } : r)
            .ToList();
        var text = PullRequestSummary.Render(head, new BaselineAnswer("b1", "b1", "{}"), PullRequestSummary.ByName(baseRun), book, [], "main", 10, 10);
        // The largest changes only: the counted budgets' own table (Echo.Growth is one) follows it.
        var start = text.IndexOf("### Largest changes", StringComparison.Ordinal);
        return text[start..text.IndexOf("### Counted budgets", start, StringComparison.Ordinal)];
    }

    private static IReadOnlyList<BudgetResult> Results(params (string Budget, string Kind, double Measured, double Limit, string Unit)[] figures)
    {
        var results = new JsonArray();
        foreach (var f in figures)
        {
            results.Add(new JsonObject
            {
                ["budget"] = f.Budget, ["kind"] = f.Kind, ["measured"] = f.Measured, ["limit"] = double.IsNaN(f.Limit) ? null : f.Limit, ["unit"] = f.Unit,
                ["verdict"] = f.Kind == "info" ? "info" : "pass", ["profile"] = "ci", ["timestampUtc"] = "2026-11-24T20:00:00+00:00",
                ["machine"] = new JsonObject
                {
                    ["logicalCores"] = 2, ["operatingSystem"] = "Linux", ["architecture"] = "X64",
                    ["runtime"] = ".NET 10.0.12", ["gcMode"] = "workstation", ["concurrentGc"] = true,
                },
                ["detail"] = null,
            });
        }

        return ResultStore.Parse(new JsonObject { ["results"] = results }.ToJsonString());
    }

    private static void Order(string text, params string[] parts)
    {
        var positions = parts.Select(p => text.IndexOf(p, StringComparison.Ordinal)).ToList();
        positions.Should().NotContain(-1).And.BeInAscendingOrder();
    }
}
