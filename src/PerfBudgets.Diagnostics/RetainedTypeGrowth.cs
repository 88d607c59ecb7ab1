namespace PerfBudgets.Diagnostics;

/// <summary>One type's live growth between two heap readings, per operation.</summary>
/// <param name="TypeName">The runtime's name of the type.</param>
/// <param name="ObjectsPerOperation">Live objects gained per operation (negative when they fell).</param>
/// <param name="BytesPerOperation">Live bytes gained per operation (negative when they fell).</param>
public readonly record struct RetainedTypeGrowth(string TypeName, double ObjectsPerOperation, double BytesPerOperation);
