using PerfBudgets.Tool.Locust;
using PerfBudgets.Reporting;

namespace PerfBudgets.Tool.Tests.Locust;

// Locust's CSV statistics turned into the harness's load result, from two recorded runs kept as data
// (TestVectors/locust-*, provenance in TestVectors/locust-SOURCE.txt), so the conversion is covered without Locust.
public sealed class LocustStatsTests
{
    private static readonly string Vectors = Path.Combine(AppContext.BaseDirectory, "TestVectors");
    private static readonly string Employees9 = Path.Combine(Vectors, "locust-employees9");
    private static readonly string DelayFailing = Path.Combine(Vectors, "locust-delay-failing");

    private const string StatsHeader = "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,Max Response Time,Average Content Size,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%";
    private const string HistoryHeader = "Timestamp,User Count,Type,Name,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%,Total Request Count,Total Failure Count,Total Median Response Time,Total Average Response Time,Total Min Response Time,Total Max Response Time,Total Average Content Size";
    private const string FailuresHeader = "Method,Name,Error,Occurrences";

    [Fact]
    public void A_recorded_run_gives_its_totals_window_and_percentiles()
    {
        var stats = LocustStats.Read(Employees9);

        stats.Requests.Should().Be(37_867);
        stats.Failures.Should().Be(0);
        stats.RequestsPerSecond.Should().BeApproximately(6301.319, 0.001);
        stats.MeasuredSeconds.Should().BeApproximately(37_867 / 6301.319002824542, 1e-9, "Locust's window: requests ÷ its whole-run rate");
        stats.PercentilesMs.Should().Contain("99%", 6).And.Contain("50%", 1).And.Contain("99.9%", 13).And.Contain("100%", 71);
        stats.MaxMs.Should().Be(71);
        stats.Errors.Should().BeEmpty();
    }

    [Fact]
    public void The_per_second_series_is_the_growth_of_the_historys_running_totals()
    {
        var stats = LocustStats.Read(Employees9);

        // Totals 0 (…036), 516, 6,468, 12,626, 19,027, 25,397, 37,867 (042, repeated until 044): the series starts after
        // the last row that counted nothing and ends at the first that holds the final totals. The last second holds
        // the workers' final reports.
        stats.SuccessesPerSecond.Should().Equal(516, 5_952, 6_158, 6_401, 6_370, 12_470);
        stats.SuccessesPerSecond.Sum().Should().Be(stats.Requests - stats.Failures);
    }

    [Fact]
    public void The_load_result_is_a_closed_model_run_of_the_users_with_Locusts_figures()
    {
        var result = LocustStats.Read(Employees9).ToLoadResult("Json.Endpoint.Employees9.Distributed", "Locust: 2 workers, 16 users, 6 s", users: 16);

        result.Scenario.Should().Be("Json.Endpoint.Employees9.Distributed");
        result.Model.Should().Be("closed");
        result.Copies.Should().Be(16);
        result.TargetRate.Should().BeNull();
        result.Completed.Should().Be(37_867);
        result.Failed.Should().Be(0);
        (result.P50Ms, result.P75Ms, result.P90Ms, result.P95Ms, result.P99Ms, result.MaxMs).Should().Be((1d, 2d, 2d, 3d, 6d, 71d));
        result.RequestsPerSecond.Should().BeApproximately(6301.319, 0.001, "every success is in the per-second series, over Locust's window");
        result.BytesReceived.Should().Be(4_489L * 37_867, "every answer was the 4,489-byte list");
        result.PeakInFlight.Should().Be(16, "a Locust user has one request in flight at most");

        result.Requests.Should().Be(37_867, "Locust's own count: its files hold no status codes");
        result.StatusCodes.Should().BeEmpty();
    }

    [Fact]
    public void Failures_are_counted_per_distinct_error_and_a_warm_up_runs_failures_are_never_hidden()
    {
        var failing = LocustStats.Read(DelayFailing);

        // The Error field is quoted and holds doubled quotes: "CatchResponseError('status 400')" quoted once more by the CSV writer.
        failing.Errors.Should().Equal(new Dictionary<string, long> { ["GET Api.DelayAsync: \"CatchResponseError('status 400')\""] = 9_355 });
        var alone = failing.ToLoadResult("Api.DelayAsync.Distributed", "Locust", users: 8);
        alone.Completed.Should().Be(0);
        alone.Failed.Should().Be(9_355);
        alone.RequestsPerSecond.Should().Be(0, "no request succeeded");
        alone.RequestsPerSecondBuckets.Should().Equal(0, 0, 0, 0);

        var afterFailingWarmUp = LocustStats.Read(Employees9).ToLoadResult("Json.Endpoint.Employees9.Distributed", "Locust", users: 16, warmUp: failing);
        afterFailingWarmUp.Failed.Should().Be(9_355);
        afterFailingWarmUp.Errors.Should().ContainKey("GET Api.DelayAsync: \"CatchResponseError('status 400')\"");
        afterFailingWarmUp.Completed.Should().Be(37_867, "the warm-up's requests are not measured");
    }

    [Theory]
    // Line endings: Python's csv writer ends records in CRLF; LF and a missing final line break read the same.
    [InlineData("\r\n", "\r\n")]
    [InlineData("\n", "\n")]
    [InlineData("\n", "")]
    public void Quoted_fields_keep_commas_quotes_and_line_breaks(string newline, string end)
    {
        var failures = string.Join(newline,
            FailuresHeader,
            "GET,Json.Endpoint.Employees9,\"wrong body (12 bytes, expected 4489)\",3",
            "GET,Json.Endpoint.Employees9,\"ConnectionRefusedError(111, \"\"Connection refused\"\")\",2",
            "POST,Json.Endpoint.Echo9,\"first line\nsecond, line\",1",
            "GET,Json.Endpoint.Employees9,\"\",4") + end;

        var stats = LocustStats.Parse("run", Stats(10, 10), History((1, 0, 0), (2, 10, 10)), failures);

        stats.Errors.Should().Equal(new Dictionary<string, long>
        {
            ["GET Json.Endpoint.Employees9: wrong body (12 bytes, expected 4489)"] = 3,
            ["GET Json.Endpoint.Employees9: ConnectionRefusedError(111, \"Connection refused\")"] = 2,
            ["POST Json.Endpoint.Echo9: first line\nsecond, line"] = 1,
            ["GET Json.Endpoint.Employees9: "] = 4,
        });
    }

    [Fact]
    public void A_gap_in_the_history_is_spread_over_its_seconds_and_a_repeated_second_keeps_its_last_row()
    {
        var stats = LocustStats.Parse("run", Stats(70, 10), History((100, 0, 0), (101, 10, 0), (101, 20, 0), (104, 56, 6), (105, 70, 10)), FailuresHeader + "\n");

        stats.SuccessesPerSecond.Should().Equal(20, 10, 10, 10, 10);
    }

    [Fact]
    public void A_run_that_sent_nothing_has_no_window_and_no_rate()
    {
        var stats = LocustStats.Parse("run", string.Join("\n", StatsHeader, ",Aggregated,0,0,0,0,0,0,0,0,0,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A,N/A"),
            History((1, 0, 0), (2, 0, 0)), FailuresHeader);

        stats.MeasuredSeconds.Should().Be(0);
        stats.SuccessesPerSecond.Should().BeEmpty();
        stats.ToLoadResult("X", "Locust", 1).RequestsPerSecond.Should().Be(0);
    }

    [Theory]
    [InlineData("stats", "Type,Name\nGET,x", "_stats.csv has no Aggregated row")]
    [InlineData("stats", StatsHeader + "\nGET,x,1", "_stats.csv, line 2: 3 fields where the header has 22")]
    [InlineData("stats", "Type,Name,Request Count\n,Aggregated,1", "_stats.csv has no column 'Failure Count'")]
    [InlineData("stats", "Type,Name,Request Count\n,Aggregated,many", "column 'Request Count' holds 'many', not a number")]
    [InlineData("history", HistoryHeader, "_stats_history.csv has no Aggregated rows: run Locust with --csv-full-history")]
    [InlineData("history", "", "_stats_history.csv is empty")]
    [InlineData("failures", "Method,Name,Error,Occurrences\nGET,x,\"never closed,1", "_failures.csv, line 2: a quoted field is not closed")]
    [InlineData("failures", "Method,Name,Error,Occurrences\nGET,x,\"closed\" then more,1", "_failures.csv, line 2: text after a closing quote")]
    [InlineData("failures", "Method,Name,Error,Occurrences\nGET,x,a \"quote\",1", "_failures.csv, line 2: a quote inside an unquoted field")]
    public void Malformed_files_are_refused_naming_the_file_and_line(string file, string text, string expected)
    {
        var stats = file == "stats" ? text : Stats(10, 0);
        var history = file == "history" ? text : History((1, 0, 0), (2, 10, 0));
        var failures = file == "failures" ? text : FailuresHeader;

        var act = () => LocustStats.Parse("run", stats, history, failures);

        act.Should().Throw<LocustStatsException>().WithMessage($"*{expected}*");
    }

    [Fact]
    public void A_history_that_does_not_reach_the_runs_totals_is_refused()
    {
        // Locust 2.12 without the launcher: the history is flushed every 10 s and never at exit.
        var act = () => LocustStats.Parse("run", Stats(37_867, 0), History((1, 0, 0), (2, 516, 0)), FailuresHeader);

        act.Should().Throw<LocustStatsException>().WithMessage("run_stats_history.csv ends at 516 requests and 0 failures, but the _stats.csv beside it counts 37,867 and 0*run_locust.py*");
    }

    [Fact]
    public void Missing_files_say_how_to_write_them()
    {
        var act = () => LocustStats.Read(Path.Combine(Vectors, "no-such-run"));

        act.Should().Throw<LocustStatsException>().WithMessage("*no-such-run_stats.csv does not exist: run Locust with --csv PREFIX --csv-full-history*");
    }

    private static string Stats(long requests, long failures) => string.Join("\r\n",
        StatsHeader,
        $"GET,Json.Endpoint.Employees9,{requests},{failures},1,1.5,0,9,4489.0,{requests / 2.0},0.0,1,1,2,2,2,3,4,6,8,9,9",
        $",Aggregated,{requests},{failures},1,1.5,0,9,4489.0,{requests / 2.0},0.0,1,1,2,2,2,3,4,6,8,9,9") + "\r\n";

    private static string History(params (long Second, long Requests, long Failures)[] rows) =>
        string.Join("\r\n", rows.Select(r => $"{r.Second},16,,Aggregated,0.000000,0.000000,1,1,2,2,2,3,4,6,8,9,9,{r.Requests},{r.Failures},1,1.5,0,9,4489.0").Prepend(HistoryHeader)) + "\r\n";
}
