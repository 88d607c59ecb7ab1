namespace PerfBudgets.Diagnostics;

/// <summary>One type's share of an <see cref="AllocationProfile"/>.</summary>
/// <param name="TypeName">The runtime's name of the type (<c>System.Byte[]</c>).</param>
/// <param name="BytesPerOperation">Estimated bytes of this type allocated per operation (upscaled from the samples).</param>
/// <param name="Samples">How many sampling events named this type; the estimate's relative error is about 1/√Samples.</param>
public sealed record TypeAllocation(string TypeName, double BytesPerOperation, int Samples);
