namespace PerfBudgets.Measuring;

/// <summary>
/// One run of a workload host under Callgrind (<see cref="InstructionMeter.RunProcess"/>): what it printed, every
/// counted part, and the perf map that names its JIT-compiled code.
/// </summary>
public sealed class CallgrindRun
{
    private readonly IReadOnlyList<CallgrindProfile> _parts;
    private readonly PerfMap _map;

    internal CallgrindRun(string standardOutput, IReadOnlyList<CallgrindProfile> parts, PerfMap map, string runtimeVersion, string valgrindVersion)
    {
        StandardOutput = standardOutput;
        _parts = parts;
        _map = map;
        RuntimeVersion = runtimeVersion;
        ValgrindVersion = valgrindVersion;
    }

    /// <summary>What the host wrote to standard output (its own checks of the work it did).</summary>
    public string StandardOutput { get; }

    /// <summary>The .NET runtime that ran the host.</summary>
    public string RuntimeVersion { get; }

    /// <summary>The Valgrind that counted it.</summary>
    public string ValgrindVersion { get; }

    /// <summary>Where the run was reused from, when it was not run but read from the store; null when it was run.</summary>
    public ReusedCount? Reused { get; init; }

    /// <summary>Why a run that was counted did not reuse a stored one (<see cref="CountStore.TryLoad"/>); null when it was reused, or no store was looked in.</summary>
    internal string? NotReusedBecause { get; init; }

    /// <summary>Why a run that was counted was not stored for the next run to reuse; null when it was, or was reused.</summary>
    internal string? NotStoredBecause { get; init; }

    /// <summary>The counts of one workload's repetitions.</summary>
    /// <exception cref="InstructionMeterException">The host counted no region of that name.</exception>
    public InstructionMeasurement Measurement(string workload) =>
        CallgrindMeasurement.From(workload, _parts, _map, RuntimeVersion, ValgrindVersion) with { Reused = Reused, NotReusedBecause = NotReusedBecause, NotStoredBecause = NotStoredBecause };
}
