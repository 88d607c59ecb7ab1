using Microsoft.AspNetCore.Http;

namespace PerfBudgets.Server;

/// <summary>
/// The text the server takes from a request (names, commits, branches, query values): bounded in length, and without
/// what no name holds and the databases refuse or mangle: a NUL (PostgreSQL's text cannot hold one; the insert failed
/// with 500), other control characters (a line break in a name breaks the summary's and the dashboard's lines) and a
/// lone UTF-16 surrogate (no UTF-8 encodes it; SQLite and the JSON writer failed on it with 500). A refusal is 400
/// naming the field.
/// </summary>
internal static class InputText
{
    /// <summary>A commit id: 100 characters, room for a SHA-256 id (64) or a ref name given instead.</summary>
    public const int MaxCommitLength = 100;

    /// <summary>A branch name: 255 characters, a ref name git and its hosts take.</summary>
    public const int MaxBranchLength = 255;

    /// <summary>A project name: 100 characters.</summary>
    public const int MaxProjectLength = 100;

    /// <summary>A budget's name: 200 characters, three times this repository's longest.</summary>
    public const int MaxBudgetLength = 200;

    /// <summary>A kind, unit, verdict, runtime, machine or Valgrind version: 200 characters.</summary>
    public const int MaxLabelLength = 200;

    /// <summary>Any other query value: 2,000 characters (16 commits of <see cref="MaxCommitLength"/> in <c>?parents=</c>, and more).</summary>
    public const int MaxQueryValueLength = 2_000;

    /// <summary>Returns <paramref name="value"/>, or throws a 400 naming <paramref name="field"/> when it breaks a rule above.</summary>
    public static string Check(string value, string field, int maxLength)
    {
        ArgumentNullException.ThrowIfNull(value);
        return Problem(value, maxLength) is { } problem
            ? throw new ServerInputException(StatusCodes.Status400BadRequest, $"'{field}' {problem}.")
            : value;
    }

    /// <summary>What is wrong with <paramref name="value"/>, or null when nothing is.</summary>
    public static string? Problem(string value, int maxLength)
    {
        ArgumentNullException.ThrowIfNull(value);
        if (value.Length > maxLength)
        {
            return $"is {value.Length} characters long; this server takes at most {maxLength}";
        }

        for (var i = 0; i < value.Length; i++)
        {
            var c = value[i];
            if (c == '\0')
            {
                return $"holds a NUL character at {i}";
            }

            if (char.IsControl(c))
            {
                return $"holds a control character (U+{(int)c:X4}) at {i}";
            }

            if (char.IsHighSurrogate(c) && i + 1 < value.Length && char.IsLowSurrogate(value[i + 1]))
            {
                i++;
            }
            else if (char.IsSurrogate(c))
            {
                return $"holds a lone UTF-16 surrogate (U+{(int)c:X4}) at {i}, which no UTF-8 text can";
            }
        }

        return null;
    }
}
