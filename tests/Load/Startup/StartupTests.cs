using PerfBudgets;
using PerfBudgets.Measuring;

namespace PerfGate.Tests.Load.Startup;

/// <summary>
/// Time from the app's start to its first 2xx answer (<c>GET /api/employees?count=9</c>, the first request's
/// compilation included), as a ratio to the minimal ASP.NET Core app (<c>tests/Startup.Workloads</c>) launched the
/// same way alternately in the same run (<see cref="StartupMeter"/>): what a deployment waits for before an instance
/// takes traffic. The gate is the ratio of the median CPU times the two processes spent to their first answer (waiting
/// for a core is not in it, so it held beside one to three busy loops); the wall-clock times and their ratio are reported beside
/// it, not gated.
/// </summary>
public sealed class StartupTests(ITestOutputHelper output)
{
    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact]
    public async Task Startup_time_to_first_response_against_the_minimal_app()
    {
        var ct = TestContext.Current.CancellationToken;
        var launches = _gate.Book.IntParameter("Load.Startup.Launches");
        var reference = Path.Combine(AppContext.BaseDirectory, "Startup.Workloads.dll");
        StartupMeasurement? last = null;
        await _gate.CheckRunAsync(
            async () => last = await StartupMeter.CompareAsync(
                port => (AppProcess.ServerStartInfo(port), "/api/employees?count=9"),
                port => (AppProcess.ServerStartInfo(port, reference), "/"),
                launches, TimeSpan.FromSeconds(60), ct),
            m =>
            {
                output.WriteLine(m.ToString());
                var detail = $"time from process start to the first 2xx, {launches} launches of each after one unmeasured, alternately: {m}; both as shipped on a free loopback port";
                return
                [
                    new BudgetCheck("Startup.FirstResponse.CpuRatioToMinimalApp", m.CpuRatio, detail),
                    new BudgetCheck("Startup.FirstResponse.WorkingSetBytes", m.SubjectWorkingSetBytes, $"the largest resident set (VmRSS) at the first 2xx over {launches} launches: {m}"),
                ];
            });

        // The wall-clock figures are reported, not gated: unchanged, the ratio reached 2.23x, and a second's blocking at
        // startup read 2.25x beside three busy loops (docs/wire.md), so no limit tells them apart.
        _gate.Observe("Startup.FirstResponse.RatioToMinimalApp", last!.WallRatio, "x", $"wall clock, not gated: {last}");
        _gate.Observe("Startup.FirstResponse.Ms", last.SubjectWall.TotalMilliseconds, "ms", $"median of {launches} launches: {last}");
        _gate.Observe("Startup.FirstResponse.CpuMs", last.SubjectCpu.TotalMilliseconds, "ms", "the same launches, the process's CPU time");
        _gate.Observe("Startup.MinimalApp.FirstResponse.Ms", last.ReferenceWall.TotalMilliseconds, "ms", "the reference app, the same launches");
        _gate.Observe("Startup.MinimalApp.FirstResponse.CpuMs", last.ReferenceCpu.TotalMilliseconds, "ms", "the reference app's CPU time, the same launches");
    }
}
