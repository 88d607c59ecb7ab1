namespace PerfBudgets.Measuring;

/// <summary>The live objects of one type in a heap reading: how many, and their bytes.</summary>
/// <param name="TypeName">The runtime's name of the type, e.g. <c>System.Collections.Generic.List`1[SystemUnderTest.Json.Employee]</c>.</param>
/// <param name="Objects">Live objects of the type.</param>
/// <param name="Bytes">Their bytes on the heap (object sizes as the GC counts them).</param>
public readonly record struct LiveTypeCount(string TypeName, long Objects, long Bytes);
