using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using PerfBudgets.Budgets;
using PerfBudgets.Diagnosing;
using PerfBudgets.Gating;
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
    // Every check is the same short pipeline of the internal types in Gating/, each one job: resolve the budget
    // (BudgetResolver), measure (a retry policy, CountedFigure), judge (BudgetJudge), diagnose (DiagnosisRunner,
    // AttributionChanges), conclude (GateRules: the warnings and strict failures, one small rule each), then record and
    // throw in one place (ResultRecorder), in the words of GateMessages. This file holds the plain checks; the counted,
    // retried and paired ones are in the partials beside it.
    private static readonly Lazy<BudgetGate> DefaultGate = new(() => Create(BudgetGateOptions.FromEnvironment()));

    private readonly BudgetResolver _resolver;
    private readonly BudgetJudge _judge;
    private readonly GateRules _figureRules;
    private readonly GateRules _countRules;
    private readonly GateRules _growthRules;
    private readonly DiagnosisRunner _diagnosis;
    private readonly AttributionChanges _changes;
    private readonly ResultRecorder _recorder;
    private readonly Lazy<(BaseBuild? Base, string Reason)> _base;

    // The store's exporters (summary.md, the step summary): the store persists, they render.
    private readonly RunExporters _exporters;

    /// <summary>
    /// Creates a gate over <paramref name="book"/> that records into <paramref name="store"/>. The options' file, profile
    /// and results folder are not read: the book and store are given.
    /// </summary>
    /// <param name="book">The budgets in force.</param>
    /// <param name="store">Where results go.</param>
    /// <param name="options">How the gate behaves; null for the defaults (not the environment's: see <see cref="Default"/>).</param>
    /// <exception cref="PerfBudgetsException">The options name a baseline that cannot be read; the message names the file.</exception>
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
        _exporters = RunExporters.Of(store);
        Baseline = Options.BaselineFile is { } baseline ? BaselineResults.Load(baseline) : null;
        _resolver = new BudgetResolver(book, options.RequireOptimizedBuild);
        _judge = new BudgetJudge(book, Baseline, options);
        _figureRules = GateRules.ForFigures(book, options);
        _countRules = GateRules.ForCounts(book, options);
        _growthRules = GateRules.ForGrowth(book, options);
        _diagnosis = new DiagnosisRunner(options.DiagnosisTimeout);
        _changes = new AttributionChanges(book, Baseline);
        // The run every result of this gate is recorded under in history.jsonl.
        _recorder = new ResultRecorder(book, _exporters, RunIdentity.Of(options.RunId, options.Commit), options);
        _base = ResolveBaseOnce(options);
        if (HarnessEnvironment.DeprecationLine is { } deprecated && Interlocked.Exchange(ref _deprecationSaid, 1) == 0)
        {
            options.Warnings.Warn(deprecated);
        }
    }

    // The deprecation line is said once per process, not once per gate.
    private static int _deprecationSaid;

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
    /// <param name="budgetName">
    /// A name defined in <c>budgets.json</c>; an undefined name throws <see cref="PerfBudgetsException"/>, its message
    /// naming the file and the budget.
    /// </param>
    /// <param name="measured">The measurement, in the budget's unit.</param>
    /// <param name="detail">Optional context recorded beside the figure (sample size, the inputs of a ratio).</param>
    /// <param name="diagnose">
    /// Optional: says what broke the budget (an <c>AllocationProfiler</c> or <c>CpuProfiler</c> of the PerfBudgets.Diagnostics package
    /// run of the same operation). Called only when the budget fails, so a passing run pays nothing; its summary goes
    /// on the lines after the failure line and its breakdown into the recorded result. If it throws or takes longer
    /// than <see cref="BudgetGateOptions.DiagnosisTimeout"/>, the failure is still reported, with a note why attribution is missing.
    /// </param>
    /// <returns>The recorded result when the budget is met.</returns>
    /// <exception cref="BudgetExceededException">The budget is broken (or not measured: <paramref name="measured"/> is NaN).</exception>
    public BudgetResult Check(string budgetName, double measured, string? detail = null, Func<Attribution>? diagnose = null) =>
        CheckFigure(_resolver.Get(budgetName), measured, detail, diagnose, known: null);

    // The pipeline every figure goes through once its budget is resolved and its figure measured: judge, diagnose a
    // failure, run the check's rules, then record, warn and throw in one place. A counted figure brings the versions it
    // was counted with and its own diagnosis (its growth since the recording) for when it is over the limit.
    private BudgetResult CheckFigure(Budget budget, double measured, string? detail, Func<Attribution>? diagnose, Attribution? known,
        GateRules? rules = null, RecordedVersions? countedWith = null, Func<Attribution, Attribution>? overLimit = null)
    {
        _resolver.EnsureOptimizedFor(budget);
        if (double.IsNaN(measured))
        {
            // The run ended without the figure (a percentile over no answers): not measured, and a failure wherever it
            // runs, because the run itself broke; unlike NotMeasured, where the machine lacks a tool.
            var reason = GateMessages.NoFigure(detail);
            return _recorder.RecordThenThrow(GateOutcome.Failed(budget, double.NaN, reason, attribution: null, FailureCause.NotMeasured, GateMessages.NotMeasured(budget, reason)));
        }

        var judgement = _judge.Weigh(budget, measured);
        var attribution = known ?? (diagnose is not null && (!judgement.Met || Options.DiagnoseAlways) ? _diagnosis.Run(diagnose) : null);
        if (attribution is not null && !judgement.Met)
        {
            attribution = _changes.SinceReferences(budget, overLimit is null ? attribution : overLimit(attribution));
        }

        var outcome = BudgetJudge.Outcome(budget, measured, detail, attribution, judgement);
        return _recorder.RecordThenThrow((rules ?? _figureRules).Apply(outcome, new GateFacts(budget, measured, judgement, countedWith)));
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
        NotMeasuredAll([(budgetName, reason)]);
    }

    // Records every one of several unmeasured budgets, then throws once: the failures under CI together, else the skip.
    [DoesNotReturn]
    private void NotMeasuredAll(IReadOnlyList<(string Budget, string Reason)> unmeasured)
    {
        var failures = new List<BudgetFailure>();
        var skips = new List<string>();
        foreach (var (budgetName, reason) in unmeasured)
        {
            var budget = _resolver.Get(budgetName);
            var offOnPurpose = (budget.Kind.IsCounted && Options.CountedBudgetsOff) || (budget.Kind.IsPaired && Options.PairingOff);
            var outcome = Options.IsCi && !offOnPurpose
                ? GateOutcome.Failed(budget, double.NaN, reason, attribution: null, FailureCause.NotMeasured, GateMessages.NotMeasuredUnderCi(budget, reason))
                : new GateOutcome(budget, GateOutcome.ResultOf(budget, double.NaN, BudgetVerdict.NotMeasured, reason)) { Skipped = true, Message = GateMessages.NotMeasured(budget, reason) };
            try
            {
                _recorder.RecordThenThrow(outcome);
            }
            catch (BudgetExceededException e)
            {
                failures.AddRange(e.Failures);
            }
            catch (BudgetNotMeasuredException e)
            {
                skips.Add(e.Message);
            }
        }

        if (failures.Count > 0)
        {
            throw new BudgetExceededException(failures);
        }

        throw new BudgetNotMeasuredException(string.Join(Environment.NewLine, skips));
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
        _resolver.EnsureOptimizedFor(checks.Select(c => _resolver.Get(c.BudgetName)));
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

    /// <summary>Records a figure that is reported for contrast but not gated (no budget, verdict <c>info</c>).</summary>
    public BudgetResult Observe(string name, double measured, string unit, string? detail = null)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(name);
        ArgumentException.ThrowIfNullOrWhiteSpace(unit);
        var result = new BudgetResult(name, BudgetResult.InfoKind, measured, null, unit, BudgetVerdict.Info, Book.Profile, DateTimeOffset.UtcNow, MachineInfo.Current, detail);
        _recorder.Record(result);
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
}
