using Microsoft.Extensions.Options;
using SystemUnderTest.Json;

// In the DI namespace, as ASP.NET Core's own AddX methods are, so Program.cs needs one line and no using.
#pragma warning disable IDE0130 // Namespace does not match folder structure
namespace Microsoft.Extensions.DependencyInjection;
#pragma warning restore IDE0130

/// <summary>Registers the JSON pools and the settings of the <c>/api/employees</c> endpoints.</summary>
public static class JsonPoolsServiceCollectionExtensions
{
    /// <summary>
    /// Binds <see cref="JsonPoolOptions"/> to the <c>JsonPools</c> section (validated on start) and registers one
    /// <see cref="JsonStrategies"/> (the serializer settings and every pool) as a singleton.
    /// </summary>
    public static IServiceCollection AddJsonPools(this IServiceCollection services, IConfiguration configuration)
    {
        ArgumentNullException.ThrowIfNull(services);
        ArgumentNullException.ThrowIfNull(configuration);
        services.AddOptions<JsonPoolOptions>()
            .Bind(configuration.GetSection(JsonPoolOptions.SectionName))
            .ValidateDataAnnotations()
            .ValidateOnStart();
        services.AddSingleton(provider => new JsonStrategies(provider.GetRequiredService<IOptions<JsonPoolOptions>>().Value));
        return services;
    }
}
