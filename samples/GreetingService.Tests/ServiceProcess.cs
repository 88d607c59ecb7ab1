using System.Diagnostics;
using System.Net;
using System.Text.RegularExpressions;
using PerfBudgets.Measuring;

namespace GreetingService.Tests;

/// <summary>
/// The service in a process of its own on 127.0.0.1 and a port it picks itself, optionally under Callgrind; killed on
/// dispose.
/// </summary>
internal sealed partial class ServiceProcess : IDisposable
{
    private readonly Process _process;

    private ServiceProcess(Process process, Uri address)
    {
        _process = process;
        Address = address;
        EndPoint = new IPEndPoint(IPAddress.Parse(address.Host), address.Port);
    }

    public IPEndPoint EndPoint { get; }

    public int ProcessId => _process.Id;

    public Uri Address { get; }

    /// <summary>
    /// How <see cref="StartAsync(ProcessStartInfo, bool)"/> launches the service, not started. The service binds port 0
    /// and logs the port it got, so this start is the same every run: a counted session keyed by it can be reused
    /// (<see cref="CallgrindServer.MeasureSessionAsync"/>), where a port picked here would differ each time.
    /// </summary>
    public static ProcessStartInfo Planned(CallgrindServer? underCallgrind = null)
    {
        var assembly = Path.Combine(AppContext.BaseDirectory, "GreetingService.dll");
        // The service logs at Warning; its listening line is an Information line of the host's lifetime.
        string[] arguments = [assembly, "--urls", "http://127.0.0.1:0", "--Logging:LogLevel:Microsoft.Hosting.Lifetime", "Information"];
        var start = underCallgrind?.StartInfo(InstructionMeter.DotnetHost, arguments) ?? new ProcessStartInfo("dotnet", arguments);
        if (underCallgrind is not null)
        {
            // One pool thread and one socket thread under Callgrind, so each request takes the same path.
            foreach (var (name, value) in CallgrindServer.SteadyServerEnvironment)
            {
                start.Environment[name] = value;
            }
        }

        start.RedirectStandardOutput = true;
        start.RedirectStandardError = true;
        start.UseShellExecute = false;
        return start;
    }

    public static Task<ServiceProcess> StartAsync(CallgrindServer? underCallgrind = null) =>
        StartAsync(Planned(underCallgrind), counted: underCallgrind is not null);

    /// <summary>Starts <paramref name="start"/> (from <see cref="Planned"/>) and waits until the service answers.</summary>
    public static async Task<ServiceProcess> StartAsync(ProcessStartInfo start, bool counted)
    {
        var listening = new TaskCompletionSource<Uri>(TaskCreationOptions.RunContinuationsAsynchronously);
        var process = new Process { StartInfo = start, EnableRaisingEvents = true };
        process.Exited += (_, _) => listening.TrySetException(new InvalidOperationException("the service exited before it listened"));
        process.OutputDataReceived += (_, e) =>
        {
            if (e.Data is { } line && ListeningLine().Match(line) is { Success: true } match)
            {
                listening.TrySetResult(new Uri(match.Groups[1].Value));
            }
        };
        process.ErrorDataReceived += (_, _) => { };
        process.Start();
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();

        // Under Callgrind the service's start is counted instruction by instruction: beside another counted suite on a
        // busy 2-core machine it took over 3 minutes, so the deadline there is 10.
        var deadline = DateTime.UtcNow.AddSeconds(counted ? 600 : 30);
        Uri address;
        try
        {
            address = await listening.Task.WaitAsync(deadline - DateTime.UtcNow);
        }
        catch (Exception e) when (e is TimeoutException or InvalidOperationException)
        {
            Stop(process);
            throw new InvalidOperationException("the service did not report a listening address", e);
        }

        var service = new ServiceProcess(process, address);
        using var client = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
        for (; ; await Task.Delay(200))
        {
            try
            {
                if ((await client.GetAsync(new Uri(service.Address, "/greet/ready"))).IsSuccessStatusCode)
                {
                    return service;
                }
            }
            catch (Exception e) when (e is HttpRequestException or TaskCanceledException && DateTime.UtcNow < deadline)
            {
            }

            if (process.HasExited || DateTime.UtcNow >= deadline)
            {
                service.Dispose();
                throw new InvalidOperationException($"the service did not answer at {service.Address}");
            }
        }
    }

    public void Dispose() => Stop(_process);

    private static void Stop(Process process)
    {
        if (!process.HasExited)
        {
            process.Kill(entireProcessTree: true);
            process.WaitForExit();
        }

        process.Dispose();
    }

    [GeneratedRegex(@"Now listening on: (http://\S+)")]
    private static partial Regex ListeningLine();
}
