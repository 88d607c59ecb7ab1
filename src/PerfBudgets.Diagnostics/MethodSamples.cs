namespace PerfBudgets.Diagnostics;

/// <summary>One method's share of a <see cref="CpuProfile"/>.</summary>
/// <param name="Method">The method's full name (<c>Namespace.Type.Method(…)</c>), or the module and address when unresolved.</param>
/// <param name="ExclusiveSamples">Samples whose innermost managed frame was this method.</param>
/// <param name="Share">Its fraction of the profile's counted samples (0 to 1).</param>
public sealed record MethodSamples(string Method, int ExclusiveSamples, double Share);
