using System.Text.Json;

namespace PerfBudgets.Measuring;

/// <summary>
/// The runtime settings of a counted start (<see cref="CallgrindServer"/> with <c>countStartup</c>), taken from the
/// app's own <c>runtimeconfig.json</c> where the count allows it, and each setting the gate must override named with
/// its reason, as the app ships it against as it is counted.
/// </summary>
/// <remarks>
/// Tiered compilation is the app's: a project that turns it off starts with every method fully optimized, and the count
/// shows what that costs. The others are the gate's, for a count that repeats: the app's values are in the note.
/// </remarks>
internal static class CountedStartSettings
{
    // Environment variable, the runtimeconfig.json property it stands for (or none), the runtime's default, the value a
    // counted start sets (null: the one InstructionMeter.DeterministicEnvironment sets for every counted process), and
    // why the gate sets it whatever the app says.
    private static readonly (string Variable, string? Property, string Default, string? Value, string Reason)[] Overrides =
    [
        ("DOTNET_TC_CallCounting", null, "1", "0", "no method is recompiled optimized in the background, whose timing under Callgrind would move the count"),
        ("DOTNET_TC_QuickJitForLoops", "System.Runtime.TieredCompilation.QuickJitForLoops", "true", "0",
            "a method with a loop is compiled optimized at once, not through on-stack replacement, whose patchpoints count a loop in a runtime helper no method name covers"),
        ("DOTNET_TieredPGO", "System.Runtime.TieredPGO", "true", null, "no instrumented code: with call counting off no method would reach an instrumented tier anyway"),
        ("DOTNET_gcServer", "System.GC.Server", "false", null, "workstation GC: a server GC's heap per core and its GC threads would make the count the machine's and the threads' timing"),
        ("DOTNET_gcConcurrent", "System.GC.Concurrent", "true", null, "no background GC thread"),
        ("DOTNET_PROCESSOR_COUNT", null, "the machine's", "2", "a start sizes pools and queues by the processor count (Kestrel's I/O queues, for one)"),
    ];

    /// <summary>
    /// The environment a counted start of <paramref name="appAssembly"/> adds over <see cref="InstructionMeter.DeterministicEnvironment"/>,
    /// and one line per setting (of either) that differs from what the app ships, with the reason.
    /// </summary>
    public static (IReadOnlyDictionary<string, string> Environment, IReadOnlyList<string> Overridden) For(string? appAssembly)
    {
        var shipped = ConfigProperties(appAssembly);
        var environment = new Dictionary<string, string>(StringComparer.Ordinal)
        {
            // As the app ships: on unless its project turned it off.
            ["DOTNET_TieredCompilation"] = shipped.TryGetValue("System.Runtime.TieredCompilation", out var tiered) && tiered == "false" ? "0" : "1",
        };
        var overridden = new List<string>();
        foreach (var (variable, property, runtimeDefault, own, reason) in Overrides)
        {
            var value = own ?? InstructionMeter.DeterministicEnvironment[variable];
            if (own is not null)
            {
                environment[variable] = own;
            }

            var ships = property is not null && shipped.TryGetValue(property, out var appValue) ? appValue : runtimeDefault;
            if (!SameSetting(ships, value))
            {
                overridden.Add($"{variable}={value} (ships {(property is null ? ships : $"{property}={ships}")}): {reason}");
            }
        }

        return (environment, overridden);
    }

    private static bool SameSetting(string shipped, string value) =>
        string.Equals(shipped, value, StringComparison.OrdinalIgnoreCase)
        || (value == "0" && shipped == "false") || (value == "1" && shipped == "true");

    // The configProperties of APP.runtimeconfig.json beside the app's assembly, as text (true, false, numbers).
    private static Dictionary<string, string> ConfigProperties(string? appAssembly)
    {
        var properties = new Dictionary<string, string>(StringComparer.Ordinal);
        var path = appAssembly is null ? null : Path.ChangeExtension(appAssembly, ".runtimeconfig.json");
        if (path is null || !File.Exists(path))
        {
            return properties;
        }

        using var document = JsonDocument.Parse(File.ReadAllText(path));
        if (document.RootElement.TryGetProperty("runtimeOptions", out var options) && options.TryGetProperty("configProperties", out var config))
        {
            foreach (var property in config.EnumerateObject())
            {
                properties[property.Name] = property.Value.ValueKind switch
                {
                    JsonValueKind.True => "true",
                    JsonValueKind.False => "false",
                    _ => property.Value.ToString(),
                };
            }
        }

        return properties;
    }
}
