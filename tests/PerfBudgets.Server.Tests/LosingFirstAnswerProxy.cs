using System.Net;
using System.Net.Sockets;
using System.Text;

namespace PerfBudgets.Server.Tests;

/// <summary>
/// A TCP proxy in front of a server on 127.0.0.1 that loses the first answer: the first connection's request reaches
/// the server and is answered, but the client's connection is reset instead of getting the answer (after its
/// <c>100 Continue</c>), as a dropped connection loses it; later connections pass both ways.
/// </summary>
internal sealed class LosingFirstAnswerProxy : IAsyncDisposable
{
    private readonly TcpListener _listener = new(IPAddress.Loopback, 0);
    private readonly Uri _server;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _accepting;
    private int _connections;

    public LosingFirstAnswerProxy(Uri server)
    {
        _server = server;
        _listener.Start();
        _accepting = AcceptAsync();
    }

    /// <summary>The proxy's address, to give the client in place of the server's.</summary>
    public Uri Address => new($"http://127.0.0.1:{((IPEndPoint)_listener.LocalEndpoint).Port}/");

    /// <summary>The connections the client made.</summary>
    public int Connections => Volatile.Read(ref _connections);

    public async ValueTask DisposeAsync()
    {
        await _stop.CancelAsync();
        _listener.Stop();
        await _accepting;
        _stop.Dispose();
    }

    private async Task AcceptAsync()
    {
        var connections = new List<Task>();
        try
        {
            while (true)
            {
                var client = await _listener.AcceptTcpClientAsync(_stop.Token);
                connections.Add(PassAsync(client, first: Interlocked.Increment(ref _connections) == 1));
            }
        }
        catch (Exception e) when (IsConnectionEnd(e))
        {
        }

        await Task.WhenAll(connections);
    }

    private async Task PassAsync(TcpClient client, bool first)
    {
        using (client)
        using (var server = new TcpClient())
        {
            try
            {
                await server.ConnectAsync(_server.Host, _server.Port, _stop.Token);
                var request = QuietlyAsync(client.GetStream().CopyToAsync(server.GetStream(), _stop.Token));
                if (first)
                {
                    // The server has stored the run once it answers; its answer is read and dropped.
                    await PassInterimAnswersAsync(server.GetStream(), client.GetStream());
                    client.Client.LingerState = new LingerOption(true, 0);
                    client.Client.Close();
                    await request;
                    return;
                }

                var answer = QuietlyAsync(server.GetStream().CopyToAsync(client.GetStream(), _stop.Token));
                await Task.WhenAny(request, answer);
                client.Client.Close();
                server.Client.Close();
                await Task.WhenAll(request, answer);
            }
            catch (Exception e) when (IsConnectionEnd(e))
            {
            }
        }
    }

    // Passes the interim answers (HTTP/1.1 100 Continue: the client sends its body only after it) and returns at the
    // final answer's first bytes, unread by the client.
    private async Task PassInterimAnswersAsync(Stream server, Stream client)
    {
        var pending = new List<byte>();
        var buffer = new byte[4096];
        while (true)
        {
            var text = Encoding.ASCII.GetString(pending.ToArray());
            var end = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
            if (text.StartsWith("HTTP/1.1 1", StringComparison.Ordinal) && end >= 0)
            {
                await client.WriteAsync(pending.Take(end + 4).ToArray(), _stop.Token);
                pending.RemoveRange(0, end + 4);
                continue;
            }

            if (pending.Count >= "HTTP/1.1 1".Length && !text.StartsWith("HTTP/1.1 1", StringComparison.Ordinal))
            {
                return;
            }

            var read = await server.ReadAsync(buffer, _stop.Token);
            if (read == 0)
            {
                return;
            }

            pending.AddRange(buffer.Take(read));
        }
    }

    // A copy between the two ends stops when either end goes; that is its end, not a failure of the test.
    private static async Task QuietlyAsync(Task copy)
    {
        try
        {
            await copy;
        }
        catch (Exception e) when (IsConnectionEnd(e))
        {
        }
    }

    private static bool IsConnectionEnd(Exception e) => e is OperationCanceledException or IOException or SocketException or ObjectDisposedException;
}
