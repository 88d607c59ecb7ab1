using System.Threading.RateLimiting;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server;

/// <summary>
/// The results server: a Kestrel app over an <see cref="IResultsStorage"/> answering the API of
/// <see cref="ResultsEndpoints"/>. <c>perfbudgets-server</c> runs it; tests start it on 127.0.0.1 port 0.
/// </summary>
internal sealed class ResultsServer : IAsyncDisposable
{
    private readonly WebApplication _app;
    private readonly string _url;
    private bool _started;

    private ResultsServer(WebApplication app, AdoResultsStorage storage, string url)
    {
        _app = app;
        Storage = storage;
        _url = url;
    }

    /// <summary>The storage the server writes to (tests read it back directly).</summary>
    public IResultsStorage Storage { get; }

    /// <summary>The change points kept between uploads (tests count its computations).</summary>
    internal Changes.ChangePointCache ChangePoints => _app.Services.GetRequiredService<Changes.ChangePointCache>();

    /// <summary>The server's services (tests reach its singletons).</summary>
    internal IServiceProvider Services => _app.Services;

    /// <summary>The bound on upload bodies held at once (tests read its peak).</summary>
    internal Upload.UploadMemoryGate Uploads => _app.Services.GetRequiredService<Upload.UploadMemoryGate>();

    /// <summary>The address actually bound (port 0 resolved), once started.</summary>
    public Uri Address => new(_app.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First());

    /// <summary>Opens (and migrates) the database and builds the app; nothing listens until <see cref="StartAsync"/>.</summary>
    public static ResultsServer Create(ResultsServerOptions options) => Create(options, logs: null);

    /// <summary>As <see cref="Create(ResultsServerOptions)"/>, with <paramref name="logs"/> also given the server's log (tests read it).</summary>
    internal static ResultsServer Create(ResultsServerOptions options, ILoggerProvider? logs)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        var thresholds = new Changes.ShiftThresholds(options.BudgetsFile is { } budgets ? LoadBudgets(budgets, options.BudgetsProfile) : null,
            options.ShiftDefaults);
        var storage = OpenStorage(options);
        var builder = WebApplication.CreateSlimBuilder();
        // Errors alone, on standard error: the host's informational lines are noise to an operator, a 500's cause is not.
        builder.Logging.ClearProviders();
        builder.Logging.SetMinimumLevel(LogLevel.Error);
        // A start that fails is the command's one line (ServerInputException), not the host's stack trace as well.
        builder.Logging.AddFilter("Microsoft.Extensions.Hosting", LogLevel.None);
        builder.Logging.AddSimpleConsole(console => console.SingleLine = true);
        builder.Services.Configure<Microsoft.Extensions.Logging.Console.ConsoleLoggerOptions>(console => console.LogToStandardErrorThreshold = LogLevel.Trace);
        if (logs is not null)
        {
            builder.Logging.AddProvider(logs);
        }

        // The slim builder leaves out Kestrel's HTTPS configuration: without it an https:// URL finds no certificate.
        builder.WebHost.UseKestrelHttpsConfiguration();
        if (options.CertificatePath is { } certificate)
        {
            builder.Configuration["Kestrel:Certificates:Default:Path"] = Path.GetFullPath(certificate);
            if (options.CertificateKeyPath is { } key)
            {
                builder.Configuration["Kestrel:Certificates:Default:KeyPath"] = Path.GetFullPath(key);
            }
        }

        builder.WebHost.UseUrls(options.Url);
        // Kestrel refuses a larger body itself (413) before the endpoint reads it; the endpoint checks again for
        // bodies without a Content-Length.
        builder.WebHost.ConfigureKestrel(kestrel => kestrel.Limits.MaxRequestBodySize = options.MaxUploadBytes);
        builder.Services.AddSingleton<IResultsStorage>(storage);
        builder.Services.AddSingleton(options);
        builder.Services.AddSingleton(new Upload.UploadMemoryGate(options.MaxUploadBytesInFlight));
        builder.Services.AddSingleton(new Counts.StoredCountUploads(options.MaxStoredCountBytes));
        builder.Services.AddSingleton(new Changes.AnonymousComputations(options.MaxAnonymousComputations));
        builder.Services.AddSingleton(thresholds);
        builder.Services.AddSingleton(new Changes.ChangePointCache(options.MaxCachedChangeSets, options.ChangePointWait));
        if (options.Prunes)
        {
            builder.Services.AddSingleton(TimeProvider.System);
            builder.Services.AddHostedService<Retention>();
        }

        builder.Services.AddRateLimiter(limiter =>
        {
            limiter.GlobalLimiter = ReadLimiter(options);
            limiter.OnRejected = (rejected, _) =>
            {
                rejected.HttpContext.Response.StatusCode = StatusCodes.Status503ServiceUnavailable;
                rejected.HttpContext.Response.Headers.RetryAfter = "1";
                return ValueTask.CompletedTask;
            };
        });
        builder.Services.AddProblemDetails();
        var allowedHosts = options.EffectiveAllowedHosts();
        if (allowedHosts is not null)
        {
            builder.Services.AddHostFiltering(filtering =>
            {
                filtering.AllowedHosts = [.. allowedHosts];
                filtering.AllowEmptyHosts = false;
            });
        }

        var app = builder.Build();
        UnhandledErrors.Use(app);
        if (options.TrustedProxies.Count > 0)
        {
            app.UseForwardedHeaders(ForwardedHeaders(options.TrustedProxies));
        }

        if (allowedHosts is not null)
        {
            app.UseHostFiltering();
        }

        app.UseRateLimiter();
        RequestTextFilter.Use(app);

        ResultsEndpoints.Map(app);
        Dashboard.DashboardEndpoints.Map(app);
        Dashboard.SignInEndpoints.Map(app);
        Changes.ChangesEndpoints.Map(app);
        Counts.StoredCountsEndpoints.Map(app);
        return new ResultsServer(app, storage, options.Url);
    }

    // The database, opened and migrated: one that cannot be opened is the operator's input, said as the setting that
    // named it and what to do, not a driver's stack trace.
    private static AdoResultsStorage OpenStorage(ResultsServerOptions options)
    {
        if (options.PostgresConnectionString is { } postgres)
        {
            try
            {
                return new PostgresResultsStorage(postgres);
            }
            catch (Exception e) when (e is System.Data.Common.DbException or System.Net.Sockets.SocketException or TimeoutException)
            {
                var named = new Npgsql.NpgsqlConnectionStringBuilder(postgres);
                throw new ServerInputException(StatusCodes.Status400BadRequest,
                    $"--postgres: PostgreSQL {named.Host}:{named.Port}/{named.Database} could not be opened ({OneLine(e)}); check that it runs and that the host, port, database and user (and the password in --postgres-file or PERFBUDGETS_POSTGRES) are right.", e);
            }
        }

        var path = Path.GetFullPath(options.DatabasePath);
        if (Directory.Exists(path))
        {
            throw new ServerInputException(StatusCodes.Status400BadRequest,
                $"--database '{path}' is a folder; name a file in it, e.g. --database {Path.Combine(path, "perfbudgets.db")}.");
        }

        if (Path.GetDirectoryName(path) is { } folder && !Directory.Exists(folder))
        {
            throw new ServerInputException(StatusCodes.Status400BadRequest,
                $"--database '{path}': its folder '{folder}' does not exist; create it (the file is created on start) or name a file in a folder that does.");
        }

        try
        {
            return new SqliteResultsStorage(path);
        }
        catch (Microsoft.Data.Sqlite.SqliteException e) when (e.SqliteErrorCode is 26 /* SQLITE_NOTADB */ or 11 /* SQLITE_CORRUPT */)
        {
            throw new ServerInputException(StatusCodes.Status400BadRequest,
                $"--database '{path}' is not a SQLite database ({OneLine(e)}); name the server's own file, or a new one to start empty.", e);
        }
        catch (Microsoft.Data.Sqlite.SqliteException e)
        {
            throw new ServerInputException(StatusCodes.Status400BadRequest,
                $"--database '{path}' could not be opened ({OneLine(e)}); check that the server may read and write it and its folder.", e);
        }
    }

    private static PerfBudgets.Budgets.BudgetBook LoadBudgets(string path, string profile)
    {
        try
        {
            return PerfBudgets.Budgets.BudgetBook.Load(path, profile);
        }
        catch (PerfBudgets.Budgets.PerfBudgetsException e)
        {
            throw new ServerInputException(StatusCodes.Status400BadRequest,
                $"--budgets '{Path.GetFullPath(path)}' cannot be read: {OneLine(e)} Give the project's budgets.json, as the gate reads it.", e);
        }
    }

    private static string OneLine(Exception e) => e.Message.ReplaceLineEndings(" ").Trim();

    // Every request but an upload (a run, a stored count) shares one concurrency limit; uploads are never queued behind readers.
    private static PartitionedRateLimiter<HttpContext> ReadLimiter(ResultsServerOptions options) =>
        PartitionedRateLimiter.Create<HttpContext, string>(context => IsUpload(context.Request)
            ? RateLimitPartition.GetNoLimiter("uploads")
            : RateLimitPartition.GetConcurrencyLimiter("reads", _ => new ConcurrencyLimiterOptions
            {
                PermitLimit = options.MaxConcurrentReads,
                QueueLimit = options.MaxQueuedReads,
                QueueProcessingOrder = QueueProcessingOrder.OldestFirst,
            }));

    private static bool IsUpload(HttpRequest request) => Counts.StoredCountsEndpoints.IsStore(request) ||
        HttpMethods.IsPost(request.Method) && request.Path.StartsWithSegments("/api/projects", StringComparison.Ordinal)
        && request.Path.Value!.EndsWith("/runs", StringComparison.Ordinal);

    // Only the proxies named: ASP.NET Core's defaults would also believe any loopback client.
    private static ForwardedHeadersOptions ForwardedHeaders(IReadOnlyList<string> trustedProxies)
    {
        var forwarded = new ForwardedHeadersOptions
        {
            ForwardedHeaders = Microsoft.AspNetCore.HttpOverrides.ForwardedHeaders.XForwardedFor
                | Microsoft.AspNetCore.HttpOverrides.ForwardedHeaders.XForwardedProto
                | Microsoft.AspNetCore.HttpOverrides.ForwardedHeaders.XForwardedHost,
        };
        forwarded.KnownProxies.Clear();
        forwarded.KnownIPNetworks.Clear();
        foreach (var proxy in trustedProxies)
        {
            if (System.Net.IPAddress.TryParse(proxy, out var address))
            {
                forwarded.KnownProxies.Add(address);
            }
            else
            {
                forwarded.KnownIPNetworks.Add(System.Net.IPNetwork.Parse(proxy));
            }
        }

        return forwarded;
    }

    public async Task StartAsync(CancellationToken cancellationToken = default)
    {
        try
        {
            await _app.StartAsync(cancellationToken);
            _started = true;
        }
        catch (NotSupportedException e) when (_url.Contains("https://", StringComparison.OrdinalIgnoreCase))
        {
            // A PEM certificate given without its key: TLS needs the private key.
            throw new ServerInputException(StatusCodes.Status400BadRequest,
                $"{_url} is https, and the certificate has no private key: give --certificate-key FILE (the PEM key of --certificate), or a PFX holding both. Kestrel: {e.Message.ReplaceLineEndings(" ")}", e);
        }
        catch (Exception e) when (e is InvalidOperationException or System.Security.Cryptography.CryptographicException
            && _url.Contains("https://", StringComparison.OrdinalIgnoreCase))
        {
            // Kestrel's own words name `dotnet dev-certs`, a developer's tool; an operator needs the server's options.
            throw new ServerInputException(StatusCodes.Status400BadRequest,
                $"{_url} is https, and Kestrel has no certificate it can use: give --certificate FILE (PEM or PFX) and --certificate-key FILE for a PEM without its key. Kestrel: {e.Message.ReplaceLineEndings(" ")}", e);
        }
    }

    /// <summary>Serves until the process is stopped (Ctrl+C).</summary>
    public async Task RunAsync()
    {
        await StartAsync();
        await _app.WaitForShutdownAsync();
    }

    public async ValueTask DisposeAsync()
    {
        if (_started)
        {
            await _app.StopAsync();
        }

        await _app.DisposeAsync();
        ((IDisposable)Storage).Dispose();
    }
}
