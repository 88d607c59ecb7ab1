using Microsoft.Extensions.Configuration;

namespace Shared;

/// <summary>
/// What the app runs with: its shipped configuration (<c>appsettings.json</c>, the Production environment), and only
/// the changes listed in <see cref="Reasons"/>, each with why. A suite that passes anything else fails at start, so a
/// measured figure never quietly comes from an app configured unlike the one that ships.
/// </summary>
public sealed partial class AppProcess
{
    /// <summary>The environment the app ships to; set explicitly, so a developer's shell cannot change it.</summary>
    public const string ShippedEnvironment = "Production";

    /// <summary>
    /// Every setting a suite may pass that differs from what ships, and why: configuration keys (passed on the command
    /// line) and environment variables (any variable is configuration to an ASP.NET Core app, and the runtime reads
    /// <c>DOTNET_</c> knobs from it; none is set where the app is deployed).
    /// </summary>
    public static readonly IReadOnlyDictionary<string, string> Reasons = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase)
    {
        ["Urls"] = "a free port on 127.0.0.1 (ephemeral, or picked free for the startup timing), so that runs side by side never collide (ships http://127.0.0.1:5000)",
        ["EchoServer:Enabled"] = "the echo service's budgets need it running (ships off)",
        ["EchoServer:Port"] = "an ephemeral port, as for Urls (ships 5001)",
        ["DOTNET_ThreadPool_ForceMinWorkerThreads"] = "a fixed pool: one thread for the counted server, whose counts moved 1-3.5% with the race between idle threads; Load.FixedPool.Threads for the blocking and open-model runs, where a blocked thread must be lost capacity at once",
        ["DOTNET_ThreadPool_ForceMaxWorkerThreads"] = "the same fixed pool",
        ["DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT"] = "one socket engine thread for the counted server, for the same race",
        ["DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS"] = "socket completions on that engine thread for the counted server, for the same race",
        ["DOTNET_hostBuilder__reloadConfigOnChange"] = "no watcher polling the configuration files in the counted server: a poll landing in a round counted as the round's work",
    };

    /// <summary>
    /// The settings of a start that differ from what ships, each with its reason, in the order passed: configuration
    /// keys first, then environment variables.
    /// </summary>
    /// <exception cref="InvalidOperationException">A setting differs from what ships and has no reason in <see cref="Reasons"/>.</exception>
    public static IReadOnlyList<(string Key, string Value, string Reason)> ChangedSettings(
        IEnumerable<KeyValuePair<string, string>> configuration, IReadOnlyDictionary<string, string>? environment)
    {
        var shipped = Shipped.Value;
        var changed = new List<(string, string, string)>();
        var unexplained = new List<string>();
        var passed = configuration.Select(s => (s.Key, s.Value, Shipped: shipped[s.Key]))
            .Concat((environment ?? new Dictionary<string, string>()).Select(v => (v.Key, v.Value, Shipped: (string?)null)));
        foreach (var (key, value, shippedValue) in passed)
        {
            if (string.Equals(value, shippedValue, StringComparison.OrdinalIgnoreCase))
            {
                continue;
            }

            if (Reasons.TryGetValue(key, out var reason))
            {
                changed.Add((key, value, reason));
            }
            else
            {
                unexplained.Add($"{key}={value} (ships {shippedValue ?? "unset"})");
            }
        }

        return unexplained.Count == 0
            ? changed
            : throw new InvalidOperationException(
                $"The system under test would run with {string.Join(", ", unexplained)}: not what ships (appsettings.json, {ShippedEnvironment}), " +
                "and no reason is listed in AppProcess.Reasons. Measure the app as it ships, or list why this setting must change.");
    }

    /// <summary>The app's shipped configuration: its <c>appsettings.json</c> beside the built assembly.</summary>
    internal static readonly Lazy<IConfiguration> Shipped = new(() => new ConfigurationBuilder()
        .AddJsonFile(Path.Combine(Path.GetDirectoryName(typeof(Program).Assembly.Location)!, "appsettings.json"), optional: false)
        .Build());

    /// <summary>
    /// How this process differs from what ships, for a budget's detail: <c>as shipped (appsettings.json, Production)
    /// but Urls=http://127.0.0.1:0 (an ephemeral port ...)</c>.
    /// </summary>
    public string SettingsNote => ChangedSettingsNote(Changed);

    /// <summary>The changed settings as one line, for a detail.</summary>
    public static string ChangedSettingsNote(IReadOnlyList<(string Key, string Value, string Reason)> changed) =>
        $"app as shipped (appsettings.json, {ShippedEnvironment})" +
        (changed.Count == 0 ? string.Empty : " but " + string.Join("; ", changed.Select(c => $"{c.Key}={c.Value}: {c.Reason}")));
}
