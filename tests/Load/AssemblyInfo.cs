// Load scenarios measure throughput on a shared 2-core machine: two at once would measure each other.
[assembly: CollectionBehavior(DisableTestParallelization = true)]
