using System.CommandLine;
using PerfBudgets.Server.Storage;
using PerfBudgets.Server.Tokens;

namespace PerfBudgets.Server.Cli;

/// <summary>
/// <c>perfbudgets-server [--database FILE | --postgres "Host=…"] [--url URL]</c>: the results server and its dashboard,
/// SQLite in the current folder on <c>http://127.0.0.1:5080</c> by default, PostgreSQL with a connection string.
/// <c>--add-project NAME</c> creates a project, prints its write token once (the server keeps only its hash) and exits;
/// <c>--add-read-token NAME</c> does the same for a read-only token, which a server started with
/// <c>--read-token-required</c> takes for reads; <c>--rotate-token NAME</c> replaces the write token,
/// <c>--revoke-token NAME</c> and <c>--revoke-read-token NAME</c> revoke one (<see cref="TokenAdministration"/>).
/// </summary>
internal static class ServeCommand
{
    public static RootCommand Create()
    {
        var database = new Option<string>("--database") { Description = "The SQLite file (created and migrated on start); a PostgreSQL connection string (Host=...) is taken as --postgres.", DefaultValueFactory = _ => "perfbudgets.db" };
        var postgres = new Option<string?>("--postgres") { Description = "A PostgreSQL connection string without a password, e.g. \"Host=db;Database=perfbudgets;Username=perf\" (migrated on start); a password belongs in --postgres-file, PERFBUDGETS_POSTGRES or ~/.pgpass." };
        var postgresFile = new Option<string?>("--postgres-file") { Description = "A file holding the PostgreSQL connection string (which may hold a password); default: the PERFBUDGETS_POSTGRES environment variable." };
        var trustedProxies = new Option<string[]>("--trusted-proxy") { Description = "A reverse proxy (IP address or network, e.g. 10.0.0.0/8) whose X-Forwarded-For/-Proto/-Host are believed; repeat for several. Default: none.", AllowMultipleArgumentsPerToken = true };
        var allowedHosts = new Option<string[]>("--allowed-host") { Description = "A host name requests may name (*.example.com allowed; * for any); repeat for several. Default: localhost and loopback addresses on a loopback server, else any.", AllowMultipleArgumentsPerToken = true };
        var certificate = new Option<string?>("--certificate") { Description = "The certificate (PEM or PFX) for an https:// --url." };
        var retainDays = new Option<int?>("--retain-days") { Description = "Delete runs uploaded more than this many days ago (each branch's newest run is kept), on start and hourly. Default: keep every run." };
        var retainRuns = new Option<int?>("--retain-runs-per-branch") { Description = "Delete runs beyond the newest this many of their branch, on start and hourly. Default: keep every run." };
        var prune = new Option<bool>("--prune") { Description = "Delete the runs --retain-days and --retain-runs-per-branch name, print how many, and exit." };
        var defaults = new ResultsServerOptions();
        var maxParents = Limit("--max-parents-per-commit", "The most parents one commit may name, in an upload or a baseline's ?parents=.", defaults.MaxParentsPerCommit);
        var maxResults = Limit("--max-results-per-upload", "The most figures one upload may hold.", defaults.MaxResultsPerUpload);
        var maxAncestry = Limit("--max-ancestry-per-upload", "The most ancestry entries (commits with their parents) one upload may send.", defaults.MaxAncestryPerUpload);
        var maxDepth = Limit("--max-ancestor-depth", "How many generations the nearest-ancestor search walks.", defaults.MaxAncestorDepth);
        var maxRows = Limit("--max-ancestor-rows", "How many commits (at a distance) the nearest-ancestor search visits in all.", defaults.MaxAncestorRows);
        var maxReads = Limit("--max-concurrent-reads", "How many reads (every request but an upload) are worked on at once; more wait in a queue.", defaults.MaxConcurrentReads);
        var maxQueued = Limit("--max-queued-reads", "How many reads may wait for a slot; past that a read is 503.", defaults.MaxQueuedReads);
        var runsPerPage = Limit("--runs-per-page", "How many runs a budget's dashboard page shows at a time.", defaults.RunsPerPage);
        var maxAnonymousDetail = Limit("--max-anonymous-detail-length", "The longest budget detail (characters) an anonymous reader of a public server is given in a baseline; a token reads it whole.", defaults.MaxAnonymousDetailLength);
        var maxAnonymousComputations = Limit("--max-anonymous-computations", "How many change-point searches with a reader's own minRuns or minShift readers without a token may have running at once; more are 429.", defaults.MaxAnonymousComputations);
        var storedCounts = Limit("--stored-counts-per-project", "How many counted runs a project keeps for reuse (perfbudgets counts push), the most recently used.", defaults.StoredCountsPerProject);
        var changePointRuns = Limit("--change-point-runs", "How many of a series' newest runs the change points are searched in.", defaults.ChangePointRuns);
        var certificateKey = new Option<string?>("--certificate-key") { Description = "The PEM private key of --certificate, where the certificate file does not hold it." };
        var url = new Option<string>("--url") { Description = "Where to listen.", DefaultValueFactory = _ => ResultsServerOptions.DefaultUrl };
        var maxInFlight = new Option<long>("--max-upload-bytes-in-flight") { Description = "The most bytes of upload bodies held at once; more uploads wait (then 503).", DefaultValueFactory = _ => new ResultsServerOptions().MaxUploadBytesInFlight };
        var storedCountBytes = new Option<long>("--stored-count-bytes-per-project") { Description = "How many bytes of counted runs a project keeps for reuse in all, the most recently used; at least --max-stored-count-bytes.", DefaultValueFactory = _ => new ResultsServerOptions().StoredCountBytesPerProject };
        var maxStoredCount = new Option<long>("--max-stored-count-bytes") { Description = "The largest counted run (one entry of the gate's store, zipped) a project may store for reuse, in bytes.", DefaultValueFactory = _ => new ResultsServerOptions().MaxStoredCountBytes };
        var maxUpload = new Option<long>("--max-upload-bytes") { Description = "The largest upload accepted, in bytes.", DefaultValueFactory = _ => new ResultsServerOptions().MaxUploadBytes };
        var readTokenRequired = new Option<bool>("--read-token-required") { Description = "Reads (baseline, budgets, series, dashboard) need the project's token too; by default reading is public." };
        var commitUrl = new Option<string?>("--commit-url-template") { Description = "Where the dashboard links a commit, {commit} replaced by its hash, e.g. https://github.com/org/repo/commit/{commit}." };
        var addReadToken = new Option<string?>("--add-read-token") { Description = "Make a new read-only token for this project (replacing any earlier one), print it and exit." };
        var addProject = new Option<string?>("--add-project") { Description = "Create this project, print its write token and exit." };
        var rotateToken = new Option<string?>("--rotate-token") { Description = "Give this project a new write token (the old one is refused from now on), print it and exit." };
        var revokeToken = new Option<string?>("--revoke-token") { Description = "Revoke this project's write token (no upload is taken until --rotate-token) and exit." };
        var revokeReadToken = new Option<string?>("--revoke-read-token") { Description = "Revoke this project's read-only token (and the dashboard sessions signed in with it) and exit." };
        var budgets = new Option<string?>("--budgets") { Description = "The project's budgets.json: its noise thresholds set the smallest change point of each timed budget, up to its kind's default (default: the noise each run recorded, else a table per kind)." };
        var budgetsProfile = new Option<string>("--budgets-profile") { Description = "The profile of --budgets whose settings apply: the one the uploaded runs were measured under.", DefaultValueFactory = _ => "ci" };
        var shiftDefaults = new Option<string[]>("--shift-default")
        {
            Description = "KIND=STEP: the smallest change point of a timed kind (larger median / smaller - 1), instead of the server's default for it (measured on a shared 2-core machine); may be repeated.",
            DefaultValueFactory = _ => [],
        };
        var command = new RootCommand("perfbudgets-server: the results server of PerfBudgets runs, uploaded from CI, kept in a database, served back as the baseline of any commit, with its dashboard.") { database, postgres, url, maxUpload, readTokenRequired, commitUrl, addProject, addReadToken, rotateToken, revokeToken, revokeReadToken,
            budgets, budgetsProfile, shiftDefaults, postgresFile, trustedProxies, allowedHosts, certificate, certificateKey, retainDays, retainRuns, prune,
            maxParents, maxResults, maxAncestry, maxDepth, maxRows, maxReads, maxQueued, runsPerPage, changePointRuns, maxAnonymousDetail, maxInFlight, maxAnonymousComputations, maxStoredCount, storedCounts, storedCountBytes };
        command.SetAction((parseResult, cancellationToken) => RunAsync(async () =>
        {
            var file = parseResult.GetValue(database)!;
            var inline = parseResult.GetValue(postgres) ?? (LooksLikeConnectionString(file) ? file : null);
            var connectionString = PostgresConnectionString.Resolve(inline, parseResult.GetValue(postgresFile), Environment.GetEnvironmentVariable);

            if (inline is not null && PostgresConnectionString.HoldsPassword(inline))
            {
                Console.Error.WriteLine("perfbudgets-server: warning: the connection string on the command line holds a password, which every process listing shows; use --postgres-file or PERFBUDGETS_POSTGRES.");
            }

            var options = new ResultsServerOptions
            {
                DatabasePath = file,
                PostgresConnectionString = connectionString,
                Url = parseResult.GetValue(url)!,
                MaxUploadBytes = parseResult.GetValue(maxUpload) is > 0 and var max ? max : throw new ServerInputException(400, "--max-upload-bytes must be positive."),
                ReadTokenRequired = parseResult.GetValue(readTokenRequired),
                CommitUrlTemplate = parseResult.GetValue(commitUrl),
                ShiftDefaults = ShiftDefaults(parseResult.GetValue(shiftDefaults)!),
                BudgetsFile = parseResult.GetValue(budgets) is { } path
                    ? File.Exists(path) ? path : throw new ServerInputException(400, $"--budgets '{Path.GetFullPath(path)}' does not exist.")
                    : null,
                BudgetsProfile = parseResult.GetValue(budgetsProfile)!,
                TrustedProxies = parseResult.GetValue(trustedProxies) ?? [],
                AllowedHosts = parseResult.GetValue(allowedHosts) is { Length: > 0 } hosts ? hosts : null,
                CertificatePath = parseResult.GetValue(certificate),
                CertificateKeyPath = parseResult.GetValue(certificateKey),
                RetainDays = parseResult.GetValue(retainDays),
                RetainRunsPerBranch = parseResult.GetValue(retainRuns),
                MaxParentsPerCommit = parseResult.GetValue(maxParents),
                MaxResultsPerUpload = parseResult.GetValue(maxResults),
                MaxAncestryPerUpload = parseResult.GetValue(maxAncestry),
                MaxAncestorDepth = parseResult.GetValue(maxDepth),
                MaxAncestorRows = parseResult.GetValue(maxRows),
                MaxConcurrentReads = parseResult.GetValue(maxReads),
                MaxQueuedReads = parseResult.GetValue(maxQueued),
                RunsPerPage = parseResult.GetValue(runsPerPage),
                ChangePointRuns = parseResult.GetValue(changePointRuns),
                MaxAnonymousDetailLength = parseResult.GetValue(maxAnonymousDetail),
                MaxUploadBytesInFlight = parseResult.GetValue(maxInFlight),
                MaxAnonymousComputations = parseResult.GetValue(maxAnonymousComputations),
                MaxStoredCountBytes = parseResult.GetValue(maxStoredCount),
                StoredCountBytesPerProject = parseResult.GetValue(storedCountBytes),
                StoredCountsPerProject = parseResult.GetValue(storedCounts),
            };
            if (parseResult.GetValue(prune) && !options.Prunes)
            {
                throw new ServerInputException(400, "--prune needs --retain-days or --retain-runs-per-branch to say which runs go.");
            }

            // A setting out of range (ResultsServerOptions.Validate) throws ArgumentException: the command line's mistake.
            await using var server = ResultsServer.Create(options);
            if (parseResult.GetValue(prune))
            {
                var deleted = await Retention.PruneAsync(server.Storage, options, DateTimeOffset.UtcNow, cancellationToken);
                Console.WriteLine(deleted);
                Console.Error.WriteLine($"perfbudgets-server: deleted {deleted} runs.");
                return 0;
            }

            if (parseResult.GetValue(addProject) is { } project)
            {
                Console.WriteLine(await TokenAdministration.AddProjectAsync(server.Storage, project, cancellationToken));
                return 0;
            }

            if (parseResult.GetValue(addReadToken) is { } readProject)
            {
                Console.WriteLine(await TokenAdministration.AddReadTokenAsync(server.Storage, readProject, cancellationToken));
                return 0;
            }

            if (parseResult.GetValue(rotateToken) is { } rotated)
            {
                Console.WriteLine(await TokenAdministration.RotateWriteTokenAsync(server.Storage, rotated, cancellationToken));
                return 0;
            }

            if (parseResult.GetValue(revokeToken) is { } revoked)
            {
                await TokenAdministration.RevokeWriteTokenAsync(server.Storage, revoked, cancellationToken);
                Console.Error.WriteLine($"perfbudgets-server: project '{revoked}''s write token is revoked; --rotate-token makes a new one.");
                return 0;
            }

            if (parseResult.GetValue(revokeReadToken) is { } revokedRead)
            {
                await TokenAdministration.RevokeReadTokenAsync(server.Storage, revokedRead, cancellationToken);
                Console.Error.WriteLine($"perfbudgets-server: project '{revokedRead}''s read-only token is revoked.");
                return 0;
            }

            // The connection string may hold a password: only its host and database are printed.
            var where = connectionString is null ? Path.GetFullPath(options.DatabasePath) : PostgresWhere(connectionString);
            Console.Error.WriteLine($"perfbudgets-server: {where} on {options.Url} (dashboard: {options.Url}/)");
            await server.RunAsync();
            return 0;
        }));
        return command;
    }

    // Bad input (an option out of range, a missing file, a database that cannot be opened, a project that exists) is one line on standard error and exit
    // code 1, never a stack trace; anything else is a bug and propagates.
    private static async Task<int> RunAsync(Func<Task<int>> work)
    {
        try
        {
            return await work();
        }
        catch (Exception e) when (e is ServerInputException or IOException or UnauthorizedAccessException or ArgumentException)
        {
            // An ArgumentException's message ends "(Parameter 'Url')": the setting is named in the words already.
            var message = e is ArgumentException { ParamName: { } name } ? e.Message.Replace($" (Parameter '{name}')", "", StringComparison.Ordinal) : e.Message;
            await Console.Error.WriteLineAsync(message.ReplaceLineEndings(" "));
            return 1;
        }
    }

    // KIND=STEP pairs, each a timed kind of budgets.json and a positive step; null when none is given.
    private static Dictionary<string, double>? ShiftDefaults(string[] pairs)
    {
        if (pairs.Length == 0)
        {
            return null;
        }

        var steps = new Dictionary<string, double>(StringComparer.Ordinal);
        foreach (var pair in pairs)
        {
            var equals = pair.IndexOf('=', StringComparison.Ordinal);
            var kind = equals > 0 ? pair[..equals] : pair;
            if (equals <= 0 || !PerfBudgets.Budgets.BudgetKind.TryParse(kind, out _)
                || !double.TryParse(pair.AsSpan(equals + 1), System.Globalization.NumberStyles.Float, System.Globalization.CultureInfo.InvariantCulture, out var step)
                || !(step > 0) || double.IsInfinity(step))
            {
                throw new ServerInputException(400, $"--shift-default '{pair}' is not KIND=STEP with a budget kind and a positive step (e.g. p99-ms-max=0.5).");
            }

            steps[kind] = step;
        }

        return steps;
    }

    // A limit of ResultsServerOptions on the command line, its default the setting's (validated on start).
    private static Option<int> Limit(string name, string description, int fallback) =>
        new(name) { Description = $"{description} Default: {fallback}.", DefaultValueFactory = _ => fallback };

    private static string PostgresWhere(string connectionString)
    {
        var parsed = new Npgsql.NpgsqlConnectionStringBuilder(connectionString);
        return $"PostgreSQL {parsed.Host}/{parsed.Database}";
    }

    // A PostgreSQL connection string names its host; a file name does not hold "Host=".
    private static bool LooksLikeConnectionString(string database) =>
        database.Contains("Host=", StringComparison.OrdinalIgnoreCase) || database.Contains("Server=", StringComparison.OrdinalIgnoreCase);
}
