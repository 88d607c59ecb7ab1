using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Tool.Proposals;
using PerfBudgets.Tool;

namespace PerfBudgets.Tool.Tests;

public sealed class ProposalListingTests
{
    // Written as perfbudgets writes budgets.json (two-space indent), so a rewrite changes only the proposed numbers.
    private const string File = """
        {
          "profiles": [
            "ci",
            "local"
          ],
          "budgets": [
            {
              "name": "P.Alloc.BytesPerOp",
              "kind": "allocated-bytes-per-op",
              "limit": 1200,
              "unit": "B/op",
              "description": "Allocation: max(1%, 64 B) above the highest run."
            },
            {
              "name": "P.Decode.Instructions",
              "kind": "instructions-max",
              "limit": 1500,
              "unit": "instructions/op",
              "recorded": 1000,
              "margin": 0.5,
              "recordedOn": {
                "runtime": "10.0.0",
                "valgrind": "3.19.0"
              }
            },
            {
              "name": "P.Endpoint.RequestsPerSecond",
              "kind": "requests-per-second-min",
              "limit": 5000,
              "unit": "req/s",
              "profiles": {
                "local": 8000
              }
            },
            {
              "name": "P.Endpoint.P99Ms",
              "kind": "p99-ms-max",
              "limit": 50,
              "unit": "ms"
            },
            {
              "name": "P.Exact.BytesPerOp",
              "kind": "allocated-bytes-per-op",
              "limit": 0,
              "unit": "B/op"
            },
            {
              "name": "P.Unmeasured.BytesPerOp",
              "kind": "allocated-bytes-per-op",
              "limit": 100,
              "unit": "B/op"
            }
          ]
        }

        """;

    private static HistoryEntry Entry(string run, string budget, string kind, double measured, BudgetVerdict verdict = BudgetVerdict.Pass, string profile = "ci") =>
        new(run, null, budget, kind, measured, null, "units", verdict, profile, DateTimeOffset.UnixEpoch);

    private static readonly HistoryEntry[] History =
    [
        Entry("r1", "P.Alloc.BytesPerOp", "allocated-bytes-per-op", 1000),
        Entry("r2", "P.Alloc.BytesPerOp", "allocated-bytes-per-op", 1020),
        Entry("r3", "P.Alloc.BytesPerOp", "allocated-bytes-per-op", 1010),
        // Skipped: another profile, another kind than the budget has now, not measured, NaN.
        Entry("r4", "P.Alloc.BytesPerOp", "allocated-bytes-per-op", 5000, profile: "local"),
        Entry("r5", "P.Alloc.BytesPerOp", "bytes-max", 5000),
        Entry("r6", "P.Alloc.BytesPerOp", "allocated-bytes-per-op", 5000, BudgetVerdict.NotMeasured),
        Entry("r7", "P.Alloc.BytesPerOp", "allocated-bytes-per-op", double.NaN, BudgetVerdict.Fail),
        Entry("r1", "P.Decode.Instructions", "instructions-max", 1100),
        Entry("r2", "P.Decode.Instructions", "instructions-max", 1300),
        Entry("r3", "P.Decode.Instructions", "instructions-max", 1200),
        // A run that measured the budget twice (repeated on a busy machine) counts with its last figure.
        Entry("r1", "P.Endpoint.RequestsPerSecond", "requests-per-second-min", 3000, BudgetVerdict.Fail),
        Entry("r1", "P.Endpoint.RequestsPerSecond", "requests-per-second-min", 12000),
        Entry("r2", "P.Endpoint.RequestsPerSecond", "requests-per-second-min", 9000),
        Entry("r1", "P.Endpoint.P99Ms", "p99-ms-max", 12.5),
        Entry("r2", "P.Endpoint.P99Ms", "p99-ms-max", 20),
        Entry("r1", "P.Exact.BytesPerOp", "allocated-bytes-per-op", 0),
        Entry("r1", "P.Info.Cycles", "info", 10, BudgetVerdict.Info),
        Entry("r1", "P.Unmeasured.BytesPerOp", "allocated-bytes-per-op", 50, BudgetVerdict.NotMeasured),
    ];

    private static string Listing(string profile, out IReadOnlyList<LimitProposal> proposals)
    {
        proposals = HistoryProposals.From(BudgetBook.Parse(File, "budgets.json", profile), History);
        return ProposalListing.Render(proposals, BudgetsFile.Parse(File), "budgets.json", "history.jsonl", profile);
    }

    [Fact]
    public void The_listing_is_a_diff_of_budgets_json_with_each_budgets_runs_and_rule()
    {
        var listing = Listing("ci", out var proposals);

        listing.Should().Be("""
            --- budgets.json
            +++ budgets.json (proposed from history.jsonl, profile ci)
            @@ P.Alloc.BytesPerOp (allocated-bytes-per-op, B/op): 3 runs, min 1,000, median 1,010, max 1,020; max(1%, 64 B) above the highest run
            -      "limit": 1200
            +      "limit": 1084
            @@ P.Decode.Instructions (instructions-max, instructions/op): 3 runs, min 1,100, median 1,200, max 1,300; recorded = median of the runs, limit = ceil(recorded x (1 + margin) + marginAbsolute, 2 decimals); recordedOn left as it was
            -      "limit": 1500
            +      "limit": 1800
            -      "recorded": 1000
            +      "recorded": 1200
            @@ P.Endpoint.RequestsPerSecond (requests-per-second-min, req/s): 2 runs, min 9,000, median 10,500, max 12,000; 1.5x below the slowest run
            -      "limit": 5000
            +      "limit": 6000
            @@ P.Endpoint.P99Ms (p99-ms-max, ms): 2 runs, min 12.5, median 16.25, max 20; no policy: set by hand
                   "limit": 50
            @@ P.Exact.BytesPerOp (allocated-bytes-per-op, B/op): 1 run, min 0, median 0, max 0; exact: every run measured the same whole figure; unchanged
                   "limit": 0
            3 of 5 budgets with runs would change; 1 have no policy and are set by hand.

            """.ReplaceLineEndings("\n"));
        proposals.Select(p => p.Budget).Should().NotContain("P.Unmeasured.BytesPerOp").And.NotContain("P.Info.Cycles");
    }

    [Fact]
    public void Writing_the_proposals_changes_only_their_numbers_and_the_book_still_loads()
    {
        Listing("ci", out var proposals);
        var file = BudgetsFile.Parse(File);

        file.Apply(proposals, "ci").Should().Be(3);
        var written = file.ToText();

        written.Should().Be(File
            .Replace("\"limit\": 1200,", "\"limit\": 1084,", StringComparison.Ordinal)
            .Replace("\"limit\": 1500,", "\"limit\": 1800,", StringComparison.Ordinal)
            .Replace("\"recorded\": 1000,", "\"recorded\": 1200,", StringComparison.Ordinal)
            .Replace("\"limit\": 5000,", "\"limit\": 6000,", StringComparison.Ordinal));
        var book = BudgetBook.Parse(written, "budgets.json", "ci");
        book.Get("P.Decode.Instructions").Should().Match<Budget>(b => b.Limit == 1800 && b.Recorded == 1200 && b.Margin == 0.5);
        book.Get("P.Endpoint.RequestsPerSecond").Limit.Should().Be(6000);
        BudgetBook.Parse(written, "budgets.json", "local").Get("P.Endpoint.RequestsPerSecond").Limit.Should().Be(8000);
    }

    [Fact]
    public void A_limit_overridden_for_the_profile_is_proposed_and_written_in_the_override()
    {
        var history = new[] { Entry("l1", "P.Endpoint.RequestsPerSecond", "requests-per-second-min", 15000, profile: "local") };
        var proposals = HistoryProposals.From(BudgetBook.Parse(File, "budgets.json", "local"), history);
        var file = BudgetsFile.Parse(File);

        ProposalListing.Render(proposals, file, "budgets.json", "history.jsonl", "local").Should().Contain("""
            -      "local": 8000
            +      "local": 10000
            """.ReplaceLineEndings("\n"));
        file.Apply(proposals, "local");
        var book = BudgetBook.Parse(file.ToText(), "budgets.json", "local");
        book.Get("P.Endpoint.RequestsPerSecond").Limit.Should().Be(10000);
        BudgetBook.Parse(file.ToText(), "budgets.json", "ci").Get("P.Endpoint.RequestsPerSecond").Limit.Should().Be(5000);
    }

    [Fact]
    public void The_repository_budget_book_round_trips_unchanged()
    {
        var text = System.IO.File.ReadAllText(BudgetBook.Locate());

        BudgetsFile.Parse(text).ToText().Should().Be(text);
    }
}
