using System.Diagnostics;
using System.Reflection;

namespace PerfBudgets.Measuring;

/// <summary>
/// Refuses to measure non-optimized code. A Debug build keeps async state machines as classes, disables inlining and
/// keeps every local alive, so its allocation, CPU and throughput figures say nothing about the shipped code: a
/// budget measured on it would fail (or pass) for the wrong reason.
/// </summary>
/// <remarks>
/// The state is read from the assemblies themselves, not from a path: the compiler marks a non-optimized build with
/// <see cref="DebuggableAttribute"/> and <see cref="DebuggableAttribute.IsJITOptimizerDisabled"/> set. The assemblies
/// checked are the harness itself and every assembly loaded from the application's own folder (the test assembly and
/// the code it tests); framework and shared-framework assemblies live elsewhere and are always optimized.
/// </remarks>
internal static class BuildOptimization
{
    private static readonly Lazy<IReadOnlyList<string>> NonOptimizedAtFirstUse = new(() => FindNonOptimized(CandidateAssemblies()));

    /// <summary>True when the JIT optimizer is enabled for <paramref name="assembly"/> (a Release build).</summary>
    public static bool IsOptimized(Assembly assembly)
    {
        ArgumentNullException.ThrowIfNull(assembly);
        var debuggable = assembly.GetCustomAttribute<DebuggableAttribute>();
        return debuggable is null || !debuggable.IsJITOptimizerDisabled;
    }

    /// <summary>The simple names of the assemblies among <paramref name="assemblies"/> that were built without optimization.</summary>
    public static IReadOnlyList<string> FindNonOptimized(IEnumerable<Assembly> assemblies)
    {
        ArgumentNullException.ThrowIfNull(assemblies);
        return assemblies.Where(a => !IsOptimized(a)).Select(a => a.GetName().Name ?? a.FullName ?? "?").Distinct().Order(StringComparer.Ordinal).ToList();
    }

    /// <summary>
    /// Throws <see cref="NonOptimizedBuildException"/> when the harness or any assembly loaded from the application's
    /// folder is a non-optimized build. The answer is taken once per process, the first time a budget is measured.
    /// </summary>
    public static void EnsureOptimized()
    {
        var offenders = NonOptimizedAtFirstUse.Value;
        if (offenders.Count > 0)
        {
            throw new NonOptimizedBuildException(
                $"budgets are measured on optimized (Release) builds; this one is Debug (JIT optimizer disabled in {string.Join(", ", offenders)}): run dotnet test -c Release");
        }
    }

    private static IEnumerable<Assembly> CandidateAssemblies()
    {
        var appFolder = Path.GetFullPath(AppContext.BaseDirectory);
        yield return typeof(BuildOptimization).Assembly;
        if (Assembly.GetEntryAssembly() is { } entry)
        {
            yield return entry;
        }

        foreach (var assembly in AppDomain.CurrentDomain.GetAssemblies())
        {
            if (!assembly.IsDynamic && assembly.Location is { Length: > 0 } location
                && Path.GetFullPath(location).StartsWith(appFolder, StringComparison.Ordinal))
            {
                yield return assembly;
            }
        }
    }
}
