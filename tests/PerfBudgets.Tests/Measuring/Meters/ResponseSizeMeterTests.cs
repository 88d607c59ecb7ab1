using System.Net;
using System.Net.Sockets;
using System.Text;
using PerfBudgets.Measuring;

namespace PerfBudgets.Tests.Measuring;

/// <summary>
/// <see cref="ResponseSizeMeter"/> against a one-shot server that answers fixed bytes: what it sends is what the
/// meter must count, head and body apart, for each way HTTP/1.1 delimits a body.
/// </summary>
public sealed class ResponseSizeMeterTests
{
    private const string Head = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nDate: Fri, 27 Nov 2026 11:11:19 GMT\r\n";

    [Fact]
    public async Task A_Content_Length_body_is_counted_apart_from_the_head_line_by_line()
    {
        var (size, request) = await ServeAsync(Head + "Content-Length: 5\r\n\r\nhello", r => new HttpRequestMessage(HttpMethod.Get, r));

        size.StatusCode.Should().Be(200);
        size.HeaderBytes.Should().Be(Head.Length + "Content-Length: 5\r\n\r\n".Length);
        size.BodyBytes.Should().Be(5);
        size.ContentBytes.Should().Be(5);
        size.HeaderNames.Should().Equal("Content-Type", "Date", "Content-Length");
        size.Headers.Select(h => h.Bytes).Should().Equal(26, 37, 19);
        size.ToString().Should().Be("status 200, head 101 B = status line 17 B + Content-Type 26 B + Date 37 B + Content-Length 19 B + end 2 B; body 5 B");
        request.Should().StartWith("GET /items?count=9 HTTP/1.1\r\nHost: 127.0.0.1:").And.EndWith("\r\n\r\n").And.NotContain("Connection");
    }

    [Fact]
    public async Task A_chunked_body_counts_its_framing_on_the_wire_and_its_content_apart()
    {
        const string Chunked = "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7;ext=1\r\n, world\r\n0\r\nTrailer: x\r\n\r\n";
        var (size, _) = await ServeAsync(Head + Chunked, r => new HttpRequestMessage(HttpMethod.Get, r));

        size.HeaderBytes.Should().Be(Head.Length + "Transfer-Encoding: chunked\r\n\r\n".Length);
        size.BodyBytes.Should().Be(Chunked.Length - "Transfer-Encoding: chunked\r\n\r\n".Length);
        size.ContentBytes.Should().Be(12);
    }

    [Fact]
    public async Task A_body_without_length_runs_to_the_close_and_a_204_has_none()
    {
        var (toClose, _) = await ServeAsync(Head + "\r\n" + new string('x', 10_000), r => new HttpRequestMessage(HttpMethod.Get, r));
        toClose.BodyBytes.Should().Be(10_000);

        var (noContent, _) = await ServeAsync("HTTP/1.1 204 No Content\r\n\r\n", r => new HttpRequestMessage(HttpMethod.Get, r));
        noContent.Should().Match<ResponseSize>(s => s.StatusCode == 204 && s.HeaderBytes == 27 && s.BodyBytes == 0);
    }

    [Fact]
    public async Task A_request_with_content_is_sent_with_its_headers_and_length()
    {
        var (_, request) = await ServeAsync(Head + "Content-Length: 0\r\n\r\n", r => new HttpRequestMessage(HttpMethod.Post, r)
        {
            Content = new StringContent("[1,2]", Encoding.UTF8, "application/json"),
        });

        request.Should().Contain("POST /items?count=9 HTTP/1.1\r\n").And.Contain("Content-Type: application/json; charset=utf-8\r\n")
            .And.EndWith("Content-Length: 5\r\n\r\n[1,2]");
    }

    [Fact]
    public async Task A_truncated_or_malformed_response_fails_naming_what_was_wrong()
    {
        var truncated = () => ServeAsync(Head + "Content-Length: 50\r\n\r\nhello", r => new HttpRequestMessage(HttpMethod.Get, r));
        (await truncated.Should().ThrowAsync<IOException>()).WithMessage("*45 bytes before the end of the body*");

        var malformed = () => ServeAsync("HTTP/1.1 OK\r\n\r\n", r => new HttpRequestMessage(HttpMethod.Get, r));
        (await malformed.Should().ThrowAsync<InvalidDataException>()).WithMessage("Malformed status line 'HTTP/1.1 OK'.");

        var https = () => ResponseSizeMeter.MeasureAsync(new Uri("https://127.0.0.1/"), CancellationToken.None);
        await https.Should().ThrowAsync<ArgumentException>();
    }

    // Listens on 127.0.0.1, reads one request (head and its Content-Length body), answers the bytes given and closes.
    private static async Task<(ResponseSize Size, string Request)> ServeAsync(string response, Func<Uri, HttpRequestMessage> request)
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        var uri = new Uri($"http://127.0.0.1:{((IPEndPoint)listener.LocalEndpoint).Port}/items?count=9");
        using var timeout = new CancellationTokenSource(TimeSpan.FromSeconds(10));
        var server = Task.Run(async () =>
        {
            using var client = await listener.AcceptSocketAsync(timeout.Token);
            var received = new StringBuilder();
            var buffer = new byte[4096];
            while (!IsComplete(received.ToString()))
            {
                var n = await client.ReceiveAsync(buffer, SocketFlags.None, timeout.Token);
                received.Append(Encoding.Latin1.GetString(buffer, 0, n));
            }

            await client.SendAsync(Encoding.Latin1.GetBytes(response), SocketFlags.None, timeout.Token);
            client.Shutdown(SocketShutdown.Both);
            return received.ToString();
        });
        using var message = request(uri);
        try
        {
            var size = await ResponseSizeMeter.MeasureAsync(message, timeout.Token);
            return (size, await server);
        }
        finally
        {
            await server.ContinueWith(_ => { }, TaskScheduler.Default);
        }
    }

    private static bool IsComplete(string request)
    {
        var end = request.IndexOf("\r\n\r\n", StringComparison.Ordinal);
        if (end < 0)
        {
            return false;
        }

        var length = request.Split("\r\n").FirstOrDefault(l => l.StartsWith("Content-Length: ", StringComparison.Ordinal));
        return request.Length - end - 4 >= (length is null ? 0 : int.Parse(length["Content-Length: ".Length..], System.Globalization.CultureInfo.InvariantCulture));
    }
}
