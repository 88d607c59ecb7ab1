using PerfBudgets.Budgets;
using PerfBudgets.Diagnosing;
using PerfBudgets.Measuring;
using PerfBudgets.Reporting;

namespace PerfBudgets;

/// <summary>
/// Compares measurements with their budgets, records every measurement, and throws
/// <see cref="BudgetExceededException"/> for a broken budget. Test-framework neutral: any runner reports the exception.
/// </summary>
public sealed class BudgetGate
{
    private static readonly Lazy<BudgetGate> DefaultGate = new(() =>
    {
        var book = BudgetBook.LoadDefault();
        return new BudgetGate(book, new ResultStore(ResultStore.DefaultDirectory(book.FilePath)))
        {
            Baseline = BaselineResults.FromEnvironment(),
            BaselineStrict = BaselineResults.StrictFromEnvironment(),
        };
    });

    /// <summary>Creates a gate over <paramref name="book"/> that records into <paramref name="store"/>.</summary>
    /// <param name="book">The budgets in force.</param>
    /// <param name="store">Where results go.</param>
    /// <param name="requireOptimizedBuild">
    /// When true (the default), a budget whose kind depends on code generation is refused with
    /// <see cref="NonOptimizedBuildException"/> on a Debug build (<see cref="BuildOptimization"/>). Only tests of the gate's
    /// own arithmetic turn it off.
    /// </param>
    public BudgetGate(BudgetBook book, ResultStore store, bool requireOptimizedBuild = true)
    {
        Book = book ?? throw new ArgumentNullException(nameof(book));
        Store = store ?? throw new ArgumentNullException(nameof(store));
        RequireOptimizedBuild = requireOptimizedBuild;
        _recordedMethods = new(() => RecordedMethodsFile.Read(Path.Combine(Path.GetDirectoryName(Path.GetFullPath(Book.FilePath)) ?? ".", RecordedMethodsFileName)));
    }

    /// <summary>Whether budgets that depend on code generation are refused on a non-optimized build.</summary>
    public bool RequireOptimizedBuild { get; }

    /// <summary>The gate over the repository's <c>budgets.json</c> for the active profile, recording into <c>artifacts/budgets</c>.</summary>
    public static BudgetGate Default => DefaultGate.Value;

    /// <summary>The budgets in force.</summary>
    public BudgetBook Book { get; }

    /// <summary>Where results go.</summary>
    public ResultStore Store { get; }

    /// <summary>
    /// The earlier run this one is compared with (<c>PERF_BASELINE</c> for <see cref="Default"/>), or null. A budget
    /// within its limit but worse than the baseline by more than its noise threshold
    /// (<see cref="BudgetBook.NoiseThreshold(string)"/>) is recorded as <see cref="BudgetVerdict.Warn"/> and raises
    /// <see cref="Warning"/>; a failing allocation budget also names the types that changed since the baseline's
    /// breakdown of it (<see cref="AttributionChange"/>).
    /// </summary>
    public BaselineResults? Baseline { get; init; }

    /// <summary>When true (<c>PERF_BASELINE_STRICT=1</c> for <see cref="Default"/>), a baseline warning is a failure instead.</summary>
    public bool BaselineStrict { get; init; }

    /// <summary>
    /// Raised with the one-line text of every baseline warning (it is also written to standard error). A test suite
    /// can forward it to its framework's warnings, e.g. xunit v3's <c>TestContext.Current.AddWarning</c>.
    /// </summary>
    public static event EventHandler<string>? Warning;

    /// <summary>
    /// Records <paramref name="measured"/> against the budget <paramref name="budgetName"/> and throws when it is broken.
    /// </summary>
    /// <param name="budgetName">A name defined in <c>budgets.json</c>; an undefined name throws <see cref="BudgetFileException"/>.</param>
    /// <param name="measured">The measurement, in the budget's unit.</param>
    /// <param name="detail">Optional context recorded beside the figure (sample size, the inputs of a ratio).</param>
    /// <param name="diagnose">
    /// Optional: says what broke the budget (an <see cref="Diagnosing.AllocationProfiler"/> or <see cref="Diagnosing.CpuProfiler"/>
    /// run of the same operation). Called only when the budget fails, so a passing run pays nothing; its summary goes
    /// on the lines after the failure line and its breakdown into the recorded result. If it throws or takes longer
    /// than <see cref="DiagnosisTimeout"/>, the failure is still reported, with a note why attribution is missing.
    /// </param>
    /// <returns>The recorded result when the budget is met.</returns>
    public BudgetResult Check(string budgetName, double measured, string? detail = null, Func<Attribution>? diagnose = null) =>
        CheckWith(budgetName, measured, detail, diagnose, known: null);

    private BudgetResult CheckWith(string budgetName, double measured, string? detail, Func<Attribution>? diagnose, Attribution? known)
    {
        var budget = Book.Get(budgetName);
        if (RequireOptimizedBuild && BudgetKind.DependsOnCodeGeneration(budget.Kind))
        {
            BuildOptimization.EnsureOptimized();
        }

        var met = budget.IsMet(measured);
        var attribution = known ?? (diagnose is not null && (!met || DiagnoseAlways) ? Diagnose(diagnose) : null);
        if (attribution is not null && !met && Baseline is not null
            && AttributionChange.Describe(attribution, Baseline.Results.GetValueOrDefault(budget.Name)?.Attribution, Baseline.FilePath) is { } change)
        {
            attribution = attribution with { Change = change };
        }

        var comparison = Compare(budget, measured);
        var flagged = met && comparison is { Flagged: true };
        var verdict = !met || (flagged && BaselineStrict) ? BudgetVerdict.Fail : flagged ? BudgetVerdict.Warn : BudgetVerdict.Pass;
        var result = new BudgetResult(budget.Name, budget.Kind, measured, budget.Limit, budget.Unit,
            verdict, budget.Profile, DateTimeOffset.UtcNow, MachineInfo.Current, detail, attribution) { Baseline = comparison };
        Store.Record(result);
        if (!met)
        {
            var line = FailureLine(budget, measured, detail);
            throw new BudgetExceededException(attribution is null ? line
                : attribution.Change is null ? $"{line}{Environment.NewLine}  {attribution.Summary}"
                : $"{line}{Environment.NewLine}  {attribution.Summary}{Environment.NewLine}  {attribution.Change}");
        }

        if (flagged)
        {
            var line = comparison!.WarningLine(budget.Name, measured, budget.Unit);
            if (BaselineStrict)
            {
                throw new BudgetExceededException($"{line} [{BaselineResults.StrictEnvironmentVariable}]");
            }

            Console.Error.WriteLine($"warning: {line}");
            Warning?.Invoke(this, line);
        }

        return result;
    }

    /// <summary>
    /// Checks a counted budget (<c>instructions-max</c> or <c>syscalls-max</c>) against what the instruction meter
    /// counted. The figure's breakdown by method is recorded with every result (it costs nothing more); when the
    /// budget breaks, the failure names the methods that grew since the recording (<see cref="RecordedMethodsFileName"/>
    /// beside <c>budgets.json</c>) and, with a baseline, since the baseline run. A measurement taken on another
    /// runtime or Valgrind version than the budget was recorded with fails and says so: counts do not compare across them.
    /// </summary>
    /// <param name="budgetName">A counted budget defined in <c>budgets.json</c>.</param>
    /// <param name="measurement">The counts of the budget's workload.</param>
    /// <param name="describe">Optional: what was measured, put before the measurement's own figures in the detail.</param>
    public BudgetResult CheckCount(string budgetName, InstructionMeasurement measurement, string? describe = null)
    {
        ArgumentNullException.ThrowIfNull(measurement);
        var budget = Book.Get(budgetName);
        if (!BudgetKind.IsCounted(budget.Kind))
        {
            throw new BudgetFileException($"{Book.FilePath}: budget '{budgetName}' is a {budget.Kind} budget; CheckCount takes {BudgetKind.InstructionsMax} or {BudgetKind.SyscallsMax}.");
        }

        var systemCalls = budget.Kind == BudgetKind.SyscallsMax;
        var measured = systemCalls ? measurement.SystemCallsPerOperation : measurement.InstructionsPerOperation;
        var detail = string.IsNullOrEmpty(describe) ? measurement.ToString() : $"{describe}; {measurement}";
        var attribution = CountAttribution.From(measurement, systemCalls);
        if (budget.RecordedOn is { } on && (on.Runtime != measurement.RuntimeVersion || on.Valgrind != measurement.ValgrindVersion))
        {
            var line = $"{budget.Name}: recorded on .NET {on.Runtime} with valgrind {on.Valgrind}, this is .NET {measurement.RuntimeVersion} with valgrind {measurement.ValgrindVersion}: " +
                $"counts do not compare across versions, re-record (dotnet cake --target=Record.Instructions) [measured {Figures.Format(measured)} {budget.Unit}, limit {Figures.Format(budget.Limit)}]";
            Store.Record(new BudgetResult(budget.Name, budget.Kind, measured, budget.Limit, budget.Unit, BudgetVerdict.Fail, budget.Profile,
                DateTimeOffset.UtcNow, MachineInfo.Current, $"{line}; {detail}", attribution));
            throw new BudgetExceededException(line);
        }

        if (!budget.IsMet(measured))
        {
            var changes = new List<string>();
            if (_recordedMethods.Value.GetValueOrDefault(budget.Name) is { } recorded && CountAttribution.Grown(attribution, recorded, $"the recording ({RecordedMethodsFileName})") is { } sinceRecording)
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
    /// Records that a budget could not be measured on this machine, with the reason (<c>valgrind not found: …</c>),
    /// never as passed. Under CI (<c>CI=true</c>) that is a failure unless the kind was turned off on purpose
    /// (<c>PERF_INSTRUCTIONS=off</c> for the counted kinds); elsewhere it throws <see cref="BudgetNotMeasuredException"/>,
    /// which a test framework reports as skipped.
    /// </summary>
    public BudgetResult NotMeasured(string budgetName, string reason)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(reason);
        var budget = Book.Get(budgetName);
        var line = $"{budget.Name}: not measured ({reason})";
        var offOnPurpose = BudgetKind.IsCounted(budget.Kind)
            && string.Equals(Environment.GetEnvironmentVariable(InstructionsEnvironmentVariable), "off", StringComparison.OrdinalIgnoreCase);
        var failed = IsCi && !offOnPurpose;
        var result = new BudgetResult(budget.Name, budget.Kind, double.NaN, budget.Limit, budget.Unit, failed ? BudgetVerdict.Fail : BudgetVerdict.NotMeasured,
            budget.Profile, DateTimeOffset.UtcNow, MachineInfo.Current, reason);
        Store.Record(result);
        var remedy = BudgetKind.IsCounted(budget.Kind)
            ? $": install what it needs, or set {InstructionsEnvironmentVariable}=off to turn the counted budgets off on purpose"
            : string.Empty;
        throw failed
            ? new BudgetExceededException($"{line}; under CI=true an unmeasured budget fails{remedy}")
            : new BudgetNotMeasuredException(line);
    }

    /// <summary>Environment variable that, set to <c>off</c>, turns the counted budgets off on purpose (reported as not measured, even under CI).</summary>
    public const string InstructionsEnvironmentVariable = "PERF_INSTRUCTIONS";

    /// <summary>True when the gate runs under CI (<c>CI=true</c>, as GitHub Actions, GitLab and Azure Pipelines set it).</summary>
    public bool IsCi { get; init; } = string.Equals(Environment.GetEnvironmentVariable("CI"), "true", StringComparison.OrdinalIgnoreCase);

    /// <summary>
    /// The file beside <c>budgets.json</c> that holds each counted budget's breakdown by method as recorded
    /// (<c>dotnet cake --target=Record.Instructions</c>), which a failure is compared with.
    /// </summary>
    public const string RecordedMethodsFileName = "budgets.methods.json";

    // Read once, on the first counted failure: a passing run never opens the file.
    private readonly Lazy<Dictionary<string, IReadOnlyList<AttributionEntry>>> _recordedMethods;

    /// <summary>Environment variable that, set to <c>always</c>, makes the gate diagnose passing budgets too.</summary>
    public const string DiagnoseEnvironmentVariable = "PERF_DIAGNOSE";

    /// <summary>
    /// When true, diagnoses run on passing budgets too and their breakdowns are recorded: a baseline for
    /// <see cref="Baseline"/> to compare a later failure with. Off by default (a passing run must not pay);
    /// on when <see cref="DiagnoseEnvironmentVariable"/> is <c>always</c>.
    /// </summary>
    public bool DiagnoseAlways { get; init; } =
        string.Equals(Environment.GetEnvironmentVariable(DiagnoseEnvironmentVariable), "always", StringComparison.OrdinalIgnoreCase);

    /// <summary>How long a failing budget's diagnosis may take before the failure is reported without it.</summary>
    public TimeSpan DiagnosisTimeout { get; init; } = TimeSpan.FromSeconds(90);

    // The diagnosis runs on a pool thread so a hung one cannot hold the failure back; the profilers filter by the thread
    // that runs the operation, whichever it is. Whatever goes wrong, the budget's own failure must still be reported.
    private Attribution Diagnose(Func<Attribution> diagnose)
    {
        var task = Task.Run(diagnose);
        try
        {
            return task.Wait(DiagnosisTimeout)
                ? task.Result
                : Attribution.Unavailable($"the diagnosis took longer than {Figures.Format(DiagnosisTimeout.TotalSeconds)} s");
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
    /// <see cref="BudgetExceededException"/> lists every broken budget, one line each.
    /// </summary>
    public IReadOnlyList<BudgetResult> CheckAll(params (string BudgetName, double Measured, string? Detail)[] checks)
    {
        ArgumentNullException.ThrowIfNull(checks);
        return CheckAll(checks.Select(c => (c.BudgetName, c.Measured, c.Detail, (Func<Attribution>?)null)).ToArray());
    }

    /// <summary>
    /// As <see cref="CheckAll(ValueTuple{string, double, string}[])"/>, each budget with an optional diagnosis that runs
    /// only if that budget fails (see <see cref="Check"/>); a broken budget's attribution follows its line.
    /// </summary>
    public IReadOnlyList<BudgetResult> CheckAll(params (string BudgetName, double Measured, string? Detail, Func<Attribution>? Diagnose)[] checks)
    {
        ArgumentNullException.ThrowIfNull(checks);
        if (RequireOptimizedBuild && checks.Any(c => BudgetKind.DependsOnCodeGeneration(Book.Get(c.BudgetName).Kind)))
        {
            BuildOptimization.EnsureOptimized();
        }

        var results = new List<BudgetResult>(checks.Length);
        var failures = new List<string>();
        foreach (var (name, measured, detail, diagnose) in checks)
        {
            try
            {
                results.Add(Check(name, measured, detail, diagnose));
            }
            catch (BudgetExceededException e)
            {
                failures.Add(e.Message);
            }
        }

        return failures.Count == 0 ? results : throw new BudgetExceededException(string.Join(Environment.NewLine, failures));
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
    /// Optional: names the hottest methods of the same operation (<see cref="Diagnosing.CpuProfiler"/>), called only
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
    /// <param name="checks">The budgets of one run's result: name, measured figure, detail.</param>
    /// <param name="maxAttempts">At most this many runs; 1 disables the repetition.</param>
    public async Task<IReadOnlyList<BudgetResult>> CheckRunAsync<T>(Func<Task<T>> run, Func<T, (string BudgetName, double Measured, string? Detail)[]> checks, int maxAttempts = 3)
    {
        ArgumentNullException.ThrowIfNull(run);
        ArgumentNullException.ThrowIfNull(checks);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxAttempts);
        var earlier = new List<string>();
        for (var attempt = 1; ; attempt++)
        {
            var measured = checks(await run());
            var broken = measured.Where(c => !Book.Get(c.BudgetName).IsMet(c.Measured)).ToArray();
            if (broken.Length == 0 || attempt == maxAttempts || !broken.All(c => BudgetKind.IsWallClock(Book.Get(c.BudgetName).Kind)))
            {
                var tries = earlier.Count == 0 ? null : $"attempt {attempt} of {maxAttempts}, earlier attempts broke {string.Join(" / ", earlier)}";
                return CheckAll(measured.Select(c => (c.BudgetName, c.Measured, tries is null ? c.Detail : string.IsNullOrEmpty(c.Detail) ? tries : $"{tries}; {c.Detail}")).ToArray());
            }

            earlier.Add(string.Join(", ", broken.Select(c => $"{c.BudgetName} = {Figures.Format(c.Measured)}")));
        }
    }

    /// <summary>Records a figure that is reported for contrast but not gated (no budget, verdict <c>info</c>).</summary>
    public BudgetResult Observe(string name, double measured, string unit, string? detail = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentException.ThrowIfNullOrWhiteSpace(unit);
        var result = new BudgetResult(name, "info", measured, null, unit, BudgetVerdict.Info, Book.Profile, DateTimeOffset.UtcNow, MachineInfo.Current, detail);
        Store.Record(result);
        return result;
    }

    /// <summary>
    /// Records a load scenario's statistics (rates, percentiles, per-second buckets, status codes, bytes, errors) in
    /// <c>results.json</c> for reports. Its budgets are checked separately, with <c>CheckAll</c>.
    /// </summary>
    public void RecordLoad(Load.LoadResult result) => Store.RecordLoad(LoadReport.From(result));

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

    /// <summary>The one-line failure text: name, measured, comparison, limit, overshoot, and the detail if any.</summary>
    public static string FailureLine(Budget budget, double measured, string? detail = null)
    {
        ArgumentNullException.ThrowIfNull(budget);
        var comparison = budget.Direction == BudgetDirection.AtMost ? ">" : "<";
        var line = $"{budget.Name}: {Figures.Format(measured)} {budget.Unit} {comparison} budget {Figures.Format(budget.Limit)} {Figures.Overshoot(measured, budget.Limit)}";
        return string.IsNullOrEmpty(detail) ? line : $"{line} [{detail}]";
    }
}
