namespace Shared;

/// <summary>
/// Where load goes: the app started in this process on an ephemeral port, or, when <c>LOAD_TARGET_URL</c> is set,
/// an already running server (another machine's load run). Only loopback servers are started here.
/// </summary>
public sealed class LoadTarget : IDisposable
{
    /// <summary>Environment variable naming an already running server, e.g. <c>http://10.0.0.5:5000/</c>.</summary>
    public const string EnvironmentVariable = "LOAD_TARGET_URL";

    private readonly KestrelApp? _app;

    private LoadTarget(Uri baseAddress, KestrelApp? app)
    {
        BaseAddress = baseAddress;
        _app = app;
    }

    /// <summary>The server's base address.</summary>
    public Uri BaseAddress { get; }

    /// <summary>True when the server runs in this process (and so shares its cores with the load generator).</summary>
    public bool IsInProcess => _app is not null;

    /// <summary>True when <c>LOAD_TARGET_URL</c> names an already running server.</summary>
    public static bool IsExternal => ExternalBaseAddress is not null;

    /// <summary>The server named by <c>LOAD_TARGET_URL</c>, or null.</summary>
    public static Uri? ExternalBaseAddress
    {
        get
        {
            var external = Environment.GetEnvironmentVariable(EnvironmentVariable);
            if (string.IsNullOrWhiteSpace(external))
            {
                return null;
            }

            return Uri.TryCreate(external.EndsWith('/') ? external : external + "/", UriKind.Absolute, out var uri) && uri.Scheme is "http" or "https"
                ? uri
                : throw new InvalidOperationException($"{EnvironmentVariable}='{external}' is not an absolute http(s) URL.");
        }
    }

    /// <summary>Starts the app in-process, or points at <c>LOAD_TARGET_URL</c>.</summary>
    public static LoadTarget Acquire()
    {
        if (ExternalBaseAddress is { } external)
        {
            return new LoadTarget(external, null);
        }

        var app = KestrelApp.Start();
        return new LoadTarget(app.BaseAddress, app);
    }

    /// <inheritdoc />
    public void Dispose() => _app?.Dispose();
}
