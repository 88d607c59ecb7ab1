using System.Diagnostics;
using System.Text.RegularExpressions;

namespace PerfGate.Tests;

/// <summary>
/// The system under test in a process of its own, on 127.0.0.1 and an ephemeral port. Used where the server must
/// not share a thread pool with the load generator: a server that blocks its pool threads would otherwise starve the
/// generator's own socket completions and measure the generator instead of the server.
/// </summary>
public sealed partial class AppProcess : IDisposable
{
    private readonly Process _process;

    private AppProcess(Process process, Uri baseAddress)
    {
        _process = process;
        BaseAddress = baseAddress;
    }

    /// <summary>Where the server listens.</summary>
    public Uri BaseAddress { get; }

    /// <summary>Starts the app's built assembly with <c>--urls http://127.0.0.1:0</c> and waits for its listening line.</summary>
    public static async Task<AppProcess> StartAsync(TimeSpan startTimeout, CancellationToken cancellationToken)
    {
        var start = new ProcessStartInfo(DotnetHost)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (var arg in new[] { typeof(Program).Assembly.Location, "--urls", "http://127.0.0.1:0", "--Logging:LogLevel:Default=Warning", "--Logging:LogLevel:Microsoft.Hosting.Lifetime=Information" })
        {
            start.ArgumentList.Add(arg);
        }

        var process = Process.Start(start) ?? throw new InvalidOperationException("Could not start the system under test.");
        var listening = new TaskCompletionSource<Uri>(TaskCreationOptions.RunContinuationsAsynchronously);
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is { } line && ListeningLine().Match(line) is { Success: true } match)
            {
                listening.TrySetResult(new Uri(match.Groups[1].Value.TrimEnd('/') + "/"));
            }
        };
        process.ErrorDataReceived += (_, _) => { };
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        timeout.CancelAfter(startTimeout);
        try
        {
            return new AppProcess(process, await listening.Task.WaitAsync(timeout.Token));
        }
        catch (OperationCanceledException)
        {
            process.Kill(entireProcessTree: true);
            process.Dispose();
            throw new TimeoutException($"The system under test did not report a listening address within {startTimeout.TotalSeconds} s.");
        }
    }

    /// <inheritdoc />
    public void Dispose()
    {
        try
        {
            if (!_process.HasExited)
            {
                _process.Kill(entireProcessTree: true);
                _process.WaitForExit(10_000);
            }
        }
        finally
        {
            _process.Dispose();
        }
    }

    /// <summary>The dotnet host that runs the tests (set by the SDK), else <c>dotnet</c> on PATH.</summary>
    public static string DotnetHost => Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") is { Length: > 0 } host ? host : "dotnet";

    [GeneratedRegex(@"Now listening on: (http://\S+)")]
    private static partial Regex ListeningLine();
}
