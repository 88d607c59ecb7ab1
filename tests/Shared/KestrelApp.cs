using System.Net;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Mvc.Testing;
using Microsoft.Extensions.DependencyInjection;
#if !NET10_0_OR_GREATER
using Microsoft.AspNetCore.Hosting;
using Microsoft.Extensions.Hosting;
#endif

namespace Shared;

/// <summary>
/// The system under test on a real Kestrel socket on 127.0.0.1 and an ephemeral port, in this process.
/// </summary>
public sealed class KestrelApp : IDisposable
{
    private readonly WebApplicationFactory<Program> _factory;

    private KestrelApp(WebApplicationFactory<Program> factory, IServiceProvider services)
    {
        _factory = factory;
        Services = services;
        var addresses = services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses;
        var address = addresses.Single();
        BaseAddress = new Uri(address.EndsWith('/') ? address : address + "/");
        EndPoint = new IPEndPoint(IPAddress.Parse(BaseAddress.Host), BaseAddress.Port);
    }

    /// <summary>Where the server listens, e.g. <c>http://127.0.0.1:41234/</c>.</summary>
    public Uri BaseAddress { get; }

    /// <summary>The listening socket's address.</summary>
    public IPEndPoint EndPoint { get; }

    /// <summary>The app's services.</summary>
    public IServiceProvider Services { get; }

    /// <summary>Starts the app; <paramref name="settings"/> override configuration keys (e.g. <c>DelayApi:MaxDelayMilliseconds</c>).</summary>
    public static KestrelApp Start(IReadOnlyDictionary<string, string?>? settings = null)
    {
#if NET10_0_OR_GREATER
        var factory = AppFactory.Create(settings);
        factory.UseKestrel(options => options.Listen(IPAddress.Loopback, 0));
        factory.StartServer();
        return new KestrelApp(factory, factory.Services);
#else
        var kestrel = new KestrelFactory();
        // The host built on Kestrel a second time also starts a listener on the shipped Urls (127.0.0.1:5000), which
        // is never sent a request; on an ephemeral port it cannot collide with anything else on the machine.
        var withEphemeralUrls = new Dictionary<string, string?>(settings ?? new Dictionary<string, string?>()) { ["Urls"] = "http://127.0.0.1:0" };
        var factory = AppFactory.Configure(kestrel, withEphemeralUrls);
        _ = factory.Server;
        return new KestrelApp(factory, kestrel.KestrelHost!.Services);
#endif
    }

    /// <inheritdoc />
    public void Dispose() => _factory.Dispose();

#if !NET10_0_OR_GREATER
    // WebApplicationFactory.UseKestrel is new in .NET 10. Before it (the three-runtime comparison builds the suites for
    // .NET 8 and 9), the factory's host builder is built twice: once as the factory expects, on its in-memory test
    // server, which is never sent a request, and once more on Kestrel, the host the tests use.
    private sealed class KestrelFactory : WebApplicationFactory<Program>
    {
        public IHost? KestrelHost { get; private set; }

        protected override IHost CreateHost(IHostBuilder builder)
        {
            var testHost = builder.Build();
            builder.ConfigureWebHost(web => web.UseKestrel(options => options.Listen(IPAddress.Loopback, 0)));
            KestrelHost = builder.Build();
            KestrelHost.Start();
            testHost.Start();
            return testHost;
        }

        protected override void Dispose(bool disposing)
        {
            if (disposing)
            {
                KestrelHost?.Dispose();
            }

            base.Dispose(disposing);
        }
    }
#endif
}
