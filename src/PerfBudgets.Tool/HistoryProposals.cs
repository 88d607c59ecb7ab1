using PerfBudgets.Budgets;
using PerfBudgets.Reporting;
using PerfBudgets.Tool.Proposals;

namespace PerfBudgets.Tool;

/// <summary>
/// Groups <c>history.jsonl</c> by budget and asks <see cref="LimitPolicy"/> for each budget's limit.
/// </summary>
/// <remarks>
/// Only runs in the book's profile count (each profile has its own limits), and only measured figures: a line whose
/// verdict is info or not-measured, or whose figure is NaN, is skipped, as is a line of another kind than the budget
/// has now. A run that measured a budget more than once (a wall-clock budget repeated on a busy machine) counts with
/// its last figure, the one its verdict stands on.
/// </remarks>
internal static class HistoryProposals
{
    /// <summary>One proposal per budget of <paramref name="book"/> with a usable run, in the book's order.</summary>
    public static IReadOnlyList<LimitProposal> From(BudgetBook book, IEnumerable<HistoryEntry> history)
    {
        ArgumentNullException.ThrowIfNull(book);
        ArgumentNullException.ThrowIfNull(history);
        var runsByBudget = history
            .Where(e => e.Profile == book.Profile && e.Verdict is not (BudgetVerdict.Info or BudgetVerdict.NotMeasured) && !double.IsNaN(e.Measured))
            .GroupBy(e => e.Budget, StringComparer.Ordinal)
            .ToDictionary(g => g.Key, g => g.ToList(), StringComparer.Ordinal);
        var proposals = new List<LimitProposal>();
        foreach (var budget in book.Budgets)
        {
            var runs = runsByBudget.GetValueOrDefault(budget.Name) is { } entries
                ? HistoryEntry.LastPerRun(entries.Where(e => e.Kind == budget.Kind.Name)).Select(e => e.Measured).ToList()
                : null;
            if (runs is { Count: > 0 })
            {
                proposals.Add(LimitPolicy.Propose(budget, runs));
            }
        }

        return proposals;
    }
}
