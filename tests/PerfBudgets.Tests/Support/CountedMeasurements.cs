using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Support;

/// <summary>
/// Counts of a workload named Demo as the instruction meter would report them, for the counted-budget tests of the gate
/// and of the tool's recorder: 100 operations a repetition, the first repetition 500 instructions dearer (the gate takes
/// the fewest), the methods given per operation.
/// </summary>
internal static class CountedMeasurements
{
    public static InstructionMeasurement Measured(long instructionsPerRepetition, long syscallsPerRepetition, string valgrind = "3.19.0",
        params (string Method, double PerOperation)[] methods) => Measured(instructionsPerRepetition, syscallsPerRepetition, valgrind, InstructionMeter.RuntimeVersion, methods);

    public static InstructionMeasurement Measured(long instructionsPerRepetition, long syscallsPerRepetition, string valgrind, string runtime,
        params (string Method, double PerOperation)[] methods) =>
        new()
        {
            Workload = "Demo",
            OperationsPerRepetition = 100,
            InstructionsByRepetition = [instructionsPerRepetition + 500, instructionsPerRepetition],
            SystemCallsByRepetition = [syscallsPerRepetition, syscallsPerRepetition + 3],
            EstimatedCyclesByRepetition = [],
            Methods = methods.Select(m => new MethodInstructions(m.Method, m.PerOperation)).ToList(),
            SystemCallSites = [new MethodInstructions("send", syscallsPerRepetition / 100.0)],
            RuntimeVersion = runtime,
            ValgrindVersion = valgrind,
        };
}
