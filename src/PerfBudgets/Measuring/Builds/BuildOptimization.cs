using System.Diagnostics;
using System.Reflection;
using System.Reflection.Metadata;
using System.Reflection.PortableExecutable;
using System.Text.Json;

namespace PerfBudgets.Measuring;

/// <summary>
/// Refuses to measure non-optimized code. A Debug build keeps async state machines as classes, disables inlining and
/// keeps every local alive, so its allocation, CPU and throughput figures say nothing about the shipped code: a
/// budget measured on it would fail (or pass) for the wrong reason.
/// </summary>
/// <remarks>
/// The state is read from the assemblies themselves, not from a path: the compiler marks a non-optimized build with
/// <see cref="DebuggableAttribute"/> and <see cref="DebuggableAttribute.IsJITOptimizerDisabled"/> set.
/// What is checked is the code under measurement, whether or not this process has loaded it yet: the harness, the
/// entry assembly, and every assembly that the application's <c>*.deps.json</c> lists as a project (the library or
/// app under test, a workload host started in a process of its own). A library referenced from outside the folder
/// whose Directory.Build.props sets Release builds Debug and is copied into the test's Release output; only its own
/// metadata tells. NuGet packages and the shared frameworks are shipped optimized and are not read.
/// </remarks>
internal static class BuildOptimization
{
    private const int DisableOptimizations = (int)DebuggableAttribute.DebuggingModes.DisableOptimizations;

    private static readonly Lazy<IReadOnlyList<string>> NonOptimizedAtFirstUse = new(FindNonOptimizedInThisProcess);

    /// <summary>True when the JIT optimizer is enabled for <paramref name="assembly"/> (a Release build).</summary>
    public static bool IsOptimized(Assembly assembly)
    {
        ArgumentNullException.ThrowIfNull(assembly);
        var debuggable = assembly.GetCustomAttribute<DebuggableAttribute>();
        return debuggable is null || !debuggable.IsJITOptimizerDisabled;
    }

    /// <summary>
    /// True when the assembly file at <paramref name="path"/> was built with the JIT optimizer enabled, read from its
    /// metadata without loading it; a file that is not a managed assembly is taken as optimized (nothing to refuse).
    /// </summary>
    public static bool IsOptimized(string path)
    {
        ArgumentNullException.ThrowIfNull(path);
        using var stream = File.OpenRead(path);
        using var pe = new PEReader(stream);
        if (!pe.HasMetadata)
        {
            return true;
        }

        var reader = pe.GetMetadataReader();
        foreach (var handle in reader.GetAssemblyDefinition().GetCustomAttributes())
        {
            var attribute = reader.GetCustomAttribute(handle);
            if (IsDebuggableAttribute(reader, attribute.Constructor))
            {
                return (DebuggingModes(reader, attribute) & DisableOptimizations) == 0;
            }
        }

        return true;
    }

    /// <summary>The simple names of the assemblies among <paramref name="assemblies"/> that were built without optimization.</summary>
    public static IReadOnlyList<string> FindNonOptimized(IEnumerable<Assembly> assemblies)
    {
        ArgumentNullException.ThrowIfNull(assemblies);
        return assemblies.Where(a => !IsOptimized(a)).Select(a => a.GetName().Name ?? a.FullName ?? "?").Distinct().Order(StringComparer.Ordinal).ToList();
    }

    /// <summary>
    /// The file names (e.g. <c>TextStats.dll</c>) of the project assemblies that the <c>*.deps.json</c> files in
    /// <paramref name="folder"/> list and that were built without optimization.
    /// </summary>
    public static IReadOnlyList<string> FindNonOptimizedProjects(string folder)
    {
        ArgumentNullException.ThrowIfNull(folder);
        return ProjectAssemblies(folder)
            .Where(file => File.Exists(Path.Combine(folder, file)) && !IsOptimized(Path.Combine(folder, file)))
            .Order(StringComparer.Ordinal)
            .ToList();
    }

    /// <summary>
    /// Throws <see cref="NonOptimizedBuildException"/> when the harness, the entry assembly or a project assembly of the
    /// application (<see cref="FindNonOptimizedProjects"/>) is a non-optimized build. The answer is taken once per
    /// process, the first time a budget is measured.
    /// </summary>
    public static void EnsureOptimized()
    {
        var offenders = NonOptimizedAtFirstUse.Value;
        if (offenders.Count > 0)
        {
            throw new NonOptimizedBuildException(RefusalMessage(offenders));
        }
    }

    /// <summary>The one line that refuses <paramref name="offenders"/>: which assemblies, and how to fix the build.</summary>
    public static string RefusalMessage(IReadOnlyList<string> offenders) =>
        $"budgets are measured on optimized (Release) builds; the code under measurement is Debug (JIT optimizer disabled in {string.Join(", ", offenders)}): "
        + "run dotnet test -c Release, or set <Configuration Condition=\"'$(Configuration)' == ''\">Release</Configuration> in a Directory.Build.props "
        + "that covers the tests and every project they reference (the repository's root)";

    private static List<string> FindNonOptimizedInThisProcess()
    {
        var found = new SortedSet<string>(StringComparer.Ordinal);
        var loaded = new List<Assembly> { typeof(BuildOptimization).Assembly };
        if (Assembly.GetEntryAssembly() is { } entry)
        {
            loaded.Add(entry);
        }

        found.UnionWith(FindNonOptimized(loaded));
        var folder = Path.GetFullPath(AppContext.BaseDirectory);
        found.UnionWith(FindNonOptimizedProjects(folder).Select(Path.GetFileNameWithoutExtension).OfType<string>());
        return [.. found];
    }

    // The runtime assets of every library of type "project" in each deps.json of the folder: the files the build
    // copied there from the projects it built, as opposed to packages.
    private static HashSet<string> ProjectAssemblies(string folder)
    {
        var files = new HashSet<string>(StringComparer.Ordinal);
        if (!Directory.Exists(folder))
        {
            return files;
        }

        foreach (var depsFile in Directory.EnumerateFiles(folder, "*.deps.json"))
        {
            try
            {
                using var deps = JsonDocument.Parse(File.ReadAllBytes(depsFile));
                AddProjectAssemblies(deps.RootElement, files);
            }
            catch (JsonException)
            {
                // A deps file the runtime could not read either; what it would have named is unknown, not refused.
            }
        }

        return files;
    }

    private static void AddProjectAssemblies(JsonElement deps, HashSet<string> files)
    {
        if (!deps.TryGetProperty("libraries", out var libraries) || libraries.ValueKind != JsonValueKind.Object
            || !deps.TryGetProperty("targets", out var targets) || targets.ValueKind != JsonValueKind.Object)
        {
            return;
        }

        var projects = libraries.EnumerateObject()
            .Where(l => l.Value.ValueKind == JsonValueKind.Object && l.Value.TryGetProperty("type", out var type) && type.ValueEquals("project"))
            .Select(l => l.Name)
            .ToHashSet(StringComparer.Ordinal);
        foreach (var target in targets.EnumerateObject().Where(t => t.Value.ValueKind == JsonValueKind.Object))
        {
            foreach (var library in target.Value.EnumerateObject().Where(l => projects.Contains(l.Name)))
            {
                if (library.Value.ValueKind == JsonValueKind.Object && library.Value.TryGetProperty("runtime", out var runtime)
                    && runtime.ValueKind == JsonValueKind.Object)
                {
                    files.UnionWith(runtime.EnumerateObject().Select(r => Path.GetFileName(r.Name)));
                }
            }
        }
    }

    private static bool IsDebuggableAttribute(MetadataReader reader, EntityHandle constructor)
    {
        var type = constructor.Kind switch
        {
            HandleKind.MemberReference => reader.GetMemberReference((MemberReferenceHandle)constructor).Parent,
            HandleKind.MethodDefinition => reader.GetMethodDefinition((MethodDefinitionHandle)constructor).GetDeclaringType(),
            _ => default,
        };
        return type.Kind switch
        {
            HandleKind.TypeReference => IsDebuggable(reader, reader.GetTypeReference((TypeReferenceHandle)type).Namespace, reader.GetTypeReference((TypeReferenceHandle)type).Name),
            HandleKind.TypeDefinition => IsDebuggable(reader, reader.GetTypeDefinition((TypeDefinitionHandle)type).Namespace, reader.GetTypeDefinition((TypeDefinitionHandle)type).Name),
            _ => false,
        };
    }

    private static bool IsDebuggable(MetadataReader reader, StringHandle ns, StringHandle name) =>
        reader.StringComparer.Equals(ns, "System.Diagnostics") && reader.StringComparer.Equals(name, "DebuggableAttribute");

    // The attribute has two constructors: (DebuggingModes modes) and (bool isJITTrackingEnabled, bool
    // isJITOptimizerDisabled). The blob is the prolog (0x0001) and the fixed arguments (ECMA-335 II.23.3).
    private static int DebuggingModes(MetadataReader reader, CustomAttribute attribute)
    {
        var blob = reader.GetBlobReader(attribute.Value);
        if (blob.Length < 4 || blob.ReadUInt16() != 1)
        {
            return 0;
        }

        // (DebuggingModes): four bytes of modes and two of named-argument count; (bool, bool): two bytes and two.
        if (blob.RemainingBytes >= 6)
        {
            return blob.ReadInt32();
        }

        blob.ReadBoolean();
        return blob.ReadBoolean() ? DisableOptimizations : 0;
    }
}
