using System.ComponentModel.DataAnnotations;
using System.Net;

namespace SystemUnderTest.Sockets.Echo;

/// <summary>Settings of the TCP echo service (configuration section <c>EchoServer</c>).</summary>
internal sealed class EchoServerOptions : IValidatableObject
{
    /// <summary>The configuration section these settings bind to.</summary>
    public const string SectionName = "EchoServer";

    /// <summary>Whether the app starts the service; off by default, so the app serves only HTTP unless asked.</summary>
    public bool Enabled { get; set; }

    /// <summary>Address to listen on: loopback by default.</summary>
    public string Address { get; set; } = "127.0.0.1";

    /// <summary>Port to listen on; 0 picks a free one (tests).</summary>
    [Range(0, 65535)]
    public int Port { get; set; } = 5001;

    /// <summary>Largest payload a frame may carry; a longer length prefix closes the connection.</summary>
    [Range(0, 16 * 1024 * 1024)]
    public int MaxFrameBytes { get; set; } = 64 * 1024;

    /// <summary>Connections served at once; one more is accepted and closed at once.</summary>
    [Range(1, 100_000)]
    public int MaxConnections { get; set; } = 1_000;

    /// <summary>Longest wait for a peer's next bytes (idle or slow peers are dropped after it).</summary>
    public TimeSpan ReadTimeout { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>Longest wait for an echo to be taken by the peer (a peer that stops reading is dropped after it).</summary>
    public TimeSpan WriteTimeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>On shutdown, how long connections may take to finish the frames they have started.</summary>
    public TimeSpan ShutdownTimeout { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>The address and port as an endpoint.</summary>
    public IPEndPoint EndPoint => new(IPAddress.Parse(Address), Port);

    /// <summary>Throws <see cref="ArgumentException"/> naming the first bad setting.</summary>
    public void Validate()
    {
        var errors = new List<ValidationResult>();
        Validator.TryValidateObject(this, new ValidationContext(this), errors, validateAllProperties: true);
        if (errors.Count > 0)
        {
            throw new ArgumentException($"{SectionName}: {string.Join(" ", errors.Select(e => e.ErrorMessage))}");
        }
    }

    /// <inheritdoc />
    public IEnumerable<ValidationResult> Validate(ValidationContext validationContext)
    {
        if (!IPAddress.TryParse(Address, out _))
        {
            yield return new ValidationResult($"Address '{Address}' is not an IP address.", [nameof(Address)]);
        }

        foreach (var (name, value) in new[] { (nameof(ReadTimeout), ReadTimeout), (nameof(WriteTimeout), WriteTimeout), (nameof(ShutdownTimeout), ShutdownTimeout) })
        {
            if (value <= TimeSpan.Zero)
            {
                yield return new ValidationResult($"{name} must be positive, not {value}.", [name]);
            }
        }
    }
}
