namespace PerfBudgets.Server.Changes;

/// <summary>
/// The change-point searches with a reader's own settings that readers without a token may have running at once
/// (<see cref="ResultsServerOptions.MaxAnonymousComputations"/>). No queue: a reader who finds them all taken is
/// answered 429 at once rather than holding one of the server's read slots while it waits. Eight anonymous clients
/// asking with a new <c>minShift</c> each time took a team's <c>/budgets</c> read from 5 ms to a median of 4.8 s before:
/// each question was a search of every timed budget, and they held every read slot and both cores.
/// </summary>
internal sealed class AnonymousComputations(int capacity)
{
    private int _running;

    /// <summary>A slot, given back when disposed; null when all are taken.</summary>
    public IDisposable? TryEnter()
    {
        if (Interlocked.Increment(ref _running) > capacity)
        {
            Interlocked.Decrement(ref _running);
            return null;
        }

        return new Slot(this);
    }

    private sealed class Slot(AnonymousComputations owner) : IDisposable
    {
        private int _disposed;

        public void Dispose()
        {
            if (Interlocked.Exchange(ref _disposed, 1) == 0)
            {
                Interlocked.Decrement(ref owner._running);
            }
        }
    }
}
