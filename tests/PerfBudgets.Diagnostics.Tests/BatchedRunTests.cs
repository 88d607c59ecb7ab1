using PerfBudgets.Diagnostics;

namespace PerfBudgets.Diagnostics.Tests;

// Two builds profiled side by side take turns: the same operations each, and each first in every other turn, so that a
// neighbour taking the core, or a core warmed by the other, meets both alike.
public sealed class BatchedRunTests
{
    [Fact]
    public void Taking_turns_runs_the_same_operations_on_both_sides_each_first_in_every_other_turn()
    {
        var turns = new List<(char Side, int Count)>();

        var operations = BatchedRun.TakingTurns(TimeSpan.FromMilliseconds(200), n => turns.Add(('a', n)), n => turns.Add(('b', n)));

        turns.Where(t => t.Side == 'a').Sum(t => (long)t.Count).Should().Be(operations);
        turns.Where(t => t.Side == 'b').Sum(t => (long)t.Count).Should().Be(operations);
        turns.Count.Should().BeGreaterThanOrEqualTo(4, "200 ms of empty operations is many turns");
        var pairs = turns.Chunk(2).ToList();
        pairs.Should().AllSatisfy(p => p[0].Count.Should().Be(p[1].Count, "both sides run the same batch in a turn"));
        pairs.Select(p => p[0].Side).Should().Equal(pairs.Select((_, i) => i % 2 == 0 ? 'a' : 'b'), "the sides go first in turn");
    }
}
