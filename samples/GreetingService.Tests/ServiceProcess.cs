using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using PerfBudgets.Measuring;

namespace GreetingService.Tests;

/// <summary>The service in a process of its own on a free loopback port, optionally under Callgrind; killed on dispose.</summary>
internal sealed class ServiceProcess : IDisposable
{
    private readonly Process _process;

    private ServiceProcess(Process process, IPEndPoint endPoint)
    {
        _process = process;
        EndPoint = endPoint;
    }

    public IPEndPoint EndPoint { get; }

    public int ProcessId => _process.Id;

    public Uri Address => new($"http://{EndPoint}");

    public static async Task<ServiceProcess> StartAsync(CallgrindServer? underCallgrind = null)
    {
        var port = FreePort();
        var assembly = Path.Combine(AppContext.BaseDirectory, "GreetingService.dll");
        string[] arguments = [assembly, "--urls", $"http://127.0.0.1:{port}"];
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
        var process = Process.Start(start) ?? throw new InvalidOperationException("the service did not start");
        process.BeginOutputReadLine();
        process.BeginErrorReadLine();
        var service = new ServiceProcess(process, new IPEndPoint(IPAddress.Loopback, port));
        using var client = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
        // Under Callgrind the service's start is counted instruction by instruction: beside another counted suite on a
        // busy 2-core machine it took over 3 minutes, so the deadline there is 10.
        for (var deadline = DateTime.UtcNow.AddSeconds(underCallgrind is null ? 30 : 600); ; await Task.Delay(200))
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

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill(entireProcessTree: true);
            _process.WaitForExit();
        }

        _process.Dispose();
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
