namespace PerfBudgets.Tool.Calibration;

/// <summary>The interval <see cref="CalibrationPolicy.Retained"/> chose, in operations, and why.</summary>
internal sealed record RetainedChoice(int Operations, string Reason, bool Warning);
