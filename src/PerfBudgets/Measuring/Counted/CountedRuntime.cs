namespace PerfBudgets.Measuring;

/// <summary>
/// The .NET runtime the counted processes run on: a private dotnet root named by the repository (a folder
/// <see cref="DirectoryName"/> beside the test assembly, laid out from the runtime packs of a pinned version), or, where
/// there is none, the dotnet host that runs the tests.
/// </summary>
/// <remarks>
/// A framework-dependent app rolls forward to the newest patch of its runtime installed on the machine, so without a
/// pin a CI image that gained a patch would count on it, and every counted budget would fail as recorded on another
/// runtime, on unchanged code. The muxer in the private root sees only the frameworks beside it, so the counted
/// processes run on the pinned patch whatever the machine has installed; raising the pin is a reviewed change that
/// re-records the counts.
/// </remarks>
public sealed class CountedRuntime
{
    /// <summary>The folder beside the test assembly that holds the pinned dotnet root.</summary>
    public const string DirectoryName = "counted-runtime";

    private const string CoreFramework = "Microsoft.NETCore.App";

    private static readonly Lazy<CountedRuntime> Located = new(() => Locate(AppContext.BaseDirectory));

    private CountedRuntime(string dotnetHost, string version, string? root)
    {
        DotnetHost = dotnetHost;
        Version = version;
        Root = root;
    }

    /// <summary>The dotnet muxer the counted processes are started with.</summary>
    public string DotnetHost { get; }

    /// <summary>The version of <c>Microsoft.NETCore.App</c> the counted processes run on, e.g. <c>10.0.12</c>.</summary>
    public string Version { get; }

    /// <summary>The major version of <see cref="Version"/> (8 for <c>8.0.34</c>); 0 when the version does not parse.</summary>
    internal int Major => int.TryParse(Version.Split('.')[0], System.Globalization.CultureInfo.InvariantCulture, out var major) ? major : 0;

    /// <summary>The private dotnet root, or null when the counted processes run on the machine's runtime.</summary>
    public string? Root { get; }

    /// <summary>True when the counted processes run on a runtime the repository pins, not the machine's.</summary>
    public bool IsPinned => Root is not null;

    /// <summary>The runtime found beside this process's assembly (<see cref="Locate"/>), looked up once.</summary>
    public static CountedRuntime Current => Located.Value;

    /// <summary>
    /// The pinned root in <paramref name="directory"/>/<see cref="DirectoryName"/> when it holds a muxer and exactly one
    /// version of <c>Microsoft.NETCore.App</c>; otherwise the dotnet host that runs this process
    /// (<see cref="Budgets.HarnessEnvironment.DotnetHost"/>, else <c>dotnet</c> on PATH) and this process's runtime version.
    /// </summary>
    /// <exception cref="InstructionMeterException">The folder exists but holds no muxer, or no or several runtime versions.</exception>
    public static CountedRuntime Locate(string directory)
    {
        ArgumentException.ThrowIfNullOrEmpty(directory);
        var root = Path.Combine(directory, DirectoryName);
        if (!Directory.Exists(root))
        {
            return new CountedRuntime(Budgets.HarnessEnvironment.DotnetHost ?? "dotnet", Environment.Version.ToString(), root: null);
        }

        var muxer = Path.Combine(root, "dotnet");
        var frameworks = Path.Combine(root, "shared", CoreFramework);
        var versions = Directory.Exists(frameworks) ? Directory.GetDirectories(frameworks).Select(Path.GetFileName).ToArray() : [];
        if (!File.Exists(muxer) || versions.Length != 1)
        {
            throw new InstructionMeterException(
                $"The counted runtime in {root} is incomplete: it needs the dotnet muxer and exactly one version of {CoreFramework} " +
                $"(found {(File.Exists(muxer) ? "a muxer" : "no muxer")} and {versions.Length} version(s)); rebuild the test project to lay it out again.");
        }

        return new CountedRuntime(muxer, versions[0]!, root);
    }

    /// <inheritdoc />
    public override string ToString() => IsPinned ? $".NET {Version} (pinned, {Root})" : $".NET {Version} (the machine's)";
}
