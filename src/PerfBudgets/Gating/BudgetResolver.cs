using PerfBudgets.Budgets;
using PerfBudgets.Measuring;

namespace PerfBudgets.Gating;

/// <summary>
/// The first step of every check: the budget a name stands for, refused when the check does not take its kind, and the
/// build refused when it is not optimized and the kind's figure depends on code generation.
/// </summary>
internal sealed class BudgetResolver(BudgetBook book, bool requireOptimizedBuild)
{
    /// <summary>The budget called <paramref name="budgetName"/>, of any kind.</summary>
    public Budget Get(string budgetName) => book.Get(budgetName);

    /// <summary>A counted budget that <c>CheckCount</c> takes: instructions, system calls or cycles.</summary>
    public Budget Counted(string budgetName)
    {
        var budget = book.Get(budgetName);
        return budget.Kind.IsCounted && budget.Kind != BudgetKind.GrowthExponentMax
            ? budget
            : throw new BudgetFileException($"{book.FilePath}: budget '{budgetName}' is a {budget.Kind} budget; CheckCount takes {BudgetKind.InstructionsMax}, {BudgetKind.SyscallsMax} or {BudgetKind.CyclesMax}.");
    }

    /// <summary>A <c>growth-exponent-max</c> budget, which <c>CheckGrowth</c> takes.</summary>
    public Budget Growth(string budgetName)
    {
        var budget = book.Get(budgetName);
        return budget.Kind == BudgetKind.GrowthExponentMax
            ? budget
            : throw new BudgetFileException($"{book.FilePath}: budget '{budgetName}' is a {budget.Kind} budget; CheckGrowth takes {BudgetKind.GrowthExponentMax}.");
    }

    /// <summary>A paired budget (head against base); another kind is the caller's mistake, not the file's.</summary>
    public Budget Paired(string budgetName)
    {
        var budget = book.Get(budgetName);
        return budget.Kind.IsPaired
            ? budget
            : throw new ArgumentException($"{budget.Name} is a {budget.Kind} budget: a paired check gates {BudgetKind.VsBaseRatioMax} and {BudgetKind.VsBaseRatioMin}.", nameof(budgetName));
    }

    /// <summary>Throws <see cref="NonOptimizedBuildException"/> on a Debug build when <paramref name="budget"/>'s figure depends on it.</summary>
    public void EnsureOptimizedFor(Budget budget) => EnsureOptimizedFor([budget]);

    /// <summary>As <see cref="EnsureOptimizedFor(Budget)"/>, for the first of <paramref name="budgets"/> that depends on it.</summary>
    public void EnsureOptimizedFor(IEnumerable<Budget> budgets)
    {
        if (requireOptimizedBuild && budgets.Any(b => b.Kind.DependsOnCodeGeneration))
        {
            BuildOptimization.EnsureOptimized();
        }
    }
}
