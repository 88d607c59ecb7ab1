using System.Diagnostics;
using System.Globalization;
using Npgsql;

namespace PerfBudgets.Server.Tests.Postgres;

/// <summary>
/// A throw-away PostgreSQL cluster for the server's tests: <c>initdb</c> into a temporary folder, <c>pg_ctl start</c>
/// listening on a unix socket in that folder only (no TCP port), one database; stopped and deleted when the collection
/// ends. Started once per test run (about 2 s), each test then takes a schema of its own (<see cref="NewDatabaseAsync"/>).
/// </summary>
/// <remarks>
/// initdb refuses to run as root, so under root the folder is given to the <c>postgres</c> user and the binaries run
/// as it (<c>runuser -u postgres --</c>). Where the binaries are missing the tests fail naming what to install, unless
/// <c>PERF_SKIP_POSTGRES=1</c> says to skip them.
/// </remarks>
public sealed class PostgresCluster : IAsyncLifetime
{
    private const string Database = "perfbudgets_tests";
    private const string FolderPrefix = "perfbudgets-pg-";

    // The id of the test process that started a cluster, so that a later run can stop one whose process was killed.
    private const string OwnerFile = "owner.pid";
    private static readonly TimeSpan CommandTimeout = TimeSpan.FromSeconds(60);

    private string? _folder;
    private string? _bin;
    private string? _unavailable;
    private string? _connectionString;

    /// <summary>How long starting the cluster took (initdb, start, create database).</summary>
    public TimeSpan StartTime { get; private set; }

    public async ValueTask InitializeAsync()
    {
        var clock = Stopwatch.StartNew();
        _bin = FindBinaries();
        if (_bin is null)
        {
            _unavailable = "PostgreSQL's server binaries (initdb, pg_ctl) are not installed under /usr/lib/postgresql/*/bin (or PERF_POSTGRES_BIN): " +
                "install Debian's postgresql package (apt-get install postgresql) or set PERF_SKIP_POSTGRES=1 to skip the PostgreSQL tests.";
            return;
        }

        await StopAbandonedClustersAsync();
        _folder = Directory.CreateTempSubdirectory(FolderPrefix).FullName;
        await File.WriteAllTextAsync(Path.Combine(_folder, OwnerFile), Environment.ProcessId.ToString(CultureInfo.InvariantCulture));
        var data = Path.Combine(_folder, "data");
        if (Environment.UserName == "root")
        {
            await RunAsync("chown", ["postgres:postgres", _folder], asPostgres: false);
        }

        await RunAsync(Path.Combine(_bin, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync", "--no-instructions"], asPostgres: true);
        // Durability is worth nothing to a cluster deleted after the tests: no fsync makes start and every commit cheap.
        await RunAsync(Path.Combine(_bin, "pg_ctl"), ["-D", data, "-l", Path.Combine(_folder, "postgres.log"), "-w", "-t", "30",
            "-o", $"-c listen_addresses='' -k {_folder} -c fsync=off -c synchronous_commit=off -c full_page_writes=off", "start"], asPostgres: true);
        var admin = new NpgsqlConnectionStringBuilder { Host = _folder, Username = "postgres", Database = "postgres", Pooling = false }.ToString();
        await using (var connection = new NpgsqlConnection(admin))
        {
            await connection.OpenAsync();
            await using var create = new NpgsqlCommand($"CREATE DATABASE {Database}", connection);
            await create.ExecuteNonQueryAsync();
        }

        _connectionString = new NpgsqlConnectionStringBuilder { Host = _folder, Username = "postgres", Database = Database }.ToString();
        StartTime = clock.Elapsed;
    }

    /// <summary>
    /// A connection string to a schema of its own (an empty database as the server sees it); skips the test under
    /// <c>PERF_SKIP_POSTGRES=1</c> where PostgreSQL is not installed, fails it otherwise.
    /// </summary>
    public async Task<string> NewDatabaseAsync()
    {
        if (_unavailable is not null)
        {
            if (Environment.GetEnvironmentVariable("PERF_SKIP_POSTGRES") == "1")
            {
                Assert.Skip($"PostgreSQL not measured: PERF_SKIP_POSTGRES=1 and {_unavailable}");
            }

            Assert.Fail(_unavailable);
        }

        var schema = $"t_{Guid.NewGuid():N}";
        await using (var connection = new NpgsqlConnection(_connectionString))
        {
            await connection.OpenAsync();
            await using var create = new NpgsqlCommand($"CREATE SCHEMA {schema}", connection);
            await create.ExecuteNonQueryAsync();
        }

        return new NpgsqlConnectionStringBuilder(_connectionString) { SearchPath = schema }.ToString();
    }

    public async ValueTask DisposeAsync()
    {
        if (_folder is null)
        {
            return;
        }

        NpgsqlConnection.ClearAllPools();
        try
        {
            await RunAsync(Path.Combine(_bin!, "pg_ctl"), ["-D", Path.Combine(_folder, "data"), "-m", "immediate", "-w", "stop"], asPostgres: true);
        }
        finally
        {
            Directory.Delete(_folder, recursive: true);
        }
    }

    // A test process killed before its fixture ended leaves its postgres running: stop and delete every cluster of
    // ours whose owner process is gone.
    private async Task StopAbandonedClustersAsync()
    {
        foreach (var folder in Directory.GetDirectories(Path.GetTempPath(), FolderPrefix + "*"))
        {
            var owner = Path.Combine(folder, OwnerFile);
            if (!File.Exists(owner) || !int.TryParse(await File.ReadAllTextAsync(owner), out var pid) || IsRunning(pid))
            {
                continue;
            }

            try
            {
                if (File.Exists(Path.Combine(folder, "data", "postmaster.pid")))
                {
                    await RunAsync(Path.Combine(_bin!, "pg_ctl"), ["-D", Path.Combine(folder, "data"), "-m", "immediate", "-w", "stop"], asPostgres: true);
                }

                Directory.Delete(folder, recursive: true);
            }
            catch (Exception e) when (e is InvalidOperationException or IOException or UnauthorizedAccessException)
            {
                // Someone else's folder, or one being removed: not this run's business.
            }
        }
    }

    private static bool IsRunning(int pid)
    {
        try
        {
            using var process = Process.GetProcessById(pid);
            return !process.HasExited;
        }
        catch (ArgumentException)
        {
            return false;
        }
    }

    // PERF_POSTGRES_BIN names the folder of initdb and pg_ctl; otherwise the newest PostgreSQL Debian installed.
    private static string? FindBinaries() =>
        Environment.GetEnvironmentVariable("PERF_POSTGRES_BIN") is { Length: > 0 } named
            ? (File.Exists(Path.Combine(named, "initdb")) && File.Exists(Path.Combine(named, "pg_ctl")) ? named : null)
            : Directory.Exists("/usr/lib/postgresql")
            ? Directory.GetDirectories("/usr/lib/postgresql")
                .Select(d => Path.Combine(d, "bin"))
                .Where(bin => File.Exists(Path.Combine(bin, "initdb")) && File.Exists(Path.Combine(bin, "pg_ctl")))
                .OrderByDescending(bin => int.TryParse(Path.GetFileName(Path.GetDirectoryName(bin)), out var major) ? major : 0)
                .FirstOrDefault()
            : null;

    private async Task RunAsync(string program, string[] arguments, bool asPostgres)
    {
        var start = new ProcessStartInfo(asPostgres && Environment.UserName == "root" ? "runuser" : program)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            // pg_ctl's server inherits the handles; it must not hold the test's pipes open.
            RedirectStandardInput = false,
        };
        if (start.FileName == "runuser")
        {
            foreach (var a in new[] { "-u", "postgres", "--", program })
            {
                start.ArgumentList.Add(a);
            }
        }

        foreach (var argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        var run = await ProcessTree.RunAsync(start, CommandTimeout)
            ?? throw new InvalidOperationException($"{program} {string.Join(' ', arguments)} did not finish in {CommandTimeout.TotalSeconds} s.");
        if (run.ExitCode != 0)
        {
            var log = _folder is not null && File.Exists(Path.Combine(_folder, "postgres.log")) ? await File.ReadAllTextAsync(Path.Combine(_folder, "postgres.log")) : "";
            throw new InvalidOperationException(
                $"{program} {string.Join(' ', arguments)} exited {run.ExitCode}: {run.Output} {run.Error} {log}");
        }
    }
}
