using System.Globalization;
using System.Security.Cryptography;
using System.Text;

namespace PerfBudgets.Server.Tokens;

/// <summary>
/// What the dashboard's sign-in cookie holds instead of the token: <c>{expiry}.{HMAC}</c>, the HMAC-SHA256 of the project
/// and the expiry (Unix seconds) keyed by the stored hash of the project's read-only token. A leaked cookie reads that
/// project's pages until it expires and never gives away the token (nor works as a bearer token on the API); a new
/// read-only token (<c>--add-read-token</c>) or its revocation ends every session at once, since the key changes.
/// </summary>
internal static class DashboardSession
{
    /// <summary>A session for <paramref name="project"/> until <paramref name="expires"/>, keyed by <paramref name="readTokenSha256"/>.</summary>
    public static string Create(string project, byte[] readTokenSha256, DateTimeOffset expires)
    {
        var expiry = expires.ToUnixTimeSeconds().ToString(CultureInfo.InvariantCulture);
        return $"{expiry}.{Convert.ToHexStringLower(Mac(project, expiry, readTokenSha256))}";
    }

    /// <summary>True when <paramref name="presented"/> is an unexpired session of <paramref name="project"/> under its current read-only token's hash.</summary>
    public static bool IsValid(string presented, string project, byte[] readTokenSha256, DateTimeOffset now)
    {
        var dot = presented.IndexOf('.', StringComparison.Ordinal);
        if (dot <= 0 || !long.TryParse(presented.AsSpan(0, dot), NumberStyles.None, CultureInfo.InvariantCulture, out var expiry)
            || expiry <= now.ToUnixTimeSeconds())
        {
            return false;
        }

        byte[] mac;
        try
        {
            mac = Convert.FromHexString(presented.AsSpan(dot + 1));
        }
        catch (FormatException)
        {
            return false;
        }

        return CryptographicOperations.FixedTimeEquals(mac, Mac(project, presented[..dot], readTokenSha256));
    }

    private static byte[] Mac(string project, string expiry, byte[] key) =>
        HMACSHA256.HashData(key, Encoding.UTF8.GetBytes($"perfbudgets dashboard session\n{project}\n{expiry}"));
}
