namespace PerfBudgets.Measuring;

/// <summary>A counted run read back from the store: what <see cref="InstructionMeter.RunProcess"/> returns instead of running it.</summary>
internal sealed record StoredCount(string StandardOutput, IReadOnlyList<CallgrindProfile> Parts, PerfMap Map, ReusedCount Reused);
