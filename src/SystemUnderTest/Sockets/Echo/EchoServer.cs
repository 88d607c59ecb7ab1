using System.Net;
using System.Net.Sockets;
using Microsoft.Extensions.Logging;

namespace SystemUnderTest.Sockets.Echo;

/// <summary>
/// A TCP echo service speaking length-prefixed frames (<see cref="EchoFrame"/>): each connection gets every frame
/// back as it sent it. A peer that breaks the protocol, resets, stalls or stops reading loses its own connection
/// only, with a log line saying why; <see cref="StopAsync"/> stops accepting, lets connections finish the frame they
/// are in, then closes them.
/// </summary>
internal sealed partial class EchoServer : IAsyncDisposable
{
    private readonly EchoServerOptions _options;
    private readonly ILogger _logger;
    private readonly Socket _listener;
    private readonly Dictionary<EchoConnection, Task> _connections = [];
#if NET9_0_OR_GREATER
    private readonly Lock _gate = new();
#else
    // System.Threading.Lock is new in .NET 9; `lock` on a plain object is the same monitor it replaced.
    private readonly object _gate = new();
#endif
    private Task _acceptLoop = Task.CompletedTask;
    private bool _stopping;

    /// <summary>Creates the service; <see cref="Start"/> binds and listens.</summary>
    /// <exception cref="ArgumentException">A setting is out of range.</exception>
    public EchoServer(EchoServerOptions options, ILogger<EchoServer> logger)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(logger);
        options.Validate();
        _options = options;
        _logger = logger;
        _listener = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp);
    }

    /// <summary>What the service has done so far.</summary>
    public EchoCounters Counters { get; } = new();

    /// <summary>The bound endpoint (the real port when the settings asked for port 0).</summary>
    public IPEndPoint EndPoint => (IPEndPoint)(_listener.LocalEndPoint ?? throw new InvalidOperationException("The echo service has not started."));

    /// <summary>Binds, listens and starts accepting.</summary>
    public void Start()
    {
        _listener.Bind(_options.EndPoint);
        _listener.Listen(512);
        _acceptLoop = AcceptLoopAsync();
        LogStarted(_logger, EndPoint, _options.MaxFrameBytes, _options.MaxConnections);
    }

    /// <summary>
    /// Stops accepting, asks every connection to close at its next frame boundary, waits up to
    /// <see cref="EchoServerOptions.ShutdownTimeout"/> (or until <paramref name="cancellationToken"/>), then aborts the rest.
    /// </summary>
    public async Task StopAsync(CancellationToken cancellationToken = default)
    {
        Task[] running;
        lock (_gate)
        {
            if (_stopping)
            {
                return;
            }

            _stopping = true;
            foreach (var connection in _connections.Keys)
            {
                connection.RequestStop();
            }

            running = [.. _connections.Values];
        }

        _listener.Dispose();
        await _acceptLoop;
        try
        {
            await Task.WhenAll(running).WaitAsync(_options.ShutdownTimeout, cancellationToken);
        }
        catch (Exception e) when (e is TimeoutException or OperationCanceledException)
        {
            EchoConnection[] left;
            lock (_gate)
            {
                left = [.. _connections.Keys];
            }

            LogAborting(_logger, left.Length, _options.ShutdownTimeout);
            foreach (var connection in left)
            {
                connection.Abort();
            }

            await Task.WhenAll(running);
        }

        LogStopped(_logger, Counters.Accepted, Counters.FramesEchoed);
    }

    /// <inheritdoc />
    public async ValueTask DisposeAsync() => await StopAsync();

    private async Task AcceptLoopAsync()
    {
        while (true)
        {
            Socket socket;
            try
            {
                socket = await _listener.AcceptAsync();
            }
            catch (Exception e) when (e is ObjectDisposedException or SocketException { SocketErrorCode: SocketError.OperationAborted or SocketError.Interrupted })
            {
                return;
            }
            catch (SocketException e)
            {
                // A connection that failed between the handshake and accept; the listener is fine.
                LogAcceptFailed(_logger, e.SocketErrorCode, e);
                continue;
            }

            socket.NoDelay = true;
            lock (_gate)
            {
                if (_stopping || Counters.OpenConnections >= _options.MaxConnections)
                {
                    Counters.Reject();
                    LogRejected(_logger, socket.RemoteEndPoint, _options.MaxConnections);
                    socket.Dispose();
                    continue;
                }

                Counters.Opened();
                var connection = new EchoConnection(socket, _options, Counters, OnClosed);
                _connections[connection] = Task.Run(connection.RunAsync);
            }
        }
    }

    private void OnClosed(EchoConnection connection, EchoCloseReason reason, Exception? error)
    {
        // Logged before it is counted: whoever sees the counter move can rely on the log line being there.
        if (reason is EchoCloseReason.PeerClosed or EchoCloseReason.ServerStopping)
        {
            LogClosed(_logger, connection.RemoteEndPoint, reason);
        }
        else
        {
            LogDropped(_logger, connection.RemoteEndPoint, reason, error?.Message);
        }

        lock (_gate)
        {
            _connections.Remove(connection);
            Counters.Close(reason);
        }
    }

    [LoggerMessage(Level = LogLevel.Information, Message = "Echo service listening on {EndPoint} (frames up to {MaxFrameBytes} B, {MaxConnections} connections)")]
    private static partial void LogStarted(ILogger logger, IPEndPoint endPoint, int maxFrameBytes, int maxConnections);

    [LoggerMessage(Level = LogLevel.Information, Message = "Echo service stopped after {Accepted} connections and {Frames} frames")]
    private static partial void LogStopped(ILogger logger, long accepted, long frames);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Echo service shutdown: aborting {Count} connections still open after {Timeout}")]
    private static partial void LogAborting(ILogger logger, int count, TimeSpan timeout);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Echo service rejected {RemoteEndPoint}: {MaxConnections} connections open")]
    private static partial void LogRejected(ILogger logger, EndPoint? remoteEndPoint, int maxConnections);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Echo service accept failed: {SocketError}")]
    private static partial void LogAcceptFailed(ILogger logger, SocketError socketError, Exception exception);

    [LoggerMessage(Level = LogLevel.Debug, Message = "Echo connection {RemoteEndPoint} closed: {Reason}")]
    private static partial void LogClosed(ILogger logger, EndPoint? remoteEndPoint, EchoCloseReason reason);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Echo connection {RemoteEndPoint} dropped: {Reason} ({Detail})")]
    private static partial void LogDropped(ILogger logger, EndPoint? remoteEndPoint, EchoCloseReason reason, string? detail);
}
