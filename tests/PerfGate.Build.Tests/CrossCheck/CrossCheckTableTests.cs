using PerfGate.Build;
using PerfGate.Build.CrossCheck;

namespace PerfGate.Build.Tests.CrossCheck;

// The cross-check reads each generator's machine-readable summary (wrk's from the Lua done() hook) and renders the
// table; covered here without wrk or a server.
public sealed class CrossCheckTableTests
{
    private static readonly string[] WrkOutput =
    [
        "Running 10s test @ http://127.0.0.1:5000/api/employees?count=9",
        "  2 threads and 16 connections",
        """{"requests":120000,"duration_us":10000000,"p50_us":1200.0,"p99_us":4560.0,"status":0,"connect":0,"read":0,"write":0,"timeout":0}""",
    ];

    [Fact]
    public void Wrk_summary_is_read_from_its_json_line()
    {
        var wrk = WrkSummary.Parse(WrkOutput);

        wrk.Requests.Should().Be(120_000);
        wrk.RequestsPerSecond.Should().Be(12_000);
        wrk.P50Microseconds.Should().Be(1200);
        wrk.P99Microseconds.Should().Be(4560);
        wrk.NonSuccessResponses.Should().Be(0);
        wrk.SocketErrors.Should().BeEmpty();
    }

    [Fact]
    public void Wrk_errors_are_named()
    {
        var wrk = WrkSummary.Parse(["""{"requests":10,"duration_us":1000000,"p50_us":1,"p99_us":2,"status":3,"connect":0,"read":2,"write":0,"timeout":1}"""]);

        wrk.NonSuccessResponses.Should().Be(3);
        wrk.SocketErrors.Should().Be("read 2, timeout 1");
    }

    [Fact]
    public void Output_without_a_summary_is_refused_with_its_reason()
    {
        var wrk = () => WrkSummary.Parse(["Requests/sec:  12000.00"]);
        var load = () => LoadSummary.Parse(["GET http://x/: 16 copies"]);

        wrk.Should().Throw<BuildInputException>().WithMessage("*crosscheck script*");
        load.Should().Throw<BuildInputException>().WithMessage("*load rps=*");
    }

    [Fact]
    public void The_table_sets_both_generators_side_by_side_per_request()
    {
        var ours = LoadSummary.Parse(["load rps=10000 p50=1.5 p99=3.25 failed=0 cpu=20 seconds=13"]);
        var table = CrossCheckTable.Render("GET /api/employees?count=9", 16, 10, 3, ours, new CrossCheckTable.Cpu(13, 6.5), WrkSummary.Parse(WrkOutput), new CrossCheckTable.Cpu(6, 12));

        table.Should().Contain("| GET /api/employees?count=9, 16 connections, 10 s, ")
            .And.Contain("| requests/s | 10,000 | 12,000 |")
            .And.Contain("| p50 latency, ms | 1.5 | 1.2 |")
            .And.Contain("| p99 latency, ms | 3.25 | 4.56 |")
            .And.Contain("| generator CPU per request, µs | 100 | 50 |")
            .And.Contain("| server CPU per request, µs | 50 | 100 |")
            .And.Contain("| failed | 0 | 0 |");
    }

    [Fact]
    public void Without_the_server_its_row_is_left_out()
    {
        var ours = LoadSummary.Parse(["load rps=10000 p50=1.5 p99=3.25 failed=0 cpu=20 seconds=13"]);
        var table = CrossCheckTable.Render("GET /", 16, 10, 3, ours, new CrossCheckTable.Cpu(13, double.NaN), WrkSummary.Parse(WrkOutput), new CrossCheckTable.Cpu(6, double.NaN));

        table.Should().NotContain("server CPU").And.Contain("generator CPU");
    }
}
