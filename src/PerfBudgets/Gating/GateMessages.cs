using PerfBudgets.Budgets;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace PerfBudgets.Gating;

/// <summary>
/// The text the gate gives a reader: failure lines, warnings and the advice in them. Each line is written here once,
/// whichever check gives it, and names the package's own commands.
/// </summary>
internal static class GateMessages
{
    /// <summary>The command that re-records counted budgets, named in every message that asks for it.</summary>
    internal const string RecordCommand = "perfbudgets record";

    /// <summary>The command that proposes limits from the runs' history, named in the stale-floor warning.</summary>
    internal const string ProposeCommand = "perfbudgets propose";

    /// <summary>The one-line failure text: name, measured, comparison, limit, overshoot, and the detail if any.</summary>
    public static string FailureLine(Budget budget, double measured, string? detail = null)
    {
        ArgumentNullException.ThrowIfNull(budget);
        var comparison = budget.Direction == BudgetDirection.AtMost ? ">" : "<";
        var line = $"{budget.Name}: {Figures.Format(measured)} {budget.Unit} {comparison} budget {Figures.Format(budget.Limit)} {Figures.Overshoot(measured, budget.Limit)}";
        return string.IsNullOrEmpty(detail) ? line : $"{line} [{detail}]";
    }

    /// <summary>
    /// A broken limit: the failure line, then what grew (when a reference to compare with is known), then what the figure
    /// is made of: the line a reader acts on comes first, the largest unchanged parts after it.
    /// </summary>
    public static string OverLimit(Budget budget, double measured, string? detail, Attribution? attribution)
    {
        var line = FailureLine(budget, measured, detail);
        return attribution is null ? line
            : attribution.Change is null ? $"{line}{Environment.NewLine}  {attribution.Summary}"
            : $"{line}{Environment.NewLine}  {attribution.Change}{Environment.NewLine}  {attribution.Summary}";
    }

    /// <summary>Within the limit but worse than the baseline, under a strict baseline.</summary>
    public static string StrictBaseline(string warningLine) => $"{warningLine} [strict baseline]";

    /// <summary>A count far below its recording, under a strict recording.</summary>
    public static string StrictRecording(string staleLine) => $"{staleLine} [strict recording]";

    /// <summary>Why a figure the run did not give is not measured, with the run's own detail.</summary>
    public static string NoFigure(string? detail) => string.IsNullOrEmpty(detail) ? "the run gave no figure" : $"the run gave no figure: {detail}";

    /// <summary>The line of a budget that was not measured.</summary>
    public static string NotMeasured(Budget budget, string reason) => $"{budget.Name}: not measured ({reason})";

    /// <summary>
    /// Why a timed budget that broke beside busy neighbours is not measured: their share of the machine, the figure and
    /// the limit, and the run's own detail.
    /// </summary>
    public static string BusyNeighbours(Budget budget, double measured, double share, double allowed, string? detail) =>
        $"other processes took {Percent(share)} of the machine's CPU while it was measured (more than {Percent(allowed)}): a timed figure then measures them as much as the code; "
        + $"it read {Figures.Format(measured)} {budget.Unit} against {Figures.Format(budget.Limit)} in its last attempt; run it on a machine the tests have to themselves, where a break is judged"
        + (string.IsNullOrEmpty(detail) ? string.Empty : $"; {detail}");

    /// <summary>An unmeasured budget under CI: the line, and how to measure it or to turn its kind off on purpose.</summary>
    public static string NotMeasuredUnderCi(Budget budget, string reason)
    {
        var remedy = budget.Kind.IsCounted
            ? $": install what it needs, or set {HarnessEnvironment.InstructionsVariable}=off to turn the counted budgets off on purpose"
            : budget.Kind.IsPaired
            ? $": give the run its base commit, or set {HarnessEnvironment.BaseVariable}=none to turn the paired budgets off on purpose"
            : string.Empty;
        return $"{NotMeasured(budget, reason)}; under CI=true an unmeasured budget fails{remedy}";
    }

    /// <summary>Counts taken on another runtime than the budget's recording: they do not compare, whatever they are.</summary>
    public static string OtherRuntime(Budget budget, string recordedOn, string countedOn, double measured) =>
        $"{budget.Name}: recorded on .NET {recordedOn}, counted on .NET {countedOn}: " +
        $"counts do not compare across runtime versions; {ReRecordAdvice} [measured {Figures.Format(measured)} {budget.Unit}, limit {Figures.Format(budget.Limit)}]";

    // Valgrind versions can count the same code differently (the CPU they show the program, how they count a repeated
    // string instruction), and only some pairs have been compared; the figure is gated all the same.
    public static string OtherValgrind(string recordedWith, string countedWith) =>
        $"recorded with valgrind {recordedWith}, counted with valgrind {countedWith}, not shown to count alike; if the code did not change, re-record ({RecordCommand})";

    /// <summary>A count far below its recording: the limit protects nothing between the two.</summary>
    public static string StaleRecording(Budget budget, double measured, double recorded, double margin) =>
        $"{budget.Name}: counted {Figures.Format(measured)} {budget.Unit}, {Figures.Overshoot(measured, recorded)} against its recording of {Figures.Format(recorded)} (margin {Figures.Format(margin * 100)}%): " +
        $"the recording is stale and the limit {Figures.Format(budget.Limit)} protects nothing below it; re-record ({RecordCommand})";

    /// <summary>A floor so far below this run that a slowdown of more than the policy's slack would pass it.</summary>
    public static string StaleFloor(Budget budget, double measured, double floorFactor, double noise, double proposed) =>
        $"{budget.Name}: measured {Figures.Format(measured)} {budget.Unit}, {Figures.Format(measured / budget.Limit)}x its floor of {Figures.Format(budget.Limit)} " +
        $"(floor factor {Figures.Format(floorFactor)}, noise {Figures.Percent(noise * 100)}): even slowed by its noise this run proposes a floor of {Figures.Format(proposed)}; " +
        $"the floor is stale and lets that much of a slowdown pass; re-propose it ({ProposeCommand})";

    /// <summary>A counted result's detail: what was measured, the measurement's own figures, and whether the runtime was pinned.</summary>
    public static string CountedDetail(string? describe, string figures) =>
        (string.IsNullOrEmpty(describe) ? figures : $"{describe}; {figures}") + UnpinnedNote;

    // What a count on another runtime than its recording's asks for: on a pinned runtime, a re-recording; on the
    // machine's own (no counted-runtime folder beside the tests), the pin first, or the next image's patch fails again.
    private static string ReRecordAdvice => CountedRuntime.Current.IsPinned
        ? $"re-record them on the pinned runtime ({RecordCommand})"
        : $"this run counted on the machine's runtime, not a pinned one (no {CountedRuntime.DirectoryName}/ beside the tests: " +
          $"the PerfBudgets package lays one out on Linux unless PerfBudgetsCountedRuntimeVersion is 'none'), so pin it and re-record ({RecordCommand})";

    // Said in every counted result's detail when the count ran on the machine's runtime, which a CI image can change.
    private static string UnpinnedNote => CountedRuntime.Current.IsPinned
        ? string.Empty
        : $"; counted on the machine's runtime (not pinned: no {CountedRuntime.DirectoryName}/ beside the tests)";

    /// <summary>A share as a whole percentage, e.g. <c>55%</c>.</summary>
    public static string Percent(double share) => string.Create(System.Globalization.CultureInfo.InvariantCulture, $"{Math.Round(share * 100):0}%");
}
