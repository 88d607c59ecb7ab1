using System.Security.Cryptography;
using System.Text;

namespace PerfBudgets.Server.Tokens;

/// <summary>
/// A project's write token: 32 random bytes shown once when the project is created; the server keeps only its SHA-256,
/// and compares hashes in constant time.
/// </summary>
internal static class ProjectToken
{
    /// <summary>
    /// What a revoked write token's hash is stored as: no bytes, which no SHA-256 matches (the column stays NOT NULL, and
    /// the project's row, with its runs, stays).
    /// </summary>
    public static readonly byte[] Revoked = [];

    public static string NewToken() => Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(32));

    public static byte[] Hash(string token) => SHA256.HashData(Encoding.UTF8.GetBytes(token));

    public static bool Matches(string presented, byte[] storedHash) =>
        storedHash.Length == SHA256.HashSizeInBytes && CryptographicOperations.FixedTimeEquals(Hash(presented), storedHash);
}
