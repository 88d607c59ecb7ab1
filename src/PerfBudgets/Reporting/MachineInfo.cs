using System.Runtime;
using System.Runtime.InteropServices;

namespace PerfBudgets.Reporting;

/// <summary>The machine and runtime a measurement was taken on; figures are meaningless without it.</summary>
public sealed record MachineInfo(
    int LogicalCores,
    string OperatingSystem,
    string Architecture,
    string Runtime,
    string GcMode,
    bool ConcurrentGc)
{
    /// <summary>Describes the current process.</summary>
    public static MachineInfo Current { get; } = new(
        Environment.ProcessorCount,
        RuntimeInformation.OSDescription,
        RuntimeInformation.ProcessArchitecture.ToString(),
        RuntimeInformation.FrameworkDescription,
        GCSettings.IsServerGC ? "server" : "workstation",
        GCSettings.LatencyMode != GCLatencyMode.Batch);
}
