using PerfBudgets.Server.Upload;

namespace PerfBudgets.Server.Counts;

/// <summary>
/// Bounds the bytes of stored counts' bodies the server holds at once to <see cref="ResultsServerOptions.MaxStoredCountBytes"/>
/// (one of the largest, or several smaller), apart from the results' uploads, so that neither waits for the other.
/// </summary>
internal sealed class StoredCountUploads(long capacity)
{
    public UploadMemoryGate Gate { get; } = new(capacity);
}
