namespace Shared;

/// <summary>The HttpClient a load run sends with, whichever server it targets (in this process, a child process, or <c>LOAD_TARGET_URL</c>).</summary>
public static class LoadClient
{
    /// <summary>An HttpClient for load: one connection per concurrent request, no connection recycling.</summary>
    public static HttpClient Create(Uri baseAddress, int maxConnections) => new(new SocketsHttpHandler
    {
        MaxConnectionsPerServer = maxConnections,
        PooledConnectionLifetime = Timeout.InfiniteTimeSpan,
        PooledConnectionIdleTimeout = TimeSpan.FromMinutes(5),
        UseProxy = false,
        AllowAutoRedirect = false,
    })
    {
        BaseAddress = baseAddress,
        Timeout = TimeSpan.FromSeconds(30),
    };
}
