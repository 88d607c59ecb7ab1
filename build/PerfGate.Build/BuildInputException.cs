namespace PerfGate.Build;

/// <summary>
/// Raised for bad input to a <c>perfgate-build</c> command (a missing file or program, a number out of range); the
/// command prints its message as one line and exits with 1 (<see cref="Program"/>).
/// </summary>
internal sealed class BuildInputException : Exception
{
    public BuildInputException(string message) : base(message) { }

    public BuildInputException(string message, Exception innerException) : base(message, innerException) { }
}
