namespace PerfBudgets.Server.Storage;

/// <summary>One counted run a project stored for reuse, as the list of them shows it: its key, its size, when it was stored and last used.</summary>
internal sealed record StoredCountEntry(string Key, long Bytes, DateTimeOffset StoredUtc, DateTimeOffset UsedUtc);
