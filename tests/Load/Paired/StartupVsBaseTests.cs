using PerfBudgets;
using PerfBudgets.Budgets;
using PerfBudgets.Measuring;

namespace Load.Paired;

/// <summary>
/// The app's start to its first answer (<c>GET /api/employees?count=9</c>, the first request's compilation included),
/// the base commit's build against this one, launched alternately in ABBA order (<see cref="PairedRounds"/>), each
/// launch as shipped on a free loopback port: the CPU time the process spent by its first 2xx, as head ÷ base, in looks
/// of pairs of launches until the interval decides the budget. The
/// ratio to the minimal app (<c>Startup.FirstResponse.CpuRatioToMinimalApp</c>) stays as the catastrophe check.
/// </summary>
public sealed class StartupVsBaseTests(ITestOutputHelper output)
{
    private const string Cpu = "Startup.FirstResponse.CpuMs.VsBase";
    private const string CpuFigure = "startup CPU ms";

    private readonly BudgetGate _gate = SuiteGate.Current;

    [Fact(SkipExceptions = [typeof(BudgetNotMeasuredException)])]
    public async Task Startup_cpu_time_against_its_base()
    {
        if (VsBase.AppOrNotMeasured(_gate, (Cpu, CpuFigure)) is not (var baseAssembly, var baseDescription))
        {
            return;
        }

        var ct = TestContext.Current.CancellationToken;
        var options = new PairedRoundsOptions(
            Pairs: _gate.Book.IntParameter("Load.Paired.Startup.Pairs"),
            WarmUpPairs: 1,
            Confidence: _gate.Book.Parameter("Load.Paired.Confidence"),
            MaxWarmUpPairs: _gate.Book.IntParameter("Load.Paired.Startup.MaxWarmUpPairs"))
        {
            ProcessPairsPerLook = _gate.Book.IntParameter("Load.Paired.Startup.Pairs"),
            MaxProcessPairs = _gate.Book.IntParameter("Load.Paired.Startup.MaxPairs"),
        };
        using var client = new HttpClient(new SocketsHttpHandler { PooledConnectionLifetime = TimeSpan.Zero, UseProxy = false });
        await _gate.CheckRunAsync(
            // Every launch is a process of its own, so each pair of launches is an independent pair of processes: the
            // comparison looks every Pairs and stops once its interval decides the budget.
            () => PairedRounds.CompareUntilDecidedAsync(CpuFigure, _gate.Book.Get(Cpu), async (side, token) =>
            {
                var assembly = side == PairedSide.Base ? baseAssembly : null;
                var time = await StartupMeter.TimeToFirstSuccessAsync(client, port => (AppProcess.ServerStartInfo(port, assembly), "/api/employees?count=9"), TimeSpan.FromSeconds(60), token);
                return time.Cpu.TotalMilliseconds;
            }, options, ct),
            comparison =>
            {
                output.WriteLine($"startup CPU head/base {comparison.Ratio:0.000} ({comparison.Lower:0.000}-{comparison.Upper:0.000}), {comparison.BaseRounds.Count} pairs");
                return [_gate.VsBaseCheck(Cpu, comparison.WithBase(baseDescription))];
            },
            _gate.Book.IntParameter("Load.Paired.Attempts"));
    }
}
