using SystemUnderTest.Sockets.Echo;

// In the DI namespace, as ASP.NET Core's own AddX methods are, so Program.cs needs one line and no using.
#pragma warning disable IDE0130 // Namespace does not match folder structure
namespace Microsoft.Extensions.DependencyInjection;
#pragma warning restore IDE0130

/// <summary>Registers the TCP echo service.</summary>
public static class EchoServiceCollectionExtensions
{
    /// <summary>
    /// Binds the <c>EchoServer</c> section (validated on start, including the checks of
    /// <see cref="EchoServerOptions.Validate(System.ComponentModel.DataAnnotations.ValidationContext)"/>) and runs the echo service with the app when its
    /// <c>Enabled</c> setting is true (off by default).
    /// </summary>
    public static IServiceCollection AddEchoServer(this IServiceCollection services, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configuration);
        services.AddOptions<EchoServerOptions>()
            .Bind(configuration.GetSection(EchoServerOptions.SectionName))
            .ValidateDataAnnotations()
            .ValidateOnStart();
        services.AddSingleton<EchoServerHost>();
        services.AddHostedService(provider => provider.GetRequiredService<EchoServerHost>());
        return services;
    }
}
