using System.CommandLine;
using PerfBudgets.Server.Tokens;

namespace PerfBudgets.Server.Cli;

/// <summary>
/// <c>perfbudgets-server [--database FILE | --postgres "Host=…"] [--url URL]</c>: the results server and its dashboard,
/// SQLite in the current folder on <c>http://127.0.0.1:5080</c> by default, PostgreSQL with a connection string.
/// <c>--add-project NAME</c> creates a project, prints its write token once (the server keeps only its hash) and exits;
/// <c>--add-read-token NAME</c> does the same for a read-only token, which a server started with
/// <c>--read-token-required</c> takes for reads.
/// </summary>
internal static class ServeCommand
{
    public static RootCommand Create()
    {
        var database = new Option<string>("--database") { Description = "The SQLite file (created and migrated on start); a PostgreSQL connection string (Host=...) is taken as --postgres.", DefaultValueFactory = _ => "perfbudgets.db" };
        var postgres = new Option<string?>("--postgres") { Description = "A PostgreSQL connection string, e.g. \"Host=db;Database=perfbudgets;Username=perf;Password=...\" (migrated on start)." };
        var url = new Option<string>("--url") { Description = "Where to listen.", DefaultValueFactory = _ => ResultsServerOptions.DefaultUrl };
        var maxUpload = new Option<long>("--max-upload-bytes") { Description = "The largest upload accepted, in bytes.", DefaultValueFactory = _ => new ResultsServerOptions().MaxUploadBytes };
        var readTokenRequired = new Option<bool>("--read-token-required") { Description = "Reads (baseline, budgets, series, dashboard) need the project's token too; by default reading is public." };
        var commitUrl = new Option<string?>("--commit-url-template") { Description = "Where the dashboard links a commit, {commit} replaced by its hash, e.g. https://github.com/org/repo/commit/{commit}." };
        var addReadToken = new Option<string?>("--add-read-token") { Description = "Make a new read-only token for this project (replacing any earlier one), print it and exit." };
        var addProject = new Option<string?>("--add-project") { Description = "Create this project, print its write token and exit." };
        var budgets = new Option<string?>("--budgets") { Description = "The project's budgets.json: its noise thresholds set the smallest change point of each timed budget, up to its kind's default (default: the noise each run recorded, else a table per kind)." };
        var shiftDefaults = new Option<string[]>("--shift-default")
        {
            Description = "KIND=STEP: the smallest change point of a timed kind (larger median / smaller - 1), instead of the server's default for it (measured on a shared 2-core machine); may be repeated.",
            DefaultValueFactory = _ => [],
        };
        var command = new RootCommand("perfbudgets-server: the results server of PerfBudgets runs, uploaded from CI, kept in a database, served back as the baseline of any commit, with its dashboard.") { database, postgres, url, maxUpload, readTokenRequired, commitUrl, addProject, addReadToken, budgets, shiftDefaults };
        command.SetAction((parseResult, cancellationToken) => RunAsync(async () =>
        {
            var file = parseResult.GetValue(database)!;
            var connectionString = parseResult.GetValue(postgres) ?? (LooksLikeConnectionString(file) ? file : null);
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
            };
            await using var server = ResultsServer.Create(options);
            if (parseResult.GetValue(addProject) is { } project)
            {
                var token = ProjectToken.NewToken();
                await server.Storage.CreateProjectAsync(project, ProjectToken.Hash(token), cancellationToken);
                Console.WriteLine(token);
                return 0;
            }

            if (parseResult.GetValue(addReadToken) is { } readProject)
            {
                var token = ProjectToken.NewToken();
                await server.Storage.SetReadTokenAsync(readProject, ProjectToken.Hash(token), cancellationToken);
                Console.WriteLine(token);
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

    // Bad input (an option out of range, a missing file, a project that exists) is one line on standard error and exit
    // code 1, never a stack trace; anything else is a bug and propagates.
    private static async Task<int> RunAsync(Func<Task<int>> work)
    {
        try
        {
            return await work();
        }
        catch (Exception e) when (e is ServerInputException or IOException or UnauthorizedAccessException or ArgumentException)
        {
            await Console.Error.WriteLineAsync(e.Message.ReplaceLineEndings(" "));
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

    private static string PostgresWhere(string connectionString)
    {
        var parsed = new Npgsql.NpgsqlConnectionStringBuilder(connectionString);
        return $"PostgreSQL {parsed.Host}/{parsed.Database}";
    }

    // A PostgreSQL connection string names its host; a file name does not hold "Host=".
    private static bool LooksLikeConnectionString(string database) =>
        database.Contains("Host=", StringComparison.OrdinalIgnoreCase) || database.Contains("Server=", StringComparison.OrdinalIgnoreCase);
}
