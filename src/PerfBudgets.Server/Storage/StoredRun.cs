namespace PerfBudgets.Server.Storage;

/// <summary>The answer to an upload: the run's id, and whether this upload stored it or an earlier one with its key had.</summary>
/// <param name="RunId">The run's id.</param>
/// <param name="Replayed">True when an earlier upload with the same idempotency key had stored the run; nothing was written.</param>
internal sealed record StoredRun(long RunId, bool Replayed);
