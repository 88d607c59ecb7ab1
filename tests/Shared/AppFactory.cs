using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Mvc.Testing;

namespace Shared;

/// <summary>
/// The system under test in this process (<see cref="WebApplicationFactory{TEntryPoint}"/>), not yet started: on the
/// in-memory test server when a test asks for its services or a client, on a real socket through <see cref="KestrelApp"/>.
/// </summary>
public static class AppFactory
{
    /// <summary>
    /// A factory for the app as it ships (<see cref="AppProcess.ShippedEnvironment"/>), whose <paramref name="settings"/>
    /// override configuration keys (e.g. <c>EchoServer:Enabled</c>): the correctness suite's inputs; the measured
    /// suites pass none.
    /// </summary>
    public static WebApplicationFactory<Program> Create(IReadOnlyDictionary<string, string?>? settings = null) =>
        Configure(new WebApplicationFactory<Program>(), settings);

    /// <summary><paramref name="factory"/> set up as <see cref="Create"/> sets up its own.</summary>
    public static WebApplicationFactory<Program> Configure(WebApplicationFactory<Program> factory, IReadOnlyDictionary<string, string?>? settings = null) =>
        factory.WithWebHostBuilder(builder =>
        {
            // As it ships: its appsettings.json (logging included) in the Production environment, where
            // WebApplicationFactory would pick Development (and with it the service provider's scope validation).
            builder.UseEnvironment(AppProcess.ShippedEnvironment);
            foreach (var (key, value) in settings ?? new Dictionary<string, string?>())
            {
                builder.UseSetting(key, value);
            }
        });
}
