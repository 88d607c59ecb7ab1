namespace PerfGate.Tests.Cpu;

/// <summary>
/// Drives a server from several blocking clients at once, one dedicated thread each, so the server is never idle
/// during a batch. A server that idles between requests pays a thread wake-up per request, whose CPU cost depends on
/// the machine's load more than on the server's code; kept busy, its CPU per request is its work per request.
/// </summary>
/// <typeparam name="TClient">A client holding one connection (a keep-alive probe, an echo client).</typeparam>
public sealed class ConcurrentClients<TClient> : IDisposable
    where TClient : IDisposable
{
    private readonly TClient[] _clients;
    private readonly Action<TClient> _send;

    /// <summary>Opens <paramref name="connections"/> clients with <paramref name="connect"/>; <paramref name="send"/> makes one checked request.</summary>
    public ConcurrentClients(int connections, Func<TClient> connect, Action<TClient> send)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(connections);
        ArgumentNullException.ThrowIfNull(connect);
        _send = send ?? throw new ArgumentNullException(nameof(send));
        _clients = Enumerable.Range(0, connections).Select(_ => connect()).ToArray();
    }

    /// <summary>The clients (to check the last response of each).</summary>
    public IReadOnlyList<TClient> Clients => _clients;

    /// <summary>Sends <paramref name="requests"/> requests spread over the clients and returns when every one is answered.</summary>
    public void Send(int requests)
    {
        var threads = new Thread[_clients.Length];
        Exception? failure = null;
        for (var c = 0; c < _clients.Length; c++)
        {
            var client = _clients[c];
            var share = (requests / _clients.Length) + (c < requests % _clients.Length ? 1 : 0);
            threads[c] = new Thread(() =>
            {
                try
                {
                    for (var i = 0; i < share; i++)
                    {
                        _send(client);
                    }
                }
                catch (Exception e)
                {
                    Interlocked.CompareExchange(ref failure, e, null);
                }
            }) { IsBackground = true };
            threads[c].Start();
        }

        foreach (var thread in threads)
        {
            thread.Join();
        }

        if (failure != null)
        {
            throw new InvalidOperationException($"A client failed: {failure.Message}", failure);
        }
    }

    /// <inheritdoc />
    public void Dispose()
    {
        foreach (var client in _clients)
        {
            client.Dispose();
        }
    }
}
