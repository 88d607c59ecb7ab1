using System.Globalization;

namespace PerfBudgets.Server.Storage;

/// <summary>
/// A time as the tables hold it: text in the round-trip format (<c>2026-11-28T06:01:30.1234567+00:00</c>) in UTC, so
/// that it reads back exactly and sorts as text on both databases.
/// </summary>
internal static class StoredTime
{
    public static string Now() => Format(DateTimeOffset.UtcNow);

    public static string Format(DateTimeOffset time) => time.ToUniversalTime().ToString("O", CultureInfo.InvariantCulture);

    public static DateTimeOffset Parse(string stored) => DateTimeOffset.Parse(stored, CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind);
}
