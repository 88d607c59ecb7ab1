using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// What grew in a served workload against its base: both builds' hosts (<see cref="PairedWorkloads.Hosts"/>) are
/// started, warmed up, and sampled side by side over EventPipe, taking turns batch by batch
/// (<see cref="CpuProfiler.CompareServersSideBySide"/>); the head's profile is compared with the base's
/// (<see cref="CpuProfile.ComparedWithBase"/>), the program's own methods first, each with what it called. Meant for a
/// failing paired budget:
/// <c>gate.CheckVsBase(name, b => PairedWorkloads.CompareCpuTime(b, ...), b => PairedWorkloadProfiler.CompareWithBase(b, ...))</c>.
/// </summary>
public static class PairedWorkloadProfiler
{
    /// <summary>How long each host runs (the two taking turns) before they are sampled, so the tiered JIT has compiled their path at its last tier, as in the rounds.</summary>
    public static readonly TimeSpan DefaultWarmUp = TimeSpan.FromSeconds(2);

    /// <summary>
    /// Profiles the base's and the head's hosts of <paramref name="workloadProject"/> side by side and returns what
    /// grew in the head.
    /// </summary>
    /// <param name="baseBuild">The base the paired budget compared with.</param>
    /// <param name="workloadProject">The host's project, as given to <see cref="PairedWorkloads.CompareCpuTime(BaseBuild, string, IReadOnlyList{string}, int, PairedRoundsOptions)"/>.</param>
    /// <param name="arguments">The hosts' arguments: which workload they serve.</param>
    /// <param name="duration">How long each host is sampled (default <see cref="CpuProfiler"/>'s).</param>
    /// <param name="hostTimeout">How long a host may take to answer (default two minutes).</param>
    public static Attribution CompareWithBase(BaseBuild baseBuild, string workloadProject, IReadOnlyList<string> arguments, TimeSpan? duration = null, TimeSpan? hostTimeout = null)
    {
        ArgumentNullException.ThrowIfNull(baseBuild);
        ArgumentNullException.ThrowIfNull(arguments);
        var (baseAssembly, headAssembly) = PairedWorkloads.Hosts(baseBuild, workloadProject);
        var timeout = hostTimeout ?? TimeSpan.FromMinutes(2);
        using var baseHost = ServedWorkloadHost.Start(baseAssembly, arguments, timeout);
        using var headHost = ServedWorkloadHost.Start(headAssembly, arguments, timeout);
        BatchedRun.TakingTurns(DefaultWarmUp * 2, baseHost.Run, headHost.Run);
        return CpuProfiler.CompareServersSideBySide(baseHost.ProcessId, baseHost.Run, headHost.ProcessId, headHost.Run, duration);
    }
}
