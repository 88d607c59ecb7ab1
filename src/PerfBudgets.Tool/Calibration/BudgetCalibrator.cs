using System.Globalization;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Storage;
using PerfBudgets.Tool.Proposals;
using PerfBudgets.Tool.Recording;

namespace PerfBudgets.Tool.Calibration;

/// <summary>
/// Sets the budgets of a <c>budgets.json</c> from several unchanged runs (<c>perfbudgets calibrate</c>): each counted
/// budget recorded at the median with margins from the runs' spread and its kind's resolution, each retained-memory
/// budget's interval made long enough for its noise (<see cref="CalibrationPolicy"/>), allocation and floors by
/// <see cref="LimitPolicy"/>; the limits of every other kind are left as set by hand, with the runs' figures beside them.
/// Returns one line per budget: what it chose and why.
/// </summary>
internal static partial class BudgetCalibrator
{
    /// <summary>
    /// The suffix of the parameter that holds a retained-memory budget's interval: <c>NAME.Operations</c>, which the test
    /// reads with <c>BudgetGate.Book.Parameter</c> and calibrate rewrites.
    /// </summary>
    public const string IntervalParameterSuffix = ".Operations";

    /// <summary>What one calibration pass decided.</summary>
    /// <param name="Lines">One line per budget (and a reason line under it).</param>
    /// <param name="IntervalsChanged">The retained-memory budgets whose interval was lengthened: measure them again.</param>
    /// <param name="Warnings">How many budgets ended with a warning (noise a limit cannot hold).</param>
    public sealed record Outcome(IReadOnlyList<string> Lines, IReadOnlyList<string> IntervalsChanged, int Warnings);

    /// <summary>
    /// Calibrates <paramref name="budgetsPath"/> from the runs in <paramref name="resultsPaths"/>, for
    /// <paramref name="profile"/>; counted budgets are recorded with <paramref name="runtimeVersion"/> and
    /// <paramref name="valgrindVersion"/> (null when Valgrind is missing: they are left as they were).
    /// <paramref name="only"/>, when given, limits the pass to those budgets.
    /// </summary>
    public static Outcome Calibrate(string budgetsPath, IReadOnlyList<string> resultsPaths, string profile, string runtimeVersion, string? valgrindVersion, IReadOnlySet<string>? only = null)
    {
        ArgumentException.ThrowIfNullOrEmpty(budgetsPath);
        ArgumentNullException.ThrowIfNull(resultsPaths);
        var runs = resultsPaths.Where(File.Exists)
            .Select(path => ResultStore.ReadAll(path).GroupBy(r => r.Budget, StringComparer.Ordinal).ToDictionary(g => g.Key, g => g.Last(), StringComparer.Ordinal))
            .ToList();
        var lines = new List<string> { Invariant($"{runs.Count} runs of {resultsPaths.Count} left results; profile {profile}.") };
        var book = BudgetBook.Parse(File.ReadAllText(budgetsPath), budgetsPath, profile);
        var file = BudgetsFile.Read(budgetsPath);
        var changedIntervals = new List<string>();
        var warnings = 0;
        foreach (var budget in book.Budgets.Where(b => only is null || only.Contains(b.Name)))
        {
            var results = runs.Select(run => run.GetValueOrDefault(budget.Name)).OfType<BudgetResult>().ToList();
            var figures = results.Select(r => r.Measured).Where(m => !double.IsNaN(m)).ToList();
            if (figures.Count == 0)
            {
                var why = results.Select(r => r.Detail).FirstOrDefault(d => !string.IsNullOrEmpty(d));
                lines.Add($"{budget.Name}: not measured in any run{(why is null ? string.Empty : $" ({why})")}: left as it was");
                continue;
            }

            var json = file.Budgets.First(b => b["name"]?.GetValue<string>() == budget.Name);
            var seen = Invariant($"{figures.Count} runs {Figures.Format(figures.Min())} to {Figures.Format(figures.Max())} {budget.Unit}");
            string line;
            if (budget.Kind.IsCounted)
            {
                if (valgrindVersion is null)
                {
                    lines.Add($"{budget.Name}: {seen}; Valgrind is not here, so the recording is left as it was");
                    continue;
                }

                var (recorded, _) = CountedLimits.Recording(budget.Kind, figures, budget.Margin ?? CalibrationPolicy.SmallestMargin);
                var choice = CalibrationPolicy.Counted(budget.Kind, recorded, figures, OperationsPerRepetition(results));
                var limit = CountedLimits.Limit(budget.Kind, recorded, choice.Margin, choice.MarginAbsolute);
                json["recorded"] = recorded;
                json["margin"] = choice.Margin;
                if (choice.MarginAbsolute > 0)
                {
                    json["marginAbsolute"] = choice.MarginAbsolute;
                }
                else
                {
                    json.Remove("marginAbsolute");
                }

                json["limit"] = limit;
                json["recordedOn"] = new JsonObject { ["runtime"] = runtimeVersion, ["valgrind"] = valgrindVersion };
                CountedBudgetRecorder.Reorder(json);
                var room = choice.MarginAbsolute > 0 ? Invariant($"+{Figures.Format(choice.MarginAbsolute)}") : Invariant($"margin {Figures.Format(choice.Margin)}");
                line = Invariant($"{budget.Name}: {seen}; recorded {Figures.Format(recorded)}, {room}, limit {Figures.Format(budget.Limit)} → {Figures.Format(limit)}\n  because {choice.Reason}");
                warnings += choice.Warning ? 1 : 0;
            }
            else if (budget.Kind == BudgetKind.RetainedBytesPerOpMax)
            {
                line = CalibrateInterval(budget, figures, results, file, changedIntervals, ref warnings, seen);
            }
            else if (LimitPolicy.Covers(budget.Kind))
            {
                var proposal = LimitPolicy.Propose(budget, figures);
                file.Apply([proposal], profile);
                line = Invariant($"{budget.Name}: {seen}; limit {Figures.Format(budget.Limit)} → {Figures.Format(proposal.ProposedLimit!.Value)}\n  because {proposal.Rule}");
            }
            else
            {
                var over = figures.Count(f => !budget.IsMet(f));
                line = over == 0
                    ? Invariant($"{budget.Name}: {seen}; limit {Figures.Format(budget.Limit)} kept (set by hand: {budget.Kind.Name} limits are reasoned, not fitted)")
                    : Invariant($"{budget.Name}: {seen}; WARNING: {over} of {figures.Count} unchanged runs broke the limit {Figures.Format(budget.Limit)}: give it room by hand (its description says how it was set)");
                warnings += over > 0 ? 1 : 0;
            }

            lines.Add(line);
        }

        var text = file.ToText();
        // The book must still load (each counted limit its recording plus margins) before it is written.
        BudgetBook.Parse(text, budgetsPath, profile);
        File.WriteAllText(budgetsPath, text);
        return new Outcome(lines, changedIntervals, warnings);
    }

    private static string CalibrateInterval(Budget budget, List<double> figures, List<BudgetResult> results, BudgetsFile file, List<string> changedIntervals, ref int warnings, string seen)
    {
        var operations = results.Select(r => r.Detail is null ? null : RetainedInterval().Match(r.Detail))
            .Where(m => m is { Success: true })
            .Select(m => int.Parse(m!.Groups[1].Value.Replace(",", string.Empty, StringComparison.Ordinal), CultureInfo.InvariantCulture))
            .DefaultIfEmpty(0)
            .Max();
        if (operations == 0)
        {
            return $"{budget.Name}: {seen}; the results do not say the interval (RetainedMemoryMeasurement.ToString() as the detail): left as it was";
        }

        var choice = CalibrationPolicy.Retained(budget.Limit, figures, operations);
        warnings += choice.Warning ? 1 : 0;
        var parameterName = budget.Name + IntervalParameterSuffix;
        var parameter = file.Parameter(parameterName);
        if (choice.Operations == operations)
        {
            return Invariant($"{budget.Name}: {seen}; interval {operations:N0} operations kept\n  because {choice.Reason}");
        }

        if (parameter is null)
        {
            warnings++;
            return Invariant($"{budget.Name}: {seen}; WARNING: measure it over {choice.Operations:N0} operations instead of {operations:N0} (define the parameter {parameterName} and read it in the test, and calibrate sets it)\n  because {choice.Reason}");
        }

        parameter["value"] = choice.Operations;
        changedIntervals.Add(budget.Name);
        return Invariant($"{budget.Name}: {seen}; interval {operations:N0} → {choice.Operations:N0} operations ({parameterName}), measured again below\n  because {choice.Reason}");
    }

    // R of the counted results: "... the smallest of 5 repetitions of 4 ops each ..." (InstructionMeasurement.ToString; "x 4 ops" in older results).
    private static int? OperationsPerRepetition(IEnumerable<BudgetResult> results) =>
        results.Select(r => r.Detail is null ? null : Repetition().Match(r.Detail))
            .Where(m => m is { Success: true })
            .Select(m => (int?)int.Parse(m!.Groups[1].Value.Replace(",", string.Empty, StringComparison.Ordinal), CultureInfo.InvariantCulture))
            .FirstOrDefault();

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);

    [GeneratedRegex(@"repetitions (?:x|of) ([\d,]+) ops")]
    private static partial Regex Repetition();

    [GeneratedRegex(@"second interval [+-]?[\d,]+ B over ([\d,]+) ")]
    private static partial Regex RetainedInterval();
}
