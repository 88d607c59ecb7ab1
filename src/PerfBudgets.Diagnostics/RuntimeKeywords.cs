namespace PerfBudgets.Diagnostics;

/// <summary>
/// The keywords of the runtime's EventPipe provider (<c>Microsoft-Windows-DotNETRuntime</c>) that the profilers ask
/// for, declared once.
/// </summary>
internal static class RuntimeKeywords
{
    /// <summary>The runtime's provider.</summary>
    public const string Provider = "Microsoft-Windows-DotNETRuntime";

    /// <summary>
    /// JIT (0x10), Loader (0x8) and NGen (0x20): the method and module events that let a stack's addresses be named,
    /// for code jitted during the session and precompiled code alike.
    /// </summary>
    public const long MethodNames = 0x10 | 0x8 | 0x20;
}
