using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Tool;

namespace PerfBudgets.Tool.Tests;

public sealed class ChangeTableTests
{
    private const string Book = """
        {
          "profiles": ["ci"],
          "noise": { "allocated-bytes-per-op": 0.02, "requests-per-second-min": 0.2, "errors-max": 0 },
          "budgets": [
            { "name": "T.Alloc.BytesPerOp", "kind": "allocated-bytes-per-op", "limit": 200, "unit": "B/op" },
            { "name": "T.Endpoint.RequestsPerSecond", "kind": "requests-per-second-min", "limit": 500, "unit": "req/s" },
            { "name": "T.Tight.RequestsPerSecond", "kind": "requests-per-second-min", "limit": 500, "unit": "req/s", "noise": 0.05 },
            { "name": "T.Endpoint.FailedRequests", "kind": "errors-max", "limit": 0, "unit": "requests" },
            { "name": "T.Small.BytesPerOp", "kind": "allocated-bytes-per-op", "limit": 10, "unit": "B/op", "noiseAbsolute": 4 },
            { "name": "T.Endpoint.P99Ms", "kind": "p99-ms-max", "limit": 50, "unit": "ms" }
          ]
        }
        """;

    private static readonly BudgetBook BudgetBook = BudgetBook.Parse(Book, "budgets.json", "ci");

    private static BudgetResult Result(string budget, string kind, double measured, string unit, BudgetVerdict verdict = BudgetVerdict.Pass) =>
        new(budget, kind, measured, kind == "info" ? null : 100, unit, verdict, "ci", DateTimeOffset.UnixEpoch, MachineInfo.Current, null);

    private static Dictionary<string, BudgetResult> Run(params BudgetResult[] results) => results.ToDictionary(r => r.Budget, StringComparer.Ordinal);

    private static readonly Dictionary<string, BudgetResult> Base = Run(
        Result("T.Alloc.BytesPerOp", "allocated-bytes-per-op", 100, "B/op"),
        Result("T.Endpoint.RequestsPerSecond", "requests-per-second-min", 1000, "req/s"),
        Result("T.Tight.RequestsPerSecond", "requests-per-second-min", 1000, "req/s"),
        Result("T.Endpoint.FailedRequests", "errors-max", 0, "requests"),
        Result("T.Small.BytesPerOp", "allocated-bytes-per-op", 1, "B/op"),
        Result("T.Endpoint.P99Ms", "p99-ms-max", 10, "ms"),
        Result("T.Info.Cycles", "info", 2000, "cycles/op", BudgetVerdict.Info),
        Result("T.Gone.BytesPerOp", "allocated-bytes-per-op", 40, "B/op"));

    private static readonly Dictionary<string, BudgetResult> Head = Run(
        Result("T.Alloc.BytesPerOp", "allocated-bytes-per-op", 110, "B/op"),
        Result("T.Endpoint.RequestsPerSecond", "requests-per-second-min", 900, "req/s"),
        Result("T.Tight.RequestsPerSecond", "requests-per-second-min", 900, "req/s"),
        Result("T.Endpoint.FailedRequests", "errors-max", 3, "requests", BudgetVerdict.Fail),
        Result("T.Small.BytesPerOp", "allocated-bytes-per-op", 4, "B/op"),
        Result("T.Endpoint.P99Ms", "p99-ms-max", 20, "ms"),
        Result("T.Info.Cycles", "info", 2000.5, "cycles/op", BudgetVerdict.Info),
        Result("T.New.BytesPerOp", "allocated-bytes-per-op", 5, "B/op"));

    // budget, the row of the table with the budget book's noise thresholds.
    public static TheoryData<string, string> Rows => new()
    {
        // +10% against a 2% threshold: flagged.
        { "T.Alloc.BytesPerOp", "| T.Alloc.BytesPerOp | 100 | 110 | B/op | +10% | 2% | **worse** | pass → pass |" },
        // 10% slower is within the kind's 20%, but not within the budget's own 5%.
        { "T.Endpoint.RequestsPerSecond", "| T.Endpoint.RequestsPerSecond | 1,000 | 900 | req/s | -10% | 20% |  | pass → pass |" },
        { "T.Tight.RequestsPerSecond", "| T.Tight.RequestsPerSecond | 1,000 | 900 | req/s | -10% | 5% | **worse** | pass → pass |" },
        // From 0: any failure is worse than a 0% threshold.
        { "T.Endpoint.FailedRequests", "| T.Endpoint.FailedRequests | 0 | 3 | requests | up from 0 | 0% | **worse** | pass → fail |" },
        // +300%, but only 3 B: within the 4 B absolute floor.
        { "T.Small.BytesPerOp", "| T.Small.BytesPerOp | 1 | 4 | B/op | +300% | 2% and 4 |  | pass → pass |" },
        // The book gives p99-ms-max no threshold: the change, unflagged.
        { "T.Endpoint.P99Ms", "| T.Endpoint.P99Ms | 10 | 20 | ms | +100% | — |  | pass → pass |" },
        // Not in the book: the change, no threshold (figures from 1,000 up are shown whole, the change is not rounded to 0).
        { "T.Info.Cycles", "| T.Info.Cycles | 2,000 | 2,001 | cycles/op | +<0.1% | — |  | info → info |" },
        { "T.Gone.BytesPerOp", "| T.Gone.BytesPerOp | 40 | — | B/op | — | — |  | pass → — |" },
        { "T.New.BytesPerOp", "| T.New.BytesPerOp | — | 5 | B/op | — | — |  | — → pass |" },
    };

    [Theory]
    [MemberData(nameof(Rows))]
    public void Each_budget_is_one_row_with_its_change_and_the_flag_of_its_noise_threshold(string budget, string row)
    {
        var lines = ChangeTable.Compare(Base, Head, BudgetBook).Render().Split('\n');

        lines.Should().ContainSingle(l => l.StartsWith($"| {budget} |", StringComparison.Ordinal)).Which.Should().Be(row);
    }

    [Fact]
    public void The_table_is_sorted_by_name_and_ends_with_the_counts()
    {
        var table = ChangeTable.Compare(Base, Head, BudgetBook);
        var lines = table.Render().TrimEnd('\n').Split('\n');

        lines[0].Should().Be("| Budget | Base | Head | Unit | Change | Noise threshold | Flag | Verdict (base → head) |");
        table.Rows.Select(r => r.Budget).Should().BeInAscendingOrder(StringComparer.Ordinal).And.HaveCount(9);
        table.Rows.Where(r => r.Flagged).Select(r => r.Budget).Should().Equal("T.Alloc.BytesPerOp", "T.Endpoint.FailedRequests", "T.Tight.RequestsPerSecond");
        lines[^1].Should().Be("7 compared, 3 worse than their noise threshold; 1 only in base, 1 only in head. 2 without a noise threshold in budgets.json (—) are not flagged.");
    }

    [Fact]
    public void Without_a_budget_book_the_changes_are_shown_and_nothing_is_flagged()
    {
        var table = ChangeTable.Compare(Base, Head, book: null);
        var text = table.Render();

        table.Rows.Should().NotContain(r => r.Flagged);
        text.Should().Contain("| T.Alloc.BytesPerOp | 100 | 110 | B/op | +10% | — |  | pass → pass |");
        text.Should().EndWith("7 compared, 0 worse than their noise threshold; 1 only in base, 1 only in head. Nothing is flagged without --budgets (the noise thresholds are in budgets.json).\n");
    }

    [Fact]
    public void A_run_compared_with_itself_changes_nothing()
    {
        var table = ChangeTable.Compare(Head, Head, BudgetBook);

        table.Rows.Where(r => r.Comparison is not null).Select(r => ChangeTable.Change(r.Comparison)).Should().AllBe("0%");
        table.Rows.Should().NotContain(r => r.Flagged);
    }
}
