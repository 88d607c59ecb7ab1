namespace PerfBudgets.Diagnosing;

/// <summary>One of the program's methods in an <see cref="InclusiveAttribution"/>.</summary>
/// <param name="Method">The method, named as in the measurement's breakdown.</param>
/// <param name="Exclusive">Its own instructions per operation.</param>
/// <param name="Inclusive">Its own and those of the framework, runtime and native code it called, per operation.</param>
internal sealed record OwnMethodCost(string Method, double Exclusive, double Inclusive);
