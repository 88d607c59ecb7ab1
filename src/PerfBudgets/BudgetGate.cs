using System.Diagnostics.CodeAnalysis;
using PerfBudgets.Budgets;
using PerfBudgets.Diagnosing;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;
using PerfBudgets.Reporting.Exporters;
using PerfBudgets.Reporting.Storage;

namespace PerfBudgets;

/// <summary>
/// Compares measurements with their budgets, records every measurement, and throws
/// <see cref="BudgetExceededException"/> for a broken budget. Test-framework neutral: any runner reports the exception.
/// Everything it can be told is in its <see cref="Options"/>.
/// </summary>
public sealed partial class BudgetGate
{
    private static readonly Lazy<BudgetGate> DefaultGate = new(() => Create(BudgetGateOptions.FromEnvironment()));

    /// <summary>
    /// Creates a gate over <paramref name="book"/> that records into <paramref name="store"/>. The options' file, profile
    /// and results folder are not read: the book and store are given.
    /// </summary>
    /// <param name="book">The budgets in force.</param>
    /// <param name="store">Where results go.</param>
    /// <param name="options">How the gate behaves; null for the defaults (not the environment's: see <see cref="Default"/>).</param>
    /// <exception cref="BaselineFileException">The options name a baseline that cannot be read.</exception>
    /// <exception cref="ArgumentException">An option is out of range (<see cref="BudgetGateOptions.Validate"/>).</exception>
    public BudgetGate(BudgetBook book, ResultStore store, BudgetGateOptions? options = null)
        : this(Validated(options ?? new BudgetGateOptions()), book, store)
    {
    }

    // Every constructor and Create come here with options validated once, by them.
    private BudgetGate(BudgetGateOptions options, BudgetBook book, ResultStore store)
    {
        Book = book ?? throw new ArgumentNullException(nameof(book));
        Store = store ?? throw new ArgumentNullException(nameof(store));
        Options = options;
        _run = RunIdentity.Of(options.RunId, options.Commit);
        _exporters = RunExporters.Of(store);
        Baseline = Options.BaselineFile is { } baseline ? BaselineResults.Load(baseline) : null;
        _recordedMethods = new(() => RecordedMethodsFile.Read(Path.Combine(Path.GetDirectoryName(Path.GetFullPath(Book.FilePath)) ?? ".", RecordedMethodsFile.FileName)));
    }

    /// <summary>
    /// A gate as <paramref name="options"/> describe it: their budget file (or the nearest <c>budgets.json</c>) for their
    /// profile, recording into their results folder (or <c>artifacts/budgets</c> beside the budget file).
    /// </summary>
    /// <exception cref="ArgumentException">An option is out of range (<see cref="BudgetGateOptions.Validate"/>).</exception>
    public static BudgetGate Create(BudgetGateOptions options)
    {
        Validated(options);
        var book = BudgetBook.Load(BudgetBook.Locate(options.BudgetsFile), options.Profile, options.TargetFramework);
        return new BudgetGate(options, book, new ResultStore(options.ResultsDirectory ?? ResultStore.DefaultDirectory(book.FilePath)));
    }

    private static BudgetGateOptions Validated(BudgetGateOptions options)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        return options;
    }

    // The run every result of this gate is recorded under in history.jsonl.
    private readonly RunIdentity _run;

    // The store's exporters (summary.md, the step summary): the store persists, they render.
    private readonly RunExporters _exporters;

    // Every recorded entry carries its budget's noise threshold, so that a reader without this budgets.json (the results
    // server's change points) knows how far the figure moves between unchanged runs.
    private BudgetResult Record(BudgetResult result)
    {
        if (result.Kind != BudgetResult.InfoKind && result.Noise is null && Book.TryGetNoiseThreshold(result.Budget, out var noise))
        {
            result = result with { Noise = noise.Relative, NoiseAbsolute = noise.Absolute };
        }

        _exporters.Record(result, _run, Options.StepSummaryFile);
        return result;
    }

    /// <summary>
    /// The gate the environment asks for (<see cref="BudgetGateOptions.FromEnvironment"/>): the repository's
    /// <c>budgets.json</c> for the active profile, recording into <c>artifacts/budgets</c>, created on first use.
    /// </summary>
    public static BudgetGate Default => DefaultGate.Value;

    /// <summary>How the gate behaves.</summary>
    public BudgetGateOptions Options { get; }

    /// <summary>The budgets in force.</summary>
    public BudgetBook Book { get; }

    /// <summary>Where results go.</summary>
    public ResultStore Store { get; }

    /// <summary>
    /// The earlier run this one is compared with (<see cref="BudgetGateOptions.BaselineFile"/>), or null. A budget
    /// within its limit but worse than the baseline by more than its noise threshold
    /// (<see cref="BudgetBook.NoiseThreshold(string)"/>) is recorded as <see cref="BudgetVerdict.Warn"/> and goes to
    /// <see cref="BudgetGateOptions.Warnings"/>; a failing allocation budget also names the types that changed since the
    /// baseline's breakdown of it (<see cref="AttributionChange"/>).
    /// </summary>
    internal BaselineResults? Baseline { get; }

    /// <summary>
    /// Records <paramref name="measured"/> against the budget <paramref name="budgetName"/> and throws when it is broken.
    /// </summary>
    /// <param name="budgetName">A name defined in <c>budgets.json</c>; an undefined name throws <see cref="BudgetFileException"/>.</param>
    /// <param name="measured">The measurement, in the budget's unit.</param>
    /// <param name="detail">Optional context recorded beside the figure (sample size, the inputs of a ratio).</param>
    /// <param name="diagnose">
    /// Optional: says what broke the budget (an <c>AllocationProfiler</c> or <c>CpuProfiler</c> of the PerfBudgets.Diagnostics package
    /// run of the same operation). Called only when the budget fails, so a passing run pays nothing; its summary goes
    /// on the lines after the failure line and its breakdown into the recorded result. If it throws or takes longer
    /// than <see cref="BudgetGateOptions.DiagnosisTimeout"/>, the failure is still reported, with a note why attribution is missing.
    /// </param>
    /// <returns>The recorded result when the budget is met.</returns>
    public BudgetResult Check(string budgetName, double measured, string? detail = null, Func<Attribution>? diagnose = null) =>
        CheckWith(budgetName, measured, detail, diagnose, known: null);

    private BudgetResult CheckWith(string budgetName, double measured, string? detail, Func<Attribution>? diagnose, Attribution? known)
    {
        var budget = Book.Get(budgetName);
        if (Options.RequireOptimizedBuild && budget.Kind.DependsOnCodeGeneration)
        {
            BuildOptimization.EnsureOptimized();
        }

        if (double.IsNaN(measured))
        {
            // The run ended without the figure (a percentile over no answers): not measured, and a failure wherever it
            // runs, because the run itself broke; unlike NotMeasured, where the machine lacks a tool.
            var reason = string.IsNullOrEmpty(detail) ? "the run gave no figure" : $"the run gave no figure: {detail}";
            Record(new BudgetResult(budget.Name, budget.Kind.Name, double.NaN, budget.Limit, budget.Unit, BudgetVerdict.Fail,
                budget.Profile, DateTimeOffset.UtcNow, MachineInfo.Current, reason));
            throw Failure(budget, double.NaN, FailureCause.NotMeasured, $"{budget.Name}: not measured ({reason})");
        }

        var met = budget.IsMet(measured);
        var attribution = known ?? (diagnose is not null && (!met || Options.DiagnoseAlways) ? Diagnose(diagnose) : null);
        if (attribution is not null && !met && Baseline is not null
            && AttributionChange.Describe(attribution, Baseline.Results.GetValueOrDefault(budget.Name)?.Attribution, Baseline.FilePath) is { } change)
        {
            attribution = attribution with { Change = change };
        }

        var comparison = Compare(budget, measured);
        var flagged = met && comparison is { Flagged: true };
        var verdict = !met || (flagged && Options.BaselineStrict) ? BudgetVerdict.Fail : flagged ? BudgetVerdict.Warn : BudgetVerdict.Pass;
        var result = new BudgetResult(budget.Name, budget.Kind.Name, measured, budget.Limit, budget.Unit,
            verdict, budget.Profile, DateTimeOffset.UtcNow, MachineInfo.Current, detail, attribution) { Baseline = comparison };
        result = Record(result);
        if (!met)
        {
            var line = FailureLine(budget, measured, detail);
            throw Failure(budget, measured, FailureCause.OverLimit, attribution is null ? line
                : attribution.Change is null ? $"{line}{Environment.NewLine}  {attribution.Summary}"
                : $"{line}{Environment.NewLine}  {attribution.Summary}{Environment.NewLine}  {attribution.Change}");
        }

        if (flagged)
        {
            var line = comparison!.WarningLine(budget.Name, measured, budget.Unit);
            if (Options.BaselineStrict)
            {
                throw Failure(budget, measured, FailureCause.WorseThanBaseline, $"{line} [strict baseline]");
            }

            Options.Warnings.Warn(line);
        }

        if (StaleFloorLine(budget, measured) is { } staleFloor)
        {
            Options.Warnings.Warn(staleFloor);
        }

        return result;
    }

    // A floor the policy set a factor below the slowest run is stale when even this figure, slowed by the kind's whole
    // noise, would propose a higher one: the floor then lets a slowdown of more than the policy's slack pass. A warning
    // only: the figure is timed on a shared machine, and a quiet machine is not a regression.
    private string? StaleFloorLine(Budget budget, double measured)
    {
        if (!budget.Kind.IsProposedFloor || budget.Limit <= 0 || !double.IsFinite(measured) || !double.IsFinite(Options.FloorFactor))
        {
            return null;
        }

        // A file without a noise threshold for the kind gives none: the policy's factor alone.
        var noise = Book.TryGetNoiseThreshold(budget.Name, out var threshold) ? Math.Min(threshold.Relative, 1) : 0;
        var proposed = measured * (1 - noise) / Options.FloorFactor;
        // A figure exactly the factor above its floor is the run the floor was proposed from, whatever the last bit says.
        return proposed > budget.Limit * (1 + 1e-9)
            ? $"{budget.Name}: measured {Figures.Format(measured)} {budget.Unit}, {Figures.Format(measured / budget.Limit)}x its floor of {Figures.Format(budget.Limit)} " +
              $"(floor factor {Figures.Format(Options.FloorFactor)}, noise {Figures.Percent(noise * 100)}): even slowed by its noise this run proposes a floor of {Figures.Format(proposed)}; " +
              $"the floor is stale and lets that much of a slowdown pass; re-propose it ({ProposeCommand})"
            : null;
    }

    /// <summary>
    /// Checks a counted budget (<c>instructions-max</c>, <c>syscalls-max</c>, or <c>cycles-max</c> on a measurement taken
    /// with the cache simulation on) against what the instruction meter counted. The figure's breakdown by method is recorded with every result (it costs nothing more); when the
    /// budget breaks, the failure names the methods that grew since the recording (<see cref="RecordedMethodsFile.FileName"/>
    /// beside <c>budgets.json</c>) and, with a baseline, since the baseline run. A measurement taken on another runtime
    /// than the budget was recorded with fails and says so: counts do not compare across runtime versions. One taken
    /// with another Valgrind version is gated as usual, and its failure or pass says that the versions differ.
    /// </summary>
    /// <param name="budgetName">A counted budget defined in <c>budgets.json</c>.</param>
    /// <param name="measurement">The counts of the budget's workload.</param>
    /// <param name="describe">Optional: what was measured, put before the measurement's own figures in the detail.</param>
    public BudgetResult CheckCount(string budgetName, InstructionMeasurement measurement, string? describe = null)
    {
        ArgumentNullException.ThrowIfNull(measurement);
        var budget = CountedBudget(budgetName);
        var measured = CountedFigure(budget, measurement);
        var detail = (string.IsNullOrEmpty(describe) ? measurement.ToString() : $"{describe}; {measurement}") + UnpinnedNote;
        var attribution = CountAttribution.From(measurement, budget.Kind);
        if (budget.RecordedOn is { } on && on.Runtime != measurement.RuntimeVersion)
        {
            var line = $"{budget.Name}: recorded on .NET {on.Runtime}, counted on .NET {measurement.RuntimeVersion}: " +
                $"counts do not compare across runtime versions; {ReRecordAdvice} [measured {Figures.Format(measured)} {budget.Unit}, limit {Figures.Format(budget.Limit)}]";
            Record(new BudgetResult(budget.Name, budget.Kind.Name, measured, budget.Limit, budget.Unit, BudgetVerdict.Fail, budget.Profile,
                DateTimeOffset.UtcNow, MachineInfo.Current, $"{line}; {detail}", attribution));
            throw Failure(budget, measured, FailureCause.OtherVersions, line);
        }

        if (budget.RecordedOn is { } recordedOn && recordedOn.Valgrind != measurement.ValgrindVersion)
        {
            // Valgrind versions can count the same code differently (the CPU they show the program, how they count a
            // repeated string instruction), and only some pairs have been compared; the figure is gated all the same.
            var note = $"recorded with valgrind {recordedOn.Valgrind}, counted with valgrind {measurement.ValgrindVersion}, not shown to count alike; if the code did not change, re-record ({RecordCommand})";
            detail = $"{note}; {detail}";
            if (budget.IsMet(measured))
            {
                Options.Warnings.Warn($"{budget.Name}: {note}");
            }
        }

        if (budget.Recorded is { } recordedCount && budget.Margin is { } margin && measured < recordedCount * (1 - margin) - budget.MarginAbsolute)
        {
            // A count this far below its recording means the recording is stale (an improvement, or a first guess): the
            // limit then sits that much above the code's real cost and a regression of the same size passes.
            var stale = $"{budget.Name}: counted {Figures.Format(measured)} {budget.Unit}, {Figures.Overshoot(measured, recordedCount)} against its recording of {Figures.Format(recordedCount)} (margin {Figures.Format(margin * 100)}%): " +
                $"the recording is stale and the limit {Figures.Format(budget.Limit)} protects nothing below it; re-record ({RecordCommand})";
            if (Options.RecordingStrict)
            {
                Record(new BudgetResult(budget.Name, budget.Kind.Name, measured, budget.Limit, budget.Unit, BudgetVerdict.Fail, budget.Profile,
                    DateTimeOffset.UtcNow, MachineInfo.Current, $"{stale} [strict recording]; {detail}", attribution));
                throw Failure(budget, measured, FailureCause.StaleRecording, $"{stale} [strict recording]");
            }

            Options.Warnings.Warn(stale);
        }

        if (!budget.IsMet(measured))
        {
            var changes = new List<string>();
            if (_recordedMethods.Value.GetValueOrDefault(budget.RecordedMethodsKey) is { } recorded && CountAttribution.Grown(attribution, recorded, $"the recording ({RecordedMethodsFile.FileName})") is { } sinceRecording)
            {
                changes.Add(sinceRecording);
            }

            if (Baseline?.Results.GetValueOrDefault(budget.Name)?.Attribution is { } baseline
                && CountAttribution.Grown(attribution, baseline.Entries, $"the baseline ({Path.GetFileName(Baseline.FilePath)})") is { } sinceBaseline)
            {
                changes.Add(sinceBaseline);
            }

            attribution = attribution with { Change = changes.Count == 0 ? null : string.Join(Environment.NewLine + "  ", changes) };
        }

        return CheckWith(budgetName, measured, detail, diagnose: null, known: attribution);
    }

    /// <summary>
    /// Checks a counted budget as <see cref="CheckCount"/> does, but a count over the limit is first confirmed: the
    /// workload is counted again by <paramref name="confirm"/> (in a fresh process) and the smaller of the two counts
    /// is gated. Work the runtime does on its own clock (a timer, a stub or helper made at a run-dependent time) only
    /// ever adds to a count, while a regression in the code raises both; the detail gives both counts.
    /// </summary>
    /// <param name="budgetName">A counted budget defined in <c>budgets.json</c>.</param>
    /// <param name="measurement">The first count of the budget's workload.</param>
    /// <param name="confirm">Counts the workload again, in a process of its own; called only when the first count is over the limit.</param>
    /// <param name="describe">Optional: what was measured, put before the measurement's own figures in the detail.</param>
    public async Task<BudgetResult> CheckCountConfirmedAsync(string budgetName, InstructionMeasurement measurement, Func<Task<InstructionMeasurement>> confirm, string? describe = null)
    {
        ArgumentNullException.ThrowIfNull(measurement);
        ArgumentNullException.ThrowIfNull(confirm);
        var budget = CountedBudget(budgetName);
        var first = CountedFigure(budget, measurement);
        var sameRuntime = budget.RecordedOn is not { } on || on.Runtime == measurement.RuntimeVersion;
        if (budget.IsMet(first) || !sameRuntime)
        {
            return CheckCount(budgetName, measurement, describe);
        }

        var second = await confirm().ConfigureAwait(false);
        var secondFigure = CountedFigure(budget, second);
        var chosen = secondFigure < first ? second : measurement;
        var counts = $"counted twice, each in a process of its own: {Figures.Format(first)} then {Figures.Format(secondFigure)} {budget.Unit}, the smaller gated";
        return CheckCount(budgetName, chosen, string.IsNullOrEmpty(describe) ? counts : $"{describe}; {counts}");
    }

    // The command that re-records counted budgets, named in every message that asks for it.
    internal const string RecordCommand = "perfbudgets record";

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

    // The command that proposes limits from the runs' history, named in the stale-floor warning.
    internal const string ProposeCommand = "perfbudgets propose";

    private Budget CountedBudget(string budgetName)
    {
        var budget = Book.Get(budgetName);
        return budget.Kind.IsCounted && budget.Kind != BudgetKind.GrowthExponentMax
            ? budget
            : throw new BudgetFileException($"{Book.FilePath}: budget '{budgetName}' is a {budget.Kind} budget; CheckCount takes {BudgetKind.InstructionsMax}, {BudgetKind.SyscallsMax} or {BudgetKind.CyclesMax}.");
    }

    private static double CountedFigure(Budget budget, InstructionMeasurement measurement) =>
        budget.Kind == BudgetKind.SyscallsMax ? measurement.SystemCallsPerOperation
        : budget.Kind == BudgetKind.CyclesMax ? measurement.EstimatedCyclesPerOperation
            ?? throw new ArgumentException($"{budget.Name} is a {budget.Kind} budget, and the measurement has no estimated cycles: count it with the cache simulation on (InstructionMeter.RunProcess(..., cacheSimulation: true)).", nameof(measurement))
        : measurement.InstructionsPerOperation;

    /// <summary>
    /// Checks a <c>growth-exponent-max</c> budget against an operation counted at two sizes: the figure is the growth
    /// exponent (<see cref="GrowthMeasurement.Exponent"/>). The breakdown recorded with it is each method's
    /// instructions per item at the large size; when the budget breaks, the failure names the methods whose count per
    /// item rose between the sizes (<see cref="GrowthAttribution"/>). Counts taken on another runtime than the budget
    /// was recorded with fail and say so, as in <see cref="CheckCount"/>.
    /// </summary>
    /// <param name="budgetName">A <c>growth-exponent-max</c> budget defined in <c>budgets.json</c>.</param>
    /// <param name="growth">The operation counted at its two sizes.</param>
    /// <param name="describe">Optional: what was measured, put before the measurement's own figures in the detail.</param>
    public BudgetResult CheckGrowth(string budgetName, GrowthMeasurement growth, string? describe = null)
    {
        ArgumentNullException.ThrowIfNull(growth);
        var budget = Book.Get(budgetName);
        if (budget.Kind != BudgetKind.GrowthExponentMax)
        {
            throw new BudgetFileException($"{Book.FilePath}: budget '{budgetName}' is a {budget.Kind} budget; CheckGrowth takes {BudgetKind.GrowthExponentMax}.");
        }

        var measured = growth.Exponent;
        var detail = (string.IsNullOrEmpty(describe) ? growth.ToString() : $"{describe}; {growth}") + UnpinnedNote;
        var attribution = GrowthAttribution.From(growth);
        if (budget.RecordedOn is { } on && on.Runtime != growth.Large.RuntimeVersion)
        {
            var line = $"{budget.Name}: recorded on .NET {on.Runtime}, counted on .NET {growth.Large.RuntimeVersion}: " +
                $"counts do not compare across runtime versions; {ReRecordAdvice} [measured {Figures.Format(measured)} {budget.Unit}, limit {Figures.Format(budget.Limit)}]";
            Record(new BudgetResult(budget.Name, budget.Kind.Name, measured, budget.Limit, budget.Unit, BudgetVerdict.Fail, budget.Profile,
                DateTimeOffset.UtcNow, MachineInfo.Current, $"{line}; {detail}", attribution));
            throw Failure(budget, measured, FailureCause.OtherVersions, line);
        }

        return CheckWith(budgetName, measured, detail, diagnose: null, known: attribution);
    }

    /// <summary>
    /// Records that a budget could not be measured on this machine, with the reason (<c>valgrind not found: …</c>),
    /// never as passed. Under CI (<see cref="BudgetGateOptions.IsCi"/>) that is a failure unless the kind was turned off
    /// on purpose (<see cref="BudgetGateOptions.CountedBudgetsOff"/> for the counted kinds); elsewhere it throws
    /// <see cref="BudgetNotMeasuredException"/>, which a test framework reports as skipped. It always throws: the
    /// result is in the store, and the test ends here.
    /// </summary>
    [DoesNotReturn]
    public void NotMeasured(string budgetName, string reason)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(reason);
        var budget = Book.Get(budgetName);
        var line = $"{budget.Name}: not measured ({reason})";
        var offOnPurpose = (budget.Kind.IsCounted && Options.CountedBudgetsOff) || (budget.Kind.IsPaired && Options.PairingOff);
        var failed = Options.IsCi && !offOnPurpose;
        var result = new BudgetResult(budget.Name, budget.Kind.Name, double.NaN, budget.Limit, budget.Unit, failed ? BudgetVerdict.Fail : BudgetVerdict.NotMeasured,
            budget.Profile, DateTimeOffset.UtcNow, MachineInfo.Current, reason);
        Record(result);
        var remedy = budget.Kind.IsCounted
            ? $": install what it needs, or set {HarnessEnvironment.InstructionsVariable}=off to turn the counted budgets off on purpose"
            : budget.Kind.IsPaired
            ? $": give the run its base commit, or set {HarnessEnvironment.BaseVariable}=none to turn the paired budgets off on purpose"
            : string.Empty;
        throw failed
            ? Failure(budget, double.NaN, FailureCause.NotMeasured, $"{line}; under CI=true an unmeasured budget fails{remedy}")
            : new BudgetNotMeasuredException(line);
    }

    // Read once, on the first counted failure: a passing run never opens the file.
    private readonly Lazy<Dictionary<string, IReadOnlyList<AttributionEntry>>> _recordedMethods;

    // The diagnosis runs on a pool thread so a hung one cannot hold the failure back; the profilers filter by the thread
    // that runs the operation, whichever it is. Whatever goes wrong, the budget's own failure must still be reported.
    private Attribution Diagnose(Func<Attribution> diagnose)
    {
        var task = Task.Run(diagnose);
        try
        {
            return task.Wait(Options.DiagnosisTimeout)
                ? task.Result
                : Attribution.Unavailable($"the diagnosis took longer than {Figures.Format(Options.DiagnosisTimeout.TotalSeconds)} s");
        }
        catch (AggregateException e)
        {
            var cause = e.InnerExceptions.Count == 1 ? e.InnerException! : e;
            return Attribution.Unavailable($"the diagnosis failed: {cause.GetType().Name}: {FirstLine(cause.Message)}");
        }
    }

    private static string FirstLine(string text)
    {
        var end = text.IndexOfAny(['\r', '\n']);
        return end < 0 ? text : text[..end];
    }

    /// <summary>
    /// Checks several budgets of one scenario: every one is recorded before any failure is reported, and one
    /// <see cref="BudgetExceededException"/> lists every broken budget (<see cref="BudgetExceededException.Failures"/>),
    /// one line each, each followed by its attribution when its check had a diagnosis.
    /// </summary>
    public IReadOnlyList<BudgetResult> CheckAll(params BudgetCheck[] checks) => CheckAll((IReadOnlyList<BudgetCheck>)checks);

    /// <inheritdoc cref="CheckAll(BudgetCheck[])"/>
    public IReadOnlyList<BudgetResult> CheckAll(IReadOnlyList<BudgetCheck> checks)
    {
        ArgumentNullException.ThrowIfNull(checks);
        if (Options.RequireOptimizedBuild && checks.Any(c => Book.Get(c.BudgetName).Kind.DependsOnCodeGeneration))
        {
            BuildOptimization.EnsureOptimized();
        }

        var results = new List<BudgetResult>(checks.Count);
        var failures = new List<BudgetFailure>();
        foreach (var check in checks)
        {
            try
            {
                results.Add(Check(check.BudgetName, check.Measured, check.Detail, check.Diagnose));
            }
            catch (BudgetExceededException e)
            {
                failures.AddRange(e.Failures);
            }
        }

        return failures.Count == 0 ? results : throw new BudgetExceededException(failures);
    }

    /// <summary>
    /// Measures a CPU cost with <paramref name="measure"/> and checks it against <paramref name="budgetName"/>; when it
    /// is over the limit, measures again, up to <paramref name="maxAttempts"/> times in all, and gates the lowest cost.
    /// </summary>
    /// <remarks>
    /// Interference from the rest of a shared machine only ever adds CPU time, while a regression in the measured code
    /// raises every attempt, so the lowest attempt is the fair figure, and a burst of noise from a neighbour does not
    /// fail the build. Every attempt's cost is in the recorded detail, so a budget that needed retries shows it.
    /// </remarks>
    /// <param name="budgetName">A <c>cpu-cost-max</c> budget defined in <c>budgets.json</c>.</param>
    /// <param name="measure">Takes one measurement (warm-up included).</param>
    /// <param name="describe">Optional: what was measured, put before the measurement's own figures in the detail.</param>
    /// <param name="maxAttempts">At most this many measurements; 1 disables the retry.</param>
    /// <param name="diagnose">
    /// Optional: names the hottest methods of the same operation (<c>CpuProfiler</c> of the PerfBudgets.Diagnostics package), called only
    /// when the budget fails after every attempt (see <see cref="Check"/>).
    /// </param>
    public BudgetResult CheckCost(string budgetName, Func<CpuMeasurement> measure, string? describe = null, int maxAttempts = 3, Func<Attribution>? diagnose = null)
    {
        ArgumentNullException.ThrowIfNull(measure);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxAttempts);
        var budget = Book.Get(budgetName);
        var attempts = new List<CpuMeasurement> { measure() };
        while (!budget.IsMet(attempts.Min(a => a.Cost)) && attempts.Count < maxAttempts)
        {
            attempts.Add(measure());
        }

        var best = attempts.MinBy(a => a.Cost)!;
        var tries = attempts.Count == 1
            ? string.Empty
            : $"lowest of {attempts.Count} attempts ({string.Join(" / ", attempts.Select(a => Figures.Format(a.Cost)))}); ";
        var detail = string.IsNullOrEmpty(describe) ? $"{tries}{best}" : $"{describe}; {tries}{best}";
        return Check(budgetName, best.Cost, detail, diagnose);
    }

    /// <summary>
    /// Runs a scenario measured against the wall clock (a load run) and checks its budgets with <c>CheckAll</c>.
    /// When the only budgets it breaks are wall-clock kinds (latency, rates: <see cref="BudgetKind.IsWallClock"/>), the
    /// scenario runs again, up to <paramref name="maxAttempts"/> times in all, and the first attempt that meets every
    /// budget passes.
    /// </summary>
    /// <remarks>
    /// A busy neighbour only ever adds latency and takes rate away, while a regression in the code under load breaks
    /// every attempt; so repeating separates the two, as <see cref="CheckCost"/> does for CPU. A failed request is
    /// never repeated away: when an <c>errors-max</c> budget breaks, the attempt is final. The recorded detail lists
    /// the broken figures of every earlier attempt.
    /// </remarks>
    /// <param name="run">Runs the scenario once.</param>
    /// <param name="checks">The budgets of one run's result.</param>
    /// <param name="maxAttempts">At most this many runs; 1 disables the repetition.</param>
    public async Task<IReadOnlyList<BudgetResult>> CheckRunAsync<T>(Func<Task<T>> run, Func<T, IReadOnlyList<BudgetCheck>> checks, int maxAttempts = 3)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(checks);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxAttempts);
        var earlier = new List<string>();
        for (var attempt = 1; ; attempt++)
        {
            var measured = checks(await run());
            var broken = measured.Where(c => !Book.Get(c.BudgetName).IsMet(c.Measured)).ToArray();
            if (broken.Length == 0 || attempt == maxAttempts || !broken.All(c => Book.Get(c.BudgetName).Kind.IsWallClock))
            {
                var tries = earlier.Count == 0 ? null : $"attempt {attempt} of {maxAttempts}, earlier attempts broke {string.Join(" / ", earlier)}";
                return CheckAll(measured.Select(c => tries is null ? c : c with { Detail = string.IsNullOrEmpty(c.Detail) ? tries : $"{tries}; {c.Detail}" }).ToArray());
            }

            earlier.Add(string.Join(", ", broken.Select(c => $"{c.BudgetName} = {Figures.Format(c.Measured)}")));
        }
    }

    /// <summary>Records a figure that is reported for contrast but not gated (no budget, verdict <c>info</c>).</summary>
    public BudgetResult Observe(string name, double measured, string unit, string? detail = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentException.ThrowIfNullOrWhiteSpace(unit);
        var result = new BudgetResult(name, BudgetResult.InfoKind, measured, null, unit, BudgetVerdict.Info, Book.Profile, DateTimeOffset.UtcNow, MachineInfo.Current, detail);
        Record(result);
        return result;
    }

    /// <summary>
    /// Records a load run (rates, percentiles, per-second buckets, status codes, bytes, errors) in the <c>loads</c> of
    /// <c>results.json</c> for reports, stamped now and with this machine unless the result says when and where it ran.
    /// Its budgets are checked separately, with <c>CheckAll</c>.
    /// </summary>
    public void RecordLoad(Load.LoadResult result)
    {
        ArgumentNullException.ThrowIfNull(result);
        _exporters.RecordLoad(result with { TimestampUtc = result.TimestampUtc ?? DateTimeOffset.UtcNow, Machine = result.Machine ?? MachineInfo.Current });
    }

    private BaselineComparison? Compare(Budget budget, double measured)
    {
        if (Baseline is null)
        {
            return null;
        }

        return Baseline.Figure(budget.Name) is { } figure
            ? BaselineComparison.Compare(budget, Book.NoiseThreshold(budget.Name), measured, figure)
            : BaselineComparison.Missing;
    }

    private static BudgetExceededException Failure(Budget budget, double measured, FailureCause cause, string message) =>
        new([new BudgetFailure { BudgetName = budget.Name, Measured = measured, Limit = budget.Limit, Unit = budget.Unit, Direction = budget.Direction, Cause = cause, Message = message }]);

    /// <summary>The one-line failure text: name, measured, comparison, limit, overshoot, and the detail if any.</summary>
    internal static string FailureLine(Budget budget, double measured, string? detail = null)
    {
        ArgumentNullException.ThrowIfNull(budget);
        var comparison = budget.Direction == BudgetDirection.AtMost ? ">" : "<";
        var line = $"{budget.Name}: {Figures.Format(measured)} {budget.Unit} {comparison} budget {Figures.Format(budget.Limit)} {Figures.Overshoot(measured, budget.Limit)}";
        return string.IsNullOrEmpty(detail) ? line : $"{line} [{detail}]";
    }
}
