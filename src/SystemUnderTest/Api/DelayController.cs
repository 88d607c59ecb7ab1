using System.ComponentModel.DataAnnotations;
using System.Globalization;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace SystemUnderTest.Api;

/// <summary>
/// The async-versus-blocking scenario: both actions wait <c>ms</c> milliseconds and answer <c>Hello World,ms</c>.
/// The async one releases its thread while it waits; the blocking one holds a thread-pool thread for the whole
/// wait, so under many concurrent requests the pool starves and throughput collapses.
/// </summary>
[ApiController]
[Route("api/delay")]
public sealed class DelayController(IOptions<DelayApiOptions> options) : ControllerBase
{
    private const string TextPlain = "text/plain";

    /// <summary>Awaits <see cref="Task.Delay(int, CancellationToken)"/>.</summary>
    [HttpGet("async")]
    public async Task<IActionResult> DelayAsync([FromQuery, Required] int? ms, CancellationToken cancellationToken)
    {
        if (!IsValid(ms))
        {
            return ValidationProblem();
        }

        await Task.Delay(ms!.Value, cancellationToken);
        return Greeting(ms.Value);
    }

    /// <summary>Blocks the request's thread with <see cref="Thread.Sleep(int)"/>, on purpose.</summary>
    [HttpGet("blocking")]
    public IActionResult DelayBlocking([FromQuery, Required] int? ms)
    {
        if (!IsValid(ms))
        {
            return ValidationProblem();
        }

        Thread.Sleep(ms!.Value);
        return Greeting(ms.Value);
    }

    private bool IsValid(int? ms)
    {
        var max = options.Value.MaxDelayMilliseconds;
        if (ms is { } value && value >= 0 && value <= max)
        {
            return true;
        }

        ModelState.AddModelError("ms", string.Create(CultureInfo.InvariantCulture, $"ms must be between 0 and {max} milliseconds."));
        return false;
    }

    private ContentResult Greeting(int ms) =>
        Content(string.Create(CultureInfo.InvariantCulture, $"Hello World,{ms}"), TextPlain);
}
