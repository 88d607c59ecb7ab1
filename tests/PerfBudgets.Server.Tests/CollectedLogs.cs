using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;

namespace PerfBudgets.Server.Tests;

/// <summary>A log provider that keeps each entry's category, message and exception, for a test to read.</summary>
internal sealed class CollectedLogs : ILoggerProvider
{
    public ConcurrentQueue<(string Category, LogLevel Level, string Message, Exception? Exception)> Entries { get; } = new();

    public ILogger CreateLogger(string categoryName) => new Logger(this, categoryName);

    public void Dispose()
    {
    }

    private sealed class Logger(CollectedLogs logs, string category) : ILogger
    {
        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
            logs.Entries.Enqueue((category, logLevel, formatter(state, exception), exception));
    }
}
