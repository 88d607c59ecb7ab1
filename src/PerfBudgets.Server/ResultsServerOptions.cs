namespace PerfBudgets.Server;

/// <summary>How <c>perfbudgets-server</c> runs.</summary>
internal sealed record ResultsServerOptions
{
    /// <summary>Address served by default: loopback only, so nothing is exposed until asked.</summary>
    public const string DefaultUrl = "http://127.0.0.1:5080";

    /// <summary>The SQLite file, created on first start (unless <see cref="PostgresConnectionString"/> is set).</summary>
    public string DatabasePath { get; init; } = "perfbudgets.db";

    /// <summary>A PostgreSQL connection string (<c>Host=…;Database=…;Username=…</c>); null keeps the SQLite file.</summary>
    public string? PostgresConnectionString { get; init; }

    /// <summary>The URL(s) to listen on; port 0 picks a free port.</summary>
    public string Url { get; init; } = DefaultUrl;

    /// <summary>
    /// The largest upload body accepted, in bytes: 8 MiB, about a hundred times a results.json of this repository's
    /// gate (about 60 KB), so only a wrong file or an attack reaches it.
    /// </summary>
    public long MaxUploadBytes { get; init; } = 8 * 1024 * 1024;

    /// <summary>
    /// The most bytes of upload bodies the server holds at once (<see cref="Upload.UploadMemoryGate"/>): 8 MiB, one
    /// upload of <see cref="MaxUploadBytes"/> or a hundred of this repository's (about 60 KB). An upload holds about
    /// twelve times its body while it is parsed and written (the body, the results' text as read, as parsed and as the
    /// database driver encodes it, and the collector's headroom): one 8 MB upload took the server from 75 MB to 180 MB
    /// resident, so this bound keeps uploads to about a hundred MB above the server's own whatever arrives at once,
    /// room on a small VM. More wait, oldest first, up to <see cref="UploadMemoryWait"/>.
    /// </summary>
    public long MaxUploadBytesInFlight { get; init; } = 8 * 1024 * 1024;

    /// <summary>
    /// How long an upload waits for room under <see cref="MaxUploadBytesInFlight"/> before it is 503 with
    /// <c>Retry-After</c> (the tool tries again): 30 s, several large uploads' time.
    /// </summary>
    public TimeSpan UploadMemoryWait { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// The largest counted run a project may store for reuse (<c>perfbudgets counts push</c>: the zip of one entry of
    /// the gate's store), in bytes: 64 MiB. This repository's largest entry (a server's session of 60 counted dumps, gzipped) is
    /// about 8.5 MB. One such body is held at a time; more wait, up to <see cref="UploadMemoryWait"/>.
    /// </summary>
    public long MaxStoredCountBytes { get; init; } = 64L * 1024 * 1024;

    /// <summary>The most <see cref="MaxStoredCountBytes"/> may be: 1 GiB, as a body is held in memory whole.</summary>
    public const long MaxStoredCountLimit = 1L << 30;

    /// <summary>
    /// How many counted runs a project keeps for reuse, the most recently stored or fetched: 64, a few full runs of a
    /// gate like this repository's (six entries each) on main and its open pull requests; the least recently used go first.
    /// </summary>
    public int StoredCountsPerProject { get; init; } = 64;

    /// <summary>
    /// How many bytes of counted runs a project keeps for reuse in all, the most recently stored or fetched: 1 GiB (this
    /// repository's 64 entries at the most hold about 200 MB). The least recently used go first; at least
    /// <see cref="MaxStoredCountBytes"/>, so the count just stored is always kept.
    /// </summary>
    public long StoredCountBytesPerProject { get; init; } = 1L << 30;

    /// <summary>
    /// Where the dashboard links a commit: a URL with <c>{commit}</c> in it (e.g.
    /// <c>https://github.com/org/repo/commit/{commit}</c>); null shows the hash without a link.
    /// </summary>
    public string? CommitUrlTemplate { get; init; }

    /// <summary>
    /// When true, every read (baseline, budgets, series, dashboard) needs <c>Authorization: Bearer</c> with the project's
    /// read-only token or its write token;
    /// by default reading is public, as a team's dashboard usually is.
    /// </summary>
    public bool ReadTokenRequired { get; init; }

    /// <summary>
    /// The project's budgets.json, read on start, whose noise thresholds set each timed budget's smallest change point
    /// up to its kind's default (<see cref="Changes.ShiftThresholds"/>); null takes the noise each budget's latest run
    /// recorded, else its kind's default.
    /// </summary>
    public string? BudgetsFile { get; init; }

    /// <summary>
    /// The profile of <see cref="BudgetsFile"/> whose settings apply: the one the uploaded runs were measured under
    /// (<c>ci</c>, as the gate's own default profile).
    /// </summary>
    public string BudgetsProfile { get; init; } = "ci";

    /// <summary>
    /// The smallest change point per timed kind (kind name → larger median ÷ smaller − 1, in budgets.json's convention)
    /// where the server's own defaults do not fit the team's machines; a kind not named keeps its default. The defaults
    /// (<see cref="Changes.ShiftThresholds.DefaultByKind"/>) are the largest moves of a median that a shared 2-core CI
    /// machine alone made between quiet and busy runs: a steadier fleet can ask for smaller steps, a noisier one for
    /// larger. Null: the defaults.
    /// </summary>
    public IReadOnlyDictionary<string, double>? ShiftDefaults { get; init; }

    /// <summary>
    /// The most parents one commit may name, in an upload (its <c>parents</c>, each <c>ancestry</c> entry's) and in a
    /// baseline's <c>?parents=</c>: 16. A merge has two; git's octopus merges rarely more than a dozen.
    /// </summary>
    public int MaxParentsPerCommit { get; init; } = 16;

    /// <summary>
    /// The most figures one upload may hold: 5,000, about ten times the budgets of a large project (this repository's
    /// gate has fewer than 100).
    /// </summary>
    public int MaxResultsPerUpload { get; init; } = 5_000;

    /// <summary>
    /// The most <c>ancestry</c> entries (commits with their parents) one upload may send: 1,000, ten times the
    /// <c>upload --ancestry 100</c> the docs suggest.
    /// </summary>
    public int MaxAncestryPerUpload { get; init; } = 1_000;

    /// <summary>
    /// How many generations back from a commit the nearest-ancestor search walks the stored commit graph: 1,000, far
    /// more than a pull request's merge base is behind the last run of its branch. The whole walk is one recursive
    /// query whose rows are at most this depth times the graph's width (the commits at one distance).
    /// </summary>
    public int MaxAncestorDepth { get; init; } = 1_000;

    /// <summary>
    /// The most rows (a commit at a distance) one nearest-ancestor search visits: 2,000, twice a 1,000-generation
    /// linear history. Commits are sent by writers: a thousand of them each naming sixteen of the others made every
    /// anonymous miss walk a million rows (16-18 s) before this bound; a search stopped by it says so. A walk's cost
    /// is its rows times the parents each names (every row is looked up once per parent): at 4,000 rows the dense
    /// graph's miss took 80-180 ms on PostgreSQL, over the 100 ms a miss should take; 2,000 does half the look-ups.
    /// </summary>
    public int MaxAncestorRows { get; init; } = 2_000;

    /// <summary>
    /// How long one nearest-ancestor search may take before it is stopped and answered as a miss that says so: 1 s,
    /// a hundred times what a 1,000-generation walk takes alone.
    /// </summary>
    public TimeSpan AncestorSearchTimeout { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// The reverse proxies (IP addresses, or networks as <c>10.0.0.0/8</c>) whose <c>X-Forwarded-For</c>,
    /// <c>X-Forwarded-Proto</c> and <c>X-Forwarded-Host</c> are believed, so that behind a proxy that ends TLS a request
    /// is seen as the browser made it (https, the public host): the sign-in's origin check passes and its cookie is
    /// <c>Secure</c>. Empty (the default): the headers are ignored, so no client can claim to have come over https.
    /// </summary>
    public IReadOnlyList<string> TrustedProxies { get; init; } = [];

    /// <summary>
    /// The host names a request may name in its <c>Host</c> header (<c>*.example.com</c> allowed); others are 400, so a
    /// DNS-rebound name cannot reach a server on loopback. Null (the default): on a server that listens on loopback alone
    /// and trusts no proxy, <c>localhost</c>, <c>127.0.0.1</c> and <c>[::1]</c>; otherwise any.
    /// </summary>
    public IReadOnlyList<string>? AllowedHosts { get; init; }

    /// <summary>
    /// The certificate for an <c>https://</c> <see cref="Url"/>: a PEM or PFX file (Kestrel's
    /// <c>Certificates:Default:Path</c>, which a <c>Kestrel__Certificates__Default__Path</c> environment variable also
    /// sets); null takes Kestrel's configuration, else the development certificate.
    /// </summary>
    public string? CertificatePath { get; init; }

    /// <summary>The PEM private key of <see cref="CertificatePath"/> when the certificate file does not hold it.</summary>
    public string? CertificateKeyPath { get; init; }

    /// <summary>The host names <see cref="AllowedHosts"/> means (its default resolved), or null where any host is allowed.</summary>
    public IReadOnlyList<string>? EffectiveAllowedHosts()
    {
        if (AllowedHosts is { } named)
        {
            return named.Contains("*") ? null : named;
        }

        return TrustedProxies.Count == 0 && Url.Split(';').All(IsLoopbackUrl) ? ["localhost", "127.0.0.1", "[::1]"] : null;
    }

    private static bool IsLoopbackUrl(string url) =>
        Uri.TryCreate(url.Trim(), UriKind.Absolute, out var uri)
        && (uri.IsLoopback || (System.Net.IPAddress.TryParse(uri.Host.Trim('[', ']'), out var address) && System.Net.IPAddress.IsLoopback(address)));

    /// <summary>
    /// How long a dashboard sign-in lasts (<see cref="Tokens.DashboardSession"/>): 12 hours, a working day; the cookie
    /// also ends with the browser session.
    /// </summary>
    public TimeSpan SignInLifetime { get; init; } = TimeSpan.FromHours(12);

    /// <summary>
    /// How many change-point answers the server keeps between uploads (<see cref="Changes.ChangePointCache"/>): 1,024,
    /// far more than a team's projects × branches × budgets that are read; past it the cache starts again empty.
    /// </summary>
    public int MaxCachedChangeSets { get; init; } = 1_024;

    /// <summary>
    /// How many of a series' newest runs the change points are searched in: 500, months of a busy branch's CI. The
    /// search grows faster than the runs (20 budgets of 2,000 runs took 3.3 s of a core, once per upload), and a shift
    /// older than that is history the pull requests no longer ask about.
    /// </summary>
    public int ChangePointRuns { get; init; } = 500;

    /// <summary>
    /// How long a reader waits for change points being computed after an upload before it is given the previous
    /// answer (stale by that upload): 1 second, longer than a search of a few thousand runs takes on an idle machine.
    /// </summary>
    public TimeSpan ChangePointWait { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>
    /// How many runs a budget's dashboard page shows at a time, in its chart and its table (older ones a link away): 200.
    /// </summary>
    public int RunsPerPage { get; init; } = 200;

    /// <summary>
    /// Runs uploaded more than this many days ago are deleted (each branch's newest run is kept); null (the default)
    /// keeps every run. Applied on start and every <see cref="PruneInterval"/>.
    /// </summary>
    public int? RetainDays { get; init; }

    /// <summary>
    /// Runs beyond the newest this many of their branch are deleted; null (the default) keeps every run. Applied on
    /// start and every <see cref="PruneInterval"/>.
    /// </summary>
    public int? RetainRunsPerBranch { get; init; }

    /// <summary>How often a server with <see cref="RetainDays"/> or <see cref="RetainRunsPerBranch"/> prunes: hourly.</summary>
    public TimeSpan PruneInterval { get; init; } = TimeSpan.FromHours(1);

    /// <summary>True when a retention setting is given.</summary>
    public bool Prunes => RetainDays is not null || RetainRunsPerBranch is not null;

    /// <summary>
    /// How many reads (API reads, dashboard pages, sign-ins: every request but an upload) the server works on at once:
    /// twice the cores, at least 4. More wait in a queue, oldest first, so that readers, however many, leave the cores,
    /// the thread pool and the database's connections to the uploads, which are never queued.
    /// </summary>
    public int MaxConcurrentReads { get; init; } = Math.Max(4, 2 * Environment.ProcessorCount);

    /// <summary>How many reads may wait for one of <see cref="MaxConcurrentReads"/>: 256; past that a read is 503 with <c>Retry-After</c>.</summary>
    public int MaxQueuedReads { get; init; } = 256;

    /// <summary>
    /// The most days <see cref="RetainDays"/> may keep: 36,500, a hundred years. Past about ten thousand years the cut-off
    /// date is before year 1, which failed the start with "Value to add was out of range".
    /// </summary>
    public const int MaxRetainDays = 36_500;

    /// <summary>
    /// The longest budget detail an anonymous reader of a public server is given in a baseline (<see cref="AnonymousDetails"/>):
    /// 1,000 characters, several lines of a reason; a holder of one of the project's tokens reads it whole.
    /// </summary>
    public int MaxAnonymousDetailLength { get; init; } = 1_000;

    /// <summary>
    /// How many change-point searches with a reader's own settings (<c>minRuns</c>, <c>minShift</c>) readers without a
    /// token may have running at once (<see cref="Changes.AnonymousComputations"/>): 1, so that they take at most one
    /// core of a small machine and one read slot; more are 429 at once. The server's own settings are searched once per
    /// upload and kept, for anyone; a holder of the project's token is not limited by this.
    /// </summary>
    public int MaxAnonymousComputations { get; init; } = 1;

    /// <summary>Throws when a setting is out of range, naming it (and its command-line option) and what it takes.</summary>
    public void Validate()
    {
        foreach (var url in Url.Split(';', StringSplitOptions.TrimEntries))
        {
            // Kestrel would refuse these only as the server starts, with a stack trace.
            if (!Uri.TryCreate(url, UriKind.Absolute, out var parsed) || parsed.Scheme is not ("http" or "https"))
            {
                throw new ArgumentException($"Url (--url) '{url}' is not an http:// or https:// URL; give one such as {DefaultUrl} (port 0 picks a free port).", nameof(Url));
            }
        }

        if (RetainDays is > MaxRetainDays)
        {
            throw new ArgumentException($"RetainDays (--retain-days) is {RetainDays}; it takes 1 to {MaxRetainDays:N0} (a hundred years), or leave it out to keep every run.", nameof(RetainDays));
        }

        Positive(MaxUploadBytes, nameof(MaxUploadBytes));
        Positive(MaxUploadBytesInFlight, nameof(MaxUploadBytesInFlight));
        Positive(MaxStoredCountBytes, nameof(MaxStoredCountBytes));
        if (MaxStoredCountBytes > MaxStoredCountLimit)
        {
            throw new ArgumentException($"MaxStoredCountBytes (--max-stored-count-bytes) is {MaxStoredCountBytes}; it takes at most {MaxStoredCountLimit} (1 GiB): a stored count's body is held in memory whole.", nameof(MaxStoredCountBytes));
        }

        Positive(StoredCountsPerProject, nameof(StoredCountsPerProject));
        if (StoredCountBytesPerProject < MaxStoredCountBytes)
        {
            throw new ArgumentException($"StoredCountBytesPerProject (--stored-count-bytes-per-project) is {StoredCountBytesPerProject}; it takes at least MaxStoredCountBytes (--max-stored-count-bytes, {MaxStoredCountBytes}), or the count just stored would be deleted at once.", nameof(StoredCountBytesPerProject));
        }
        Positive(UploadMemoryWait.Ticks, nameof(UploadMemoryWait));
        Positive(MaxParentsPerCommit, nameof(MaxParentsPerCommit));
        Positive(MaxResultsPerUpload, nameof(MaxResultsPerUpload));
        Positive(MaxAncestryPerUpload, nameof(MaxAncestryPerUpload));
        Positive(MaxAncestorDepth, nameof(MaxAncestorDepth));
        Positive(MaxAncestorRows, nameof(MaxAncestorRows));
        Positive(AncestorSearchTimeout.Ticks, nameof(AncestorSearchTimeout));
        Positive(SignInLifetime.Ticks, nameof(SignInLifetime));
        Positive(MaxCachedChangeSets, nameof(MaxCachedChangeSets));
        Positive(ChangePointRuns, nameof(ChangePointRuns));
        Positive(ChangePointWait.Ticks, nameof(ChangePointWait));
        Positive(RunsPerPage, nameof(RunsPerPage));
        Positive(MaxAnonymousDetailLength, nameof(MaxAnonymousDetailLength));
        Positive(MaxAnonymousComputations, nameof(MaxAnonymousComputations));
        Positive(MaxConcurrentReads, nameof(MaxConcurrentReads));
        if (MaxQueuedReads < 0)
        {
            throw new ArgumentException($"MaxQueuedReads (--max-queued-reads) is {MaxQueuedReads}; it takes 0 or more.", nameof(MaxQueuedReads));
        }

        Positive(PruneInterval.Ticks, nameof(PruneInterval));
        if (RetainDays is { } days)
        {
            Positive(days, nameof(RetainDays));
        }

        if (RetainRunsPerBranch is { } runs)
        {
            Positive(runs, nameof(RetainRunsPerBranch));
        }

        foreach (var proxy in TrustedProxies)
        {
            if (!System.Net.IPAddress.TryParse(proxy, out _) && !System.Net.IPNetwork.TryParse(proxy, out _))
            {
                throw new ArgumentException($"TrustedProxies: '{proxy}' is neither an IP address nor a network (10.0.0.0/8).", nameof(TrustedProxies));
            }
        }
    }

    // The setting named as a command-line option too (MaxUploadBytes: --max-upload-bytes) where the command has it.
    private static void Positive(long value, string name)
    {
        if (value <= 0)
        {
            var option = System.Text.Json.JsonNamingPolicy.KebabCaseLower.ConvertName(name);
            var onCommandLine = name is nameof(AncestorSearchTimeout) or nameof(SignInLifetime) or nameof(MaxCachedChangeSets)
                or nameof(ChangePointWait) or nameof(PruneInterval) or nameof(UploadMemoryWait) ? "" : $" (--{option})";
            throw new ArgumentException($"{name} must be positive{onCommandLine}: it was {value}.", name);
        }
    }
}
