using System.Net;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;

namespace PerfGate.Tests;

/// <summary>
/// The system under test on a real Kestrel socket on 127.0.0.1 and an ephemeral port, in this process.
/// </summary>
public sealed class KestrelApp : IDisposable
{
    private readonly WebApplicationFactory<Program> _factory;

    private KestrelApp(WebApplicationFactory<Program> factory, Uri baseAddress)
    {
        _factory = factory;
        BaseAddress = baseAddress;
        EndPoint = new IPEndPoint(IPAddress.Parse(baseAddress.Host), baseAddress.Port);
    }

    /// <summary>Where the server listens, e.g. <c>http://127.0.0.1:41234/</c>.</summary>
    public Uri BaseAddress { get; }

    /// <summary>The listening socket's address.</summary>
    public IPEndPoint EndPoint { get; }

    /// <summary>The app's services.</summary>
    public IServiceProvider Services => _factory.Services;

    /// <summary>Starts the app; <paramref name="settings"/> override configuration keys (e.g. <c>DelayApi:MaxDelayMilliseconds</c>).</summary>
    public static KestrelApp Start(IReadOnlyDictionary<string, string?>? settings = null)
    {
#if !NET10_0_OR_GREATER
        // WebApplicationFactory.UseKestrel is new in .NET 10; on an older runtime (the three-runtime comparison) the
        // suites that host the app in process on a socket do not run.
        throw new PlatformNotSupportedException($"The app on a real socket in this process needs .NET 10 (WebApplicationFactory.UseKestrel); this is .NET {Environment.Version}.");
#else
        var factory = AppFactory.Create(settings);
        factory.UseKestrel(options => options.Listen(IPAddress.Loopback, 0));
        factory.StartServer();
        var addresses = factory.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses;
        var address = addresses.Single();
        return new KestrelApp(factory, new Uri(address.EndsWith('/') ? address : address + "/"));
#endif
    }

    /// <inheritdoc />
    public void Dispose() => _factory.Dispose();
}
