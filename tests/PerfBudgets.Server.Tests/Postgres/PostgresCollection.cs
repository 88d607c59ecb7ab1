namespace PerfBudgets.Server.Tests.Postgres;

/// <summary>The server's tests on PostgreSQL share one throw-away cluster, started once for all of them.</summary>
[CollectionDefinition(Name)]
public sealed class PostgresCollection : ICollectionFixture<PostgresCluster>
{
    public const string Name = "PostgreSQL cluster";
}
