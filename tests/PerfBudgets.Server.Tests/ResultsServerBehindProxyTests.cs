using System.Net;
using System.Security.Cryptography;
using System.Security.Cryptography.X509Certificates;
using PerfBudgets.Server.Tokens;

namespace PerfBudgets.Server.Tests;

/// <summary>
/// A server on a team's network: https:// on Kestrel itself, or behind a reverse proxy that ends TLS (whose forwarded
/// headers are believed only from the proxies named), and a loopback server that answers no other host name.
/// </summary>
public sealed class ResultsServerBehindProxyTests
{
    private static CancellationToken Cancellation => TestContext.Current.CancellationToken;

    [Fact]
    public async Task A_loopback_server_refuses_a_request_for_another_host_name_as_dns_rebinding_would_send()
    {
        await using var server = await RunningResultsServer.StartAsync();

        using var rebound = await SendAsync(server, HttpMethod.Get, "/", request => request.Headers.Host = "attacker.example");
        using var own = await SendAsync(server, HttpMethod.Get, "/", request => request.Headers.Host = "localhost");

        rebound.StatusCode.Should().Be(HttpStatusCode.BadRequest);
        own.StatusCode.Should().Be(HttpStatusCode.OK);
    }

    [Fact]
    public async Task Behind_a_trusted_proxy_that_ends_tls_the_sign_in_passes_its_origin_check_and_its_cookie_is_secure()
    {
        await using var server = await RunningResultsServer.StartAsync(readTokenRequired: true, configure: o => o with { TrustedProxies = ["127.0.0.1"] });
        var readToken = await TokenAdministration.AddReadTokenAsync(server.Server.Storage, RunningResultsServer.Project, Cancellation);

        using var answer = await SignInThroughProxyAsync(server, readToken);

        answer.StatusCode.Should().Be(HttpStatusCode.Redirect);
        answer.Headers.GetValues("Set-Cookie").Single().Should().Contain("secure");
    }

    [Fact]
    public async Task Forwarded_headers_from_a_client_that_is_not_a_trusted_proxy_are_ignored()
    {
        await using var server = await RunningResultsServer.StartAsync(readTokenRequired: true, configure: o => o with { AllowedHosts = ["*"] });
        var readToken = await TokenAdministration.AddReadTokenAsync(server.Server.Storage, RunningResultsServer.Project, Cancellation);

        using var answer = await SignInThroughProxyAsync(server, readToken);

        answer.StatusCode.Should().Be(HttpStatusCode.Forbidden, "the request came over http to 127.0.0.1, whatever its headers claim");
        answer.Headers.Contains("Set-Cookie").Should().BeFalse();
    }

    [Fact]
    public async Task An_https_url_is_served_with_the_certificate_given()
    {
        var folder = Directory.CreateTempSubdirectory("perfbudgets-tls-").FullName;
        try
        {
            var (certificate, key) = WriteSelfSignedCertificate(folder);
            await using var server = ResultsServer.Create(new ResultsServerOptions
            {
                DatabasePath = Path.Combine(folder, "results.db"),
                Url = "https://127.0.0.1:0",
                CertificatePath = certificate,
                CertificateKeyPath = key,
            });
            await server.StartAsync(Cancellation);
            using var handler = new HttpClientHandler
            {
                // The test's own certificate, made above; nothing else is accepted.
                ServerCertificateCustomValidationCallback = (_, presented, _, _) => presented?.Subject == "CN=perfbudgets-test",
            };
            using var client = new HttpClient(handler) { BaseAddress = server.Address };

            using var answer = await client.GetAsync("/", Cancellation);

            server.Address.Scheme.Should().Be("https");
            answer.StatusCode.Should().Be(HttpStatusCode.OK);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    // A browser's sign-in to https://perf.example.com as the proxy passes it on over http to 127.0.0.1.
    private static Task<HttpResponseMessage> SignInThroughProxyAsync(RunningResultsServer server, string token) =>
        SendAsync(server, HttpMethod.Post, $"/projects/{RunningResultsServer.Project}/sign-in", request =>
        {
            request.Content = new FormUrlEncodedContent([new("token", token), new("return", $"/projects/{RunningResultsServer.Project}")]);
            request.Headers.Add("Origin", "https://perf.example.com");
            request.Headers.Add("X-Forwarded-Proto", "https");
            request.Headers.Add("X-Forwarded-Host", "perf.example.com");
            request.Headers.Add("X-Forwarded-For", "203.0.113.7");
        });

    private static async Task<HttpResponseMessage> SendAsync(RunningResultsServer server, HttpMethod method, string path, Action<HttpRequestMessage> shape)
    {
        using var client = new HttpClient(new HttpClientHandler { AllowAutoRedirect = false, UseCookies = false }) { BaseAddress = server.Http.BaseAddress };
        using var request = new HttpRequestMessage(method, path);
        shape(request);
        return await client.SendAsync(request, Cancellation);
    }

    private static (string Certificate, string Key) WriteSelfSignedCertificate(string folder)
    {
        using var rsa = RSA.Create(2048);
        var request = new CertificateRequest("CN=perfbudgets-test", rsa, HashAlgorithmName.SHA256, RSASignaturePadding.Pkcs1);
        var names = new SubjectAlternativeNameBuilder();
        names.AddIpAddress(IPAddress.Loopback);
        request.CertificateExtensions.Add(names.Build());
        using var certificate = request.CreateSelfSigned(DateTimeOffset.UtcNow.AddMinutes(-5), DateTimeOffset.UtcNow.AddDays(1));
        var certificatePath = Path.Combine(folder, "server.crt");
        var keyPath = Path.Combine(folder, "server.key");
        File.WriteAllText(certificatePath, certificate.ExportCertificatePem());
        File.WriteAllText(keyPath, rsa.ExportPkcs8PrivateKeyPem());
        return (certificatePath, keyPath);
    }
}
