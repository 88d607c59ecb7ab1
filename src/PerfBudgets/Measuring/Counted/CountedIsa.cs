using System.Globalization;

namespace PerfBudgets.Measuring;

/// <summary>
/// The instruction sets a count assumes, pinned for every counted process, and the check that this machine's CPU has
/// them. The JIT and glibc each pick code by the CPU's features, so without a pin two CI runners count different code.
/// </summary>
/// <remarks>
/// <para>
/// Under Valgrind the program does not see the host's CPU: Valgrind answers CPUID with a synthetic CPU chosen by what
/// the host can do (3.19 on any host with AVX2, BMI, FMA and F16C shows an Intel Haswell, family 6 model 0x3c, with
/// ERMS, 32 KiB L1d and 8 MiB L3, whether the host is an AMD EPYC or an Intel Xeon). Within one Valgrind version and
/// that host class, the CPU the JIT and glibc see is therefore the same everywhere; the pin makes the choice explicit
/// and independent of both, so a newer Valgrind that shows another CPU, or a machine-wide <c>GLIBC_TUNABLES</c> or
/// <c>DOTNET_Enable*</c> setting, does not change what is counted.
/// </para>
/// <para>
/// The baseline is x86-64-v3 (AVX2, BMI1/2, FMA, F16C, LZCNT, MOVBE), which every current x86-64 CI runner has, less
/// every extension above it for the JIT (AVX-512, AVX10, APX, VNNI, GFNI, SHA, WAITPKG), and for glibc less ERMS and FSRM
/// (so <c>memset</c> and <c>memcpy</c> run a vector loop, not <c>rep stosb</c>, which Valgrind counts as one instruction per
/// byte), with its cache-size-derived thresholds fixed. A host without the baseline makes Valgrind show an older CPU
/// and the JIT and glibc pick other code: the counted budgets are then not measured, with the missing features named.
/// </para>
/// </remarks>
internal static class CountedIsa
{
    /// <summary>The CPU flags (as <c>/proc/cpuinfo</c> names them) the recorded counts assume the host has.</summary>
    public static IReadOnlyList<string> RequiredHostFlags { get; } = ["sse4_2", "popcnt", "avx", "avx2", "bmi1", "bmi2", "fma", "f16c", "abm", "movbe"];

    /// <summary>
    /// What glibc may use: its feature bits and preferences set explicitly (those Valgrind's synthetic CPU gives, less
    /// ERMS and FSRM) and its cache sizes and string-function thresholds fixed. A later <c>glibc.cpu.hwcaps</c> in the
    /// variable replaces an earlier one, so this is the whole variable, not an addition to the machine's.
    /// </summary>
    public const string GlibcTunables =
        "glibc.cpu.hwcaps=-ERMS,-FSRM,-AVX512F,-AVX512VL,-AVX512BW,-AVX512DQ,-AVX512CD,"
        + "Fast_Unaligned_Load,Fast_Unaligned_Copy,AVX_Fast_Unaligned_Load,Prefer_PMINUB_for_stringop,Prefer_No_AVX512,"
        + "-Fast_Rep_String,-Fast_Copy_Backward,-Slow_BSF,-Slow_SSE4_2,-Prefer_No_VZEROUPPER,-Prefer_ERMS,-Prefer_FSRM,"
        + "-Avoid_Short_Distance_REP_MOVSB,-MathVec_Prefer_No_AVX512"
        + ":glibc.cpu.x86_data_cache_size=0x8000:glibc.cpu.x86_shared_cache_size=0x800000"
        + ":glibc.cpu.x86_non_temporal_threshold=0x200000:glibc.cpu.x86_rep_movsb_threshold=0x2000"
        + ":glibc.cpu.x86_rep_stosb_threshold=0x800";

    /// <summary>
    /// The runtime's instruction-set switches (.NET 10 names): the x86-64-v3 groups allowed, everything above them off.
    /// Each is set, on or off, so a machine-wide setting of the same name cannot change what the JIT emits.
    /// </summary>
    public static IReadOnlyDictionary<string, string> Environment { get; } = new Dictionary<string, string>(StringComparer.Ordinal)
    {
        ["GLIBC_TUNABLES"] = GlibcTunables,
        ["DOTNET_EnableHWIntrinsic"] = "1",
        ["DOTNET_EnableSSE42"] = "1",
        ["DOTNET_EnableAVX"] = "1",
        ["DOTNET_EnableAVX2"] = "1",
        ["DOTNET_EnableAES"] = "1",
        ["DOTNET_EnableAVX512"] = "0",
        ["DOTNET_EnableAVX512v2"] = "0",
        ["DOTNET_EnableAVX512v3"] = "0",
        ["DOTNET_EnableAVX512VP2INTERSECT"] = "0",
        ["DOTNET_EnableAVX10v1"] = "0",
        ["DOTNET_EnableAVX10v2"] = "0",
        ["DOTNET_EnableAPX"] = "0",
        ["DOTNET_EnableAVXIFMA"] = "0",
        ["DOTNET_EnableAVXVNNI"] = "0",
        ["DOTNET_EnableAVXVNNIINT"] = "0",
        ["DOTNET_EnableGFNI"] = "0",
        ["DOTNET_EnableSHA"] = "0",
        ["DOTNET_EnableWAITPKG"] = "0",
        ["DOTNET_EnableX86Serialize"] = "0",
        ["DOTNET_PreferredVectorBitWidth"] = "256",
    };

    /// <summary>
    /// The flags of <see cref="RequiredHostFlags"/> that <paramref name="cpuinfo"/> (the text of <c>/proc/cpuinfo</c>)
    /// does not list for its first processor.
    /// </summary>
    public static IReadOnlyList<string> MissingFlags(string cpuinfo)
    {
        ArgumentNullException.ThrowIfNull(cpuinfo);
        var flagsLine = cpuinfo.Split('\n').FirstOrDefault(line => line.StartsWith("flags", StringComparison.Ordinal));
        var flags = flagsLine is null
            ? new HashSet<string>(StringComparer.Ordinal)
            : flagsLine[(flagsLine.IndexOf(':', StringComparison.Ordinal) + 1)..].Split(' ', StringSplitOptions.RemoveEmptyEntries).ToHashSet(StringComparer.Ordinal);
        return RequiredHostFlags.Where(flag => !flags.Contains(flag)).ToList();
    }

    /// <summary>
    /// Why the recorded counts cannot be reproduced on this CPU (the baseline flags it lacks), or null when it has them
    /// all or its flags cannot be read (not Linux).
    /// </summary>
    public static string? HostUnsupportedReason()
    {
        const string path = "/proc/cpuinfo";
        if (!File.Exists(path))
        {
            return null;
        }

        var missing = MissingFlags(File.ReadAllText(path));
        return missing.Count == 0
            ? null
            : string.Create(CultureInfo.InvariantCulture,
                $"this CPU lacks {string.Join(", ", missing)} of the x86-64-v3 baseline the counts assume; under Valgrind it would count other code (see CountedIsa)");
    }
}
