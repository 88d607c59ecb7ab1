namespace PerfBudgets.Diagnostics;

/// <summary>One allocating method's share of an <see cref="AllocationProfile"/>.</summary>
/// <param name="Method">The method that allocated: the innermost frame of the allocation's stack outside the runtime's
/// and the framework's own assemblies (<c>TextStats.WordCounter.Add</c>), or the innermost frame when all are theirs.</param>
/// <param name="BytesPerOperation">Estimated bytes it allocated per operation (upscaled from the samples).</param>
/// <param name="Samples">How many sampling events it took; the estimate's relative error is about 1/√Samples.</param>
public sealed record MethodAllocation(string Method, double BytesPerOperation, int Samples);
