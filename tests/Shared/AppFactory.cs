using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.Logging;

namespace PerfGate.Tests;

/// <summary>
/// The system under test in this process (<see cref="WebApplicationFactory{TEntryPoint}"/>), not yet started: on the
/// in-memory test server when a test asks for its services or a client, on a real socket through <see cref="KestrelApp"/>.
/// </summary>
public static class AppFactory
{
    /// <summary>A factory whose <paramref name="settings"/> override configuration keys (e.g. <c>EchoServer:Enabled</c>).</summary>
    public static WebApplicationFactory<Program> Create(IReadOnlyDictionary<string, string?>? settings = null) =>
        new WebApplicationFactory<Program>().WithWebHostBuilder(builder =>
        {
            // The server logs nothing on the hot path: only warnings and errors reach the test output.
            builder.ConfigureLogging(logging => logging.SetMinimumLevel(LogLevel.Warning));
            foreach (var (key, value) in settings ?? new Dictionary<string, string?>())
            {
                builder.UseSetting(key, value);
            }
        });
}
