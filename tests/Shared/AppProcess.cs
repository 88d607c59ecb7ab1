using System.Diagnostics;
using System.Net;
using System.Text.RegularExpressions;

namespace Shared;

/// <summary>
/// The system under test in a process of its own, on 127.0.0.1 and an ephemeral port. Used where the server must
/// not share a thread pool with the load generator: a server that blocks its pool threads would otherwise starve the
/// generator's own socket completions and measure the generator instead of the server. Every child process of the
/// app starts here: the servers (with the echo service, runtime settings in its environment, under Callgrind or not)
/// and the app's one-shot commands (<see cref="RunCommandAsync"/>).
/// </summary>
public sealed partial class AppProcess : IDisposable
{
    private readonly Process _process;

    private AppProcess(Process process, Uri baseAddress, IPEndPoint? echoEndPoint, IReadOnlyList<(string Key, string Value, string Reason)> changed)
    {
        _process = process;
        Changed = changed;
        BaseAddress = baseAddress;
        EndPoint = new IPEndPoint(IPAddress.Parse(baseAddress.Host), baseAddress.Port);
        EchoEndPoint = echoEndPoint;
    }

    /// <summary>Where the server listens.</summary>
    public Uri BaseAddress { get; }

    /// <summary>The HTTP listening socket's address.</summary>
    public IPEndPoint EndPoint { get; }

    /// <summary>The echo service's address when it was started with <c>withEchoService</c>, else null.</summary>
    public IPEndPoint? EchoEndPoint { get; }

    /// <summary>The settings this process runs with that differ from what ships, each with its reason (<see cref="Reasons"/>).</summary>
    public IReadOnlyList<(string Key, string Value, string Reason)> Changed { get; }

    /// <summary>The server's process id (for reading its CPU clock).</summary>
    public int ProcessId => _process.Id;

    /// <summary>
    /// Starts the app's built assembly as it ships (its <c>appsettings.json</c>, logging included, in the Production
    /// environment) on 127.0.0.1 and an ephemeral port, and waits for its listening line (and the echo service's, when
    /// <paramref name="withEchoService"/> starts it on 127.0.0.1 and a free port too).
    /// <paramref name="environment"/> adds variables to the server's environment (runtime settings);
    /// <paramref name="underCallgrind"/> runs it under Callgrind for the counted budgets. Every setting that differs
    /// from what ships needs a reason in <see cref="Reasons"/> (<see cref="ChangedSettings"/>); <see cref="SettingsNote"/> says them.
    /// <paramref name="assembly"/> starts another build of the app the same way (the base commit's, for the paired budgets).
    /// </summary>
    internal static async Task<AppProcess> StartAsync(TimeSpan startTimeout, CancellationToken cancellationToken,
        bool withEchoService = false, IReadOnlyDictionary<string, string>? environment = null, PerfBudgets.Measuring.CallgrindServer? underCallgrind = null,
        string? assembly = null)
    {
        var (start, changed) = Planned(withEchoService, environment, underCallgrind, assembly);
        var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start the system under test.");
        var listening = new TaskCompletionSource<Uri>(TaskCreationOptions.RunContinuationsAsynchronously);
        var echoListening = new TaskCompletionSource<IPEndPoint?>(TaskCreationOptions.RunContinuationsAsynchronously);
        if (!withEchoService)
        {
            echoListening.SetResult(null);
        }

        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is { } line && ListeningLine().Match(line) is { Success: true } match)
            {
                listening.TrySetResult(new Uri(match.Groups[1].Value.TrimEnd('/') + "/"));
            }
            else if (e.Data is { } echoLine && EchoListeningLine().Match(echoLine) is { Success: true } echoMatch)
            {
                echoListening.TrySetResult(IPEndPoint.Parse(echoMatch.Groups[1].Value));
            }
        };
        process.ErrorDataReceived += (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(startTimeout);
        try
        {
            var baseAddress = await listening.Task.WaitAsync(timeout.Token);
            return new AppProcess(process, baseAddress, await echoListening.Task.WaitAsync(timeout.Token), changed);
        }
        catch (OperationCanceledException)
        {
            Kill(process);
            process.Dispose();
            throw new TimeoutException($"The system under test did not report a listening address within {startTimeout.TotalSeconds} s.");
        }
    }

    /// <summary>
    /// The start <see cref="StartAsync"/> makes of the app as built under <paramref name="underCallgrind"/>, without
    /// starting it, and how its settings differ from what ships (<see cref="SettingsNote"/>): what a counted session is
    /// keyed by (<see cref="PerfBudgets.Measuring.CallgrindServer.MeasureSessionAsync"/>).
    /// </summary>
    internal static (ProcessStartInfo Start, string SettingsNote) PlannedStart(bool withEchoService, IReadOnlyDictionary<string, string>? environment,
        PerfBudgets.Measuring.CallgrindServer underCallgrind, string? assembly = null)
    {
        var (start, changed) = Planned(withEchoService, environment, underCallgrind, assembly);
        return (start, ChangedSettingsNote(changed));
    }

    // The one place a start of StartAsync is composed, so that the start a counted session is keyed by is the start it
    // launches.
    private static (ProcessStartInfo Start, IReadOnlyList<(string Key, string Value, string Reason)> Changed) Planned(bool withEchoService,
        IReadOnlyDictionary<string, string>? environment, PerfBudgets.Measuring.CallgrindServer? underCallgrind, string? assembly)
    {
        var settings = StartSettings(withEchoService);
        var changed = ChangedSettings(settings, environment);
        return (StartInfo(assembly ?? typeof(Program).Assembly.Location, settings.Select(s => $"--{s.Key}={s.Value}"), environment, underCallgrind), changed);
    }

    /// <summary>The folder of the app's built assembly, which <see cref="StartAsync"/> starts.</summary>
    internal static string AppDirectory => Path.GetDirectoryName(typeof(Program).Assembly.Location)!;

    /// <summary>The configuration keys a start passes on the command line.</summary>
    internal static IReadOnlyList<KeyValuePair<string, string>> StartSettings(bool withEchoService)
    {
        var settings = new List<KeyValuePair<string, string>> { new("Urls", "http://127.0.0.1:0") };
        if (withEchoService)
        {
            settings.AddRange([new("EchoServer:Enabled", "true"), new("EchoServer:Address", "127.0.0.1"), new("EchoServer:Port", "0")]);
        }

        return settings;
    }

    /// <inheritdoc />
    public void Dispose()
    {
        try
        {
            Kill(_process);
        }
        finally
        {
            _process.Dispose();
        }
    }

    /// <summary>
    /// Runs one of the app's commands (e.g. <c>delay-compare</c>; see its <c>Cli/CommandLine.cs</c>) in a process of its
    /// own and returns its exit code and what it wrote; a command still running after <paramref name="timeout"/> is killed.
    /// </summary>
    public static async Task<(int ExitCode, string Output, string Error)> RunCommandAsync(IReadOnlyList<string> arguments, TimeSpan timeout, CancellationToken cancellationToken)
    {
        using var process = Start(arguments, environment: null, underCallgrind: null);
        using var limit = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        limit.CancelAfter(timeout);
        var output = process.StandardOutput.ReadToEndAsync(limit.Token);
        var error = process.StandardError.ReadToEndAsync(limit.Token);
        try
        {
            await process.WaitForExitAsync(limit.Token);
        }
        catch (OperationCanceledException)
        {
            Kill(process);
            throw;
        }

        return (process.ExitCode, await output, await error);
    }

    /// <summary>The dotnet host that runs the tests (set by the SDK), else <c>dotnet</c> on PATH.</summary>
    public static string DotnetHost => PerfBudgets.Measuring.InstructionMeter.DotnetHost;

    // The app's built assembly under the dotnet host (or under Callgrind) with its output redirected, and the given
    // variables added to its environment.
    private static Process Start(IEnumerable<string> arguments, IReadOnlyDictionary<string, string>? environment, PerfBudgets.Measuring.CallgrindServer? underCallgrind, string? assembly = null) =>
        Process.Start(StartInfo(assembly ?? typeof(Program).Assembly.Location, arguments, environment, underCallgrind)) ?? throw new InvalidOperationException("Could not start the system under test.");

    /// <summary>
    /// The start of the app's server as it ships on 127.0.0.1:<paramref name="port"/>, for timing its start; with
    /// <paramref name="assembly"/>, of another app's built assembly launched the same way (the startup budget's reference).
    /// </summary>
    internal static ProcessStartInfo ServerStartInfo(int port, string? assembly = null)
    {
        var settings = new List<KeyValuePair<string, string>> { new("Urls", $"http://127.0.0.1:{port}") };
        _ = ChangedSettings(settings, environment: null);
        return StartInfo(assembly ?? typeof(Program).Assembly.Location, settings.Select(s => $"--{s.Key}={s.Value}"), environment: null, underCallgrind: null);
    }

    private static ProcessStartInfo StartInfo(string assembly, IEnumerable<string> arguments, IReadOnlyDictionary<string, string>? environment, PerfBudgets.Measuring.CallgrindServer? underCallgrind)
    {
        var args = new List<string> { assembly };
        args.AddRange(arguments);
        ProcessStartInfo start;
        if (underCallgrind is not null)
        {
            start = underCallgrind.StartInfo(DotnetHost, args);
        }
        else
        {
            start = new ProcessStartInfo(DotnetHost)
            {
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
            };
            args.ForEach(start.ArgumentList.Add);
        }

        // The environment the app ships to, whatever the shell that started the tests says.
        start.Environment["ASPNETCORE_ENVIRONMENT"] = ShippedEnvironment;
        start.Environment["DOTNET_ENVIRONMENT"] = ShippedEnvironment;
        foreach (var (name, value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        return start;
    }

    /// <summary>
    /// Kills the app with every process it started and waits, for a bounded time, for it to be gone: a child left
    /// running would hold its port and a share of the cores into the next test, and an unbounded wait would hang the
    /// suite on a process that will not die.
    /// </summary>
    private static void Kill(Process process)
    {
        try
        {
            if (!process.HasExited)
            {
                process.Kill(entireProcessTree: true);
            }
        }
        catch (InvalidOperationException)
        {
            // It exited between the check and the kill: nothing is left to end.
        }

        process.WaitForExit(TimeSpan.FromSeconds(10));
    }

    [GeneratedRegex(@"Now listening on: (http://\S+)")]
    private static partial Regex ListeningLine();

    [GeneratedRegex(@"Echo service listening on (\S+:\d+)")]
    private static partial Regex EchoListeningLine();
}
