using PerfBudgets.Budgets;
using System.Diagnostics;

namespace PerfBudgets.Measuring;

/// <summary>
/// The CPU time per operation of a library's workload, built at the base commit and at the head, compared in the same
/// run: each build's workload host (a program that serves its operation with <see cref="ServedWorkload"/>) runs in a
/// process of its own, both run the same number of operations at once in each round, and each round's figure is the
/// host process's CPU time over its operations (<see cref="CpuClock.ForProcess"/>), each host on a core of its own,
/// swapped every round where cores can be chosen (<see cref="CoreSwap"/>). Works wherever .NET does: no Valgrind, no
/// Linux-only clock.
/// </summary>
public static class PairedWorkloads
{
    /// <summary>The figure each round measures.</summary>
    public const string Figure = "CPU ns/op";

    private static readonly TimeSpan BuildTimeout = TimeSpan.FromMinutes(5);

    /// <summary>
    /// Builds the workload host <paramref name="workloadProject"/> at the base (<see cref="BaseBuild.BuildProject"/>) and
    /// compares it with the head's host, built beside the test assembly (the test project references the host project).
    /// Where the head's inputs to the host and what it references are the base's (<see cref="BaseBuild.SameInputs"/>:
    /// a commit of documentation), nothing is built or run (<see cref="PairedComparison.SameInputs"/>).
    /// </summary>
    /// <param name="baseBuild">The base, e.g. as <c>BudgetGate.CheckVsBase</c> hands it.</param>
    /// <param name="workloadProject">The host's project file, relative to a folder above the test assembly (<c>TextStats.Workloads/TextStats.Workloads.csproj</c>) or absolute.</param>
    /// <param name="arguments">The host's arguments: which workload it serves.</param>
    /// <param name="operations">Operations per round (a round should take tens of milliseconds or more).</param>
    /// <param name="options">Pairs, warm-up and confidence (<c>new PairedRoundsOptions()</c> for the defaults).</param>
    /// <remarks>
    /// Under a paired budget (<see cref="BaseBuild.BudgetLimit"/>, set by <c>BudgetGate.CheckVsBase</c>) the pairs of
    /// processes are spent where the decision is close, as <see cref="CompareCpuTime(string, string, IReadOnlyList{string}, int, PairedRoundsOptions, double, PairedRule)"/> spends them.
    /// </remarks>
    public static PairedComparison CompareCpuTime(BaseBuild baseBuild, string workloadProject, IReadOnlyList<string> arguments, int operations, PairedRoundsOptions options)
    {
        ArgumentNullException.ThrowIfNull(baseBuild);
        ArgumentException.ThrowIfNullOrEmpty(workloadProject);
        if (baseBuild.SameInputs(ProjectFile(workloadProject)) is { } sameInputs)
        {
            return PairedComparison.SameInputs(Figure, sameInputs);
        }

        var (baseHost, headHost) = Hosts(baseBuild, workloadProject);
        var comparison = baseBuild.Decision is { } decision
            ? SequentialPairs.Run(PairsOfProcesses(baseHost, headHost, arguments, operations, options), options, decision)
            : CompareCpuTime(baseHost, headHost, arguments, operations, options);
        return comparison.WithBase(baseBuild.Description);
    }

    /// <summary>
    /// The two builds of the workload host <paramref name="workloadProject"/>: the base's (built once per base commit,
    /// <see cref="BaseBuild.BuildProject"/>) and the head's, beside the test assembly.
    /// </summary>
    /// <param name="baseBuild">The base, e.g. as <c>BudgetGate.CheckVsBase</c> hands it.</param>
    /// <param name="workloadProject">The host's project file, relative to a folder above the test assembly or absolute.</param>
    public static (string BaseHost, string HeadHost) Hosts(BaseBuild baseBuild, string workloadProject)
    {
        ArgumentNullException.ThrowIfNull(baseBuild);
        ArgumentException.ThrowIfNullOrEmpty(workloadProject);
        var project = ProjectFile(workloadProject);
        var head = Path.Combine(AppContext.BaseDirectory, Path.GetFileNameWithoutExtension(project) + ".dll");
        if (!File.Exists(head))
        {
            throw new FileNotFoundException($"The head's workload host is not beside the test assembly ({head}): reference {Path.GetFileName(project)} from the test project.", head);
        }

        return (baseBuild.BuildProject(project, BuildTimeout), head);
    }

    /// <summary>
    /// Starts both hosts, runs <paramref name="operations"/> on both at once per round, and answers head ÷ base of the
    /// CPU time per operation.
    /// </summary>
    /// <param name="baseHost">The base build's workload host (.dll).</param>
    /// <param name="headHost">The head build's workload host (.dll).</param>
    /// <param name="arguments">The hosts' arguments.</param>
    /// <param name="operations">Operations per round.</param>
    /// <param name="options">Pairs, warm-up and confidence (<c>new PairedRoundsOptions()</c> for the defaults).</param>
    public static PairedComparison CompareCpuTime(string baseHost, string headHost, IReadOnlyList<string> arguments, int operations, PairedRoundsOptions options)
    {
        var onePair = PairsOfProcesses(baseHost, headHost, arguments, operations, options);
        return PairedComparison.Pooled([.. Enumerable.Range(0, options.ProcessPairs).Select(onePair)]);
    }

    /// <summary>
    /// As <see cref="CompareCpuTime(string, string, IReadOnlyList{string}, int, PairedRoundsOptions)"/>, spending pairs
    /// of processes where the decision against <paramref name="limit"/> is close: it looks at the pooled interval after
    /// every <see cref="PairedRoundsOptions.ProcessPairsPerLook"/> pairs and stops as soon as the interval decides the
    /// ceiling under <paramref name="rule"/> (it lies wholly below the limit, or the budget fails), or at
    /// <see cref="PairedRoundsOptions.MaxProcessPairs"/>. Each look's interval is at the
    /// confidence split evenly among the looks, so the interval it stops with holds at <see cref="PairedRoundsOptions.Confidence"/>;
    /// the comparison's text says where it stopped and why.
    /// </summary>
    /// <param name="baseHost">The base build's workload host (.dll).</param>
    /// <param name="headHost">The head build's workload host (.dll).</param>
    /// <param name="arguments">The hosts' arguments.</param>
    /// <param name="operations">Operations per round.</param>
    /// <param name="options">Pairs, warm-up, looks, cap and confidence.</param>
    /// <param name="limit">The paired budget's ceiling on head ÷ base (<c>vs-base-ratio-max</c>).</param>
    /// <param name="rule">How the budget judges its interval against the limit (its <c>pairedRule</c>).</param>
    public static PairedComparison CompareCpuTime(string baseHost, string headHost, IReadOnlyList<string> arguments, int operations, PairedRoundsOptions options, double limit, PairedRule rule = PairedRule.Catch)
    {
        var onePair = PairsOfProcesses(baseHost, headHost, arguments, operations, options);
        if (!(limit > 0 && double.IsFinite(limit)))
        {
            throw new ArgumentOutOfRangeException(nameof(limit), limit, "A limit on head ÷ base is a positive ratio.");
        }

        return SequentialPairs.Run(onePair, options, new PairedDecision(BudgetKind.VsBaseRatioMax, limit, rule));
    }

    // The i-th pair of fresh processes, from 0, after the arguments are checked: each pair warmed up on its own and
    // running options.Pairs rounds (enough for its own estimate to be the operation's cost, so that the spread between
    // the pairs is their luck), the side started first alternating from one pair to the next.
    private static Func<int, PairedComparison> PairsOfProcesses(string baseHost, string headHost, IReadOnlyList<string> arguments, int operations, PairedRoundsOptions options)
    {
        ArgumentException.ThrowIfNullOrEmpty(baseHost);
        ArgumentException.ThrowIfNullOrEmpty(headHost);
        ArgumentNullException.ThrowIfNull(arguments);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(operations);
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        return pair => CompareOnePair(baseHost, headHost, arguments, operations, options, baseFirst: pair % 2 == 0);
    }

    private static PairedComparison CompareOnePair(string baseHost, string headHost, IReadOnlyList<string> arguments, int operations, PairedRoundsOptions options, bool baseFirst)
    {
        using var first = Host.Start(baseFirst ? baseHost : headHost, arguments, options.HostTimeout);
        using var second = Host.Start(baseFirst ? headHost : baseHost, arguments, options.HostTimeout);
        var (baseProcess, headProcess) = baseFirst ? (first, second) : (second, first);
        var cores = CoreSwap.TryCreate();
        var round = 0;
        return PairedRounds.CompareTogetherAsync([Figure], async ct =>
        {
            cores?.Place(baseProcess.Process, headProcess.Process, round++);
            var both = await Task.WhenAll(Task.Run(() => baseProcess.Run(operations), ct), Task.Run(() => headProcess.Run(operations), ct)).ConfigureAwait(false);
            return (both[0], both[1]);
        }, options, CancellationToken.None).GetAwaiter().GetResult()[0];
    }

    // The host's project file: absolute as given, or found in a folder above the test assembly.
    private static string ProjectFile(string workloadProject) =>
        Path.IsPathRooted(workloadProject) ? workloadProject : FindAbove(AppContext.BaseDirectory, workloadProject);

    private static string FindAbove(string directory, string relative)
    {
        for (var folder = new DirectoryInfo(directory); folder is not null; folder = folder.Parent)
        {
            var candidate = Path.Combine(folder.FullName, relative);
            if (File.Exists(candidate))
            {
                return candidate;
            }
        }

        throw new FileNotFoundException($"No {relative} in {directory} or a folder above it.", relative);
    }

    // A served host with its process's CPU clock read around each run.
    private sealed class Host : IDisposable
    {
        private readonly ServedWorkloadHost _host;
        private readonly Func<long> _clock;

        private Host(ServedWorkloadHost host)
        {
            _host = host;
            _clock = CpuClock.ForProcess(host.ProcessId);
        }

        // The host's process, for CoreSwap.
        public Process Process => _host.Process;

        public static Host Start(string assembly, IReadOnlyList<string> arguments, TimeSpan timeout)
        {
            var host = ServedWorkloadHost.Start(assembly, arguments, timeout);
            try
            {
                return new Host(host);
            }
            catch
            {
                host.Dispose();
                throw;
            }
        }

        public IReadOnlyList<double> Run(int operations)
        {
            var before = _clock();
            _host.Run(operations);
            return [(_clock() - before) / (double)operations];
        }

        public void Dispose() => _host.Dispose();
    }
}
