using System.Security.Cryptography;
using System.Text;

namespace PerfBudgets.Server.Tokens;

/// <summary>
/// A project's write token: 32 random bytes shown once when the project is created; the server keeps only its SHA-256,
/// and compares hashes in constant time.
/// </summary>
internal static class ProjectToken
{
    public static string NewToken() => Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(32));

    public static byte[] Hash(string token) => SHA256.HashData(Encoding.UTF8.GetBytes(token));

    public static bool Matches(string presented, byte[] storedHash) =>
        CryptographicOperations.FixedTimeEquals(Hash(presented), storedHash);
}
