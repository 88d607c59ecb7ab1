using PerfBudgets.Server.Upload;

namespace PerfBudgets.Server.Storage;

/// <summary>
/// Where the results server keeps projects and runs: one SQLite file (<see cref="SqliteResultsStorage"/>) or a
/// PostgreSQL database (<see cref="PostgresResultsStorage"/>), the same calls on both.
/// </summary>
internal interface IResultsStorage
{
    /// <summary>Creates project <paramref name="name"/> writable with the token whose SHA-256 is <paramref name="tokenSha256"/>.</summary>
    Task CreateProjectAsync(string name, byte[] tokenSha256, CancellationToken cancellationToken);

    /// <summary>The stored SHA-256 of project <paramref name="name"/>'s write token, or null when there is no such project.</summary>
    Task<byte[]?> TokenHashAsync(string name, CancellationToken cancellationToken);

    /// <summary>
    /// Makes the token whose SHA-256 is <paramref name="tokenSha256"/> project <paramref name="name"/>'s write token,
    /// replacing the earlier one; <see cref="Tokens.ProjectToken.Revoked"/> leaves it none.
    /// </summary>
    Task SetWriteTokenAsync(string name, byte[] tokenSha256, CancellationToken cancellationToken);

    /// <summary>
    /// Makes the token whose SHA-256 is <paramref name="tokenSha256"/> project <paramref name="name"/>'s read-only token,
    /// replacing any earlier one; null leaves it none.
    /// </summary>
    Task SetReadTokenAsync(string name, byte[]? tokenSha256, CancellationToken cancellationToken);

    /// <summary>The stored SHA-256 of project <paramref name="name"/>'s read-only token, or null when it has none (or there is no such project).</summary>
    Task<byte[]?> ReadTokenHashAsync(string name, CancellationToken cancellationToken);

    /// <summary>
    /// Stores <paramref name="run"/> whole (run, parents, commit graph edges, results) in one transaction; returns its id.
    /// A run whose <see cref="RunUpload.IdempotencyKey"/> an earlier run of the project has is not stored again: the
    /// earlier one's id is returned (<see cref="StoredRun.Replayed"/>), or, if that run differs (another commit or
    /// results.json), a 422 <see cref="ServerInputException"/>.
    /// </summary>
    Task<StoredRun> AddRunAsync(string project, RunUpload run, CancellationToken cancellationToken);

    /// <summary>The <c>results.json</c> of the newest run of <paramref name="commit"/>, or null when it has none.</summary>
    Task<string?> RunResultsAsync(string project, string commit, CancellationToken cancellationToken);

    /// <summary>
    /// The nearest ancestor of <paramref name="commit"/> that has a run, walking the stored commit graph (the parents
    /// uploads named, with their ancestry) breadth first from <paramref name="commit"/> and <paramref name="knownParents"/>
    /// (its parents as the caller knows them), within <paramref name="search"/>'s bounds (generations, rows, time); its
    /// commit is null when none is found. Cancelling <paramref name="cancellationToken"/> stops the walk.
    /// </summary>
    Task<NearestAncestor> NearestAncestorWithRunAsync(string project, string commit, IReadOnlyList<string> knownParents, AncestorSearch search,
        CancellationToken cancellationToken);

    /// <summary>
    /// Every budget of project <paramref name="project"/>'s latest run (the last uploaded) on <paramref name="branch"/>,
    /// by budget name; empty when the branch has no run.
    /// </summary>
    Task<IReadOnlyList<BudgetLatest>> GetLatestAsync(string project, string branch, CancellationToken cancellationToken);

    /// <summary>
    /// Budget <paramref name="budget"/>'s figure in every run of <paramref name="project"/> that has it, oldest first,
    /// on <paramref name="branch"/> only or on every branch when it is null; empty when no run has it.
    /// </summary>
    Task<IReadOnlyList<SeriesPoint>> GetSeriesAsync(string project, string budget, string? branch, CancellationToken cancellationToken);

    /// <summary>
    /// The newest <paramref name="count"/> runs of <paramref name="project"/> with budget <paramref name="budget"/> on
    /// <paramref name="branch"/> older than run <paramref name="beforeRunId"/> (the newest when null), oldest first, each
    /// point's <see cref="SeriesPoint.LimitChanged"/> and <see cref="SeriesPoint.RuntimeChanged"/> against the run before
    /// it even where that run is on the previous page.
    /// </summary>
    Task<SeriesPage> GetSeriesPageAsync(string project, string budget, string branch, int count, long? beforeRunId, CancellationToken cancellationToken);

    /// <summary>
    /// The project's newest run id and number of runs: what an upload (or a pruning) changes, so what a cached answer
    /// computed from its runs is kept under (<see cref="Changes.ChangePointCache"/>); (0, 0) for a project without runs.
    /// </summary>
    Task<(long NewestRunId, long Runs)> RunsVersionAsync(string project, CancellationToken cancellationToken);

    /// <summary>
    /// Deletes, in every project, the runs (with their results and parents) uploaded before <paramref name="uploadedBefore"/>
    /// and those beyond the newest <paramref name="keepPerBranch"/> of their branch (null: no such bound), but never a
    /// branch's newest run; returns how many were deleted. The commit graph is kept.
    /// </summary>
    Task<int> PruneAsync(DateTimeOffset? uploadedBefore, int? keepPerBranch, CancellationToken cancellationToken);

    /// <summary>Every project, by name, with its number of runs and its last upload.</summary>
    Task<IReadOnlyList<ProjectSummary>> ListProjectsAsync(CancellationToken cancellationToken);

    /// <summary>How many runs and result rows project <paramref name="project"/> holds (for operators and tests).</summary>
    Task<(long Runs, long Results)> CountAsync(string project, CancellationToken cancellationToken);

    /// <summary>
    /// Stores <paramref name="archive"/> as project <paramref name="project"/>'s counted run of key <paramref name="key"/>
    /// and deletes the least recently used beyond the newest <paramref name="keepPerProject"/>, and beyond
    /// <paramref name="keepBytesPerProject"/> bytes of archives in all (the most recently used first); answers false when
    /// the key was stored already (its archive is kept and only marked used). With <paramref name="writeTokenSha256"/>,
    /// only while that is still the project's write token (else a 403 <see cref="ServerInputException"/>); an unknown
    /// project is a 404.
    /// </summary>
    Task<bool> PutCountAsync(string project, string key, byte[] archive, int keepPerProject, long keepBytesPerProject, byte[]? writeTokenSha256, CancellationToken cancellationToken);

    /// <summary>
    /// Marks project <paramref name="project"/>'s stored counted runs of <paramref name="keys"/> used now, so that what
    /// a CI keeps reusing from its own cache is not the first to go; answers how many it held. With
    /// <paramref name="writeTokenSha256"/>, only while that is still the project's write token (else a 403
    /// <see cref="ServerInputException"/>); an unknown project is a 404.
    /// </summary>
    Task<int> MarkCountsUsedAsync(string project, IReadOnlyList<string> keys, byte[]? writeTokenSha256, CancellationToken cancellationToken);

    /// <summary>The archive of project <paramref name="project"/>'s counted run of key <paramref name="key"/> (marked used), or null when it has none.</summary>
    Task<byte[]?> GetCountAsync(string project, string key, CancellationToken cancellationToken);

    /// <summary>Project <paramref name="project"/>'s stored counted runs, the most recently used first.</summary>
    Task<IReadOnlyList<StoredCountEntry>> ListCountsAsync(string project, CancellationToken cancellationToken);
}
