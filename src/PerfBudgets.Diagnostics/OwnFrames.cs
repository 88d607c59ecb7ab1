using Microsoft.Diagnostics.Tracing.Etlx;

namespace PerfBudgets.Diagnostics;

/// <summary>
/// The program's own frame of a sampled stack: the innermost method that is not the platform's (<c>System.*</c>,
/// <c>Microsoft.*</c>, <c>netstandard</c> and the runtime), since a regression made through a framework call (a
/// <c>ToList</c>, a <c>string.Join</c>) is the calling method's change, not the framework's.
/// </summary>
internal static class OwnFrames
{
    private static readonly string[] FrameworkPrefixes = ["System.", "Microsoft.", "netstandard", "Internal.", "Interop"];

    /// <summary>The innermost frame of the program's own code (or the innermost of all when none is), and the innermost frame.</summary>
    public static (string Own, string Innermost) Of(TraceCallStack? stack)
    {
        string? innermost = null;
        for (var frame = stack; frame is not null; frame = frame.Caller)
        {
            var name = frame.CodeAddress.FullMethodName;
            if (string.IsNullOrEmpty(name))
            {
                continue;
            }

            var paren = name.IndexOf('(', StringComparison.Ordinal);
            var method = paren > 0 ? name[..paren] : name;
            innermost ??= method;
            if (IsOwn(method))
            {
                return (method, innermost);
            }
        }

        return (innermost ?? "(no managed frame)", innermost ?? "(no managed frame)");
    }

    /// <summary>Whether <paramref name="method"/> (a full name, <c>Namespace.Type.Method</c>) is the program's own code.</summary>
    public static bool IsOwn(string method) => !FrameworkPrefixes.Any(p => method.StartsWith(p, StringComparison.Ordinal));
}
