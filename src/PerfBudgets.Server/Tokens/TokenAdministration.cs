using PerfBudgets.Server.Storage;

namespace PerfBudgets.Server.Tokens;

/// <summary>
/// What an operator does to a project's tokens (<c>perfbudgets-server --add-project</c>, <c>--rotate-token</c>,
/// <c>--revoke-token</c>, <c>--add-read-token</c>, <c>--revoke-read-token</c>): each new token is returned once to be
/// printed, and only its SHA-256 is stored. A token replaced or revoked is refused from the next request on, and so is
/// every dashboard session signed in with a read-only token that is replaced or revoked.
/// </summary>
internal static class TokenAdministration
{
    /// <summary>Creates <paramref name="project"/>; returns its write token.</summary>
    public static async Task<string> AddProjectAsync(IResultsStorage storage, string project, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(storage);
        InputText.Check(project, "project", InputText.MaxProjectLength);
        var token = ProjectToken.NewToken();
        await storage.CreateProjectAsync(project, ProjectToken.Hash(token), cancellationToken);
        return token;
    }

    /// <summary>Gives <paramref name="project"/> a new write token, which replaces (and so revokes) the old one; returns it.</summary>
    public static async Task<string> RotateWriteTokenAsync(IResultsStorage storage, string project, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(storage);
        var token = ProjectToken.NewToken();
        await storage.SetWriteTokenAsync(project, ProjectToken.Hash(token), cancellationToken);
        return token;
    }

    /// <summary>Revokes <paramref name="project"/>'s write token: no upload is taken until <see cref="RotateWriteTokenAsync"/>.</summary>
    public static Task RevokeWriteTokenAsync(IResultsStorage storage, string project, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(storage);
        return storage.SetWriteTokenAsync(project, ProjectToken.Revoked, cancellationToken);
    }

    /// <summary>Gives <paramref name="project"/> a new read-only token, replacing any earlier one; returns it.</summary>
    public static async Task<string> AddReadTokenAsync(IResultsStorage storage, string project, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(storage);
        var token = ProjectToken.NewToken();
        await storage.SetReadTokenAsync(project, ProjectToken.Hash(token), cancellationToken);
        return token;
    }

    /// <summary>Removes <paramref name="project"/>'s read-only token (reading then takes the write token alone).</summary>
    public static Task RevokeReadTokenAsync(IResultsStorage storage, string project, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(storage);
        return storage.SetReadTokenAsync(project, null, cancellationToken);
    }
}
