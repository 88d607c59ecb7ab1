using System.Buffers;
using System.Globalization;
using System.IO.Pipelines;
using System.Text.Json;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;

namespace SystemUnderTest.Json;

/// <summary>
/// The JSON endpoints: <c>GET /api/employees?count=N</c> serializes the first N employees of the data set through
/// the pooled <see cref="BufferWriterPool"/>; <c>POST /api/employees/echo</c> reads a list of employees into a pooled
/// buffer, deserializes it, and serializes it back. Bad input answers 400 with problem details; every rented buffer
/// is returned in a <c>finally</c>, whatever happens.
/// </summary>
[ApiController]
[Route("api/employees")]
public sealed class EmployeesController(JsonStrategies strategies, IOptions<JsonPoolOptions> options) : ControllerBase
{
    private const string ApplicationJson = "application/json; charset=utf-8";
    private readonly BufferWriterPool _pool = strategies.BufferWriter.Pool;
    private readonly EmployeeJson _json = strategies.Json;
    private readonly JsonPoolOptions _options = options.Value;

    /// <summary>The first <paramref name="count"/> employees of the data set as a JSON array.</summary>
    [HttpGet]
    public async Task<IActionResult> List([FromQuery] int? count, CancellationToken cancellationToken)
    {
        if (count is not { } n || n < 1 || n > _options.MaximumListCount)
        {
            ModelState.AddModelError("count", string.Create(CultureInfo.InvariantCulture, $"count must be between 1 and {_options.MaximumListCount}."));
            return ValidationProblem();
        }

        var buffer = _pool.Rent();
        try
        {
            WriteList(buffer.JsonWriter, EmployeeData.First(n));
            await WriteResponseAsync(buffer, cancellationToken);
        }
        finally
        {
            _pool.Return(buffer);
        }

        return new EmptyResult();
    }

    /// <summary>Deserializes the request's list of employees and serializes it back.</summary>
    [HttpPost("echo")]
    public async Task<IActionResult> Echo(CancellationToken cancellationToken)
    {
        if (Request.ContentLength > _options.MaximumRequestBodyBytes)
        {
            return BodyTooLarge();
        }

        var buffer = _pool.Rent();
        try
        {
            if (!await ReadBodyAsync(Request.BodyReader, buffer, _options.MaximumRequestBodyBytes, cancellationToken))
            {
                return BodyTooLarge();
            }

            List<Employee> employees;
            try
            {
                employees = RoundTripResult.NotNull(JsonSerializer.Deserialize(buffer.WrittenSpan, _json.List.Read));
            }
            catch (JsonException e)
            {
                // The serializer's only signal for bad input; the message names the path and byte position.
                ModelState.AddModelError("body", e.Message);
                return ValidationProblem();
            }

            buffer.Clear();
            JsonSerializer.Serialize(buffer.JsonWriter, employees, _json.List.Write);
            buffer.JsonWriter.Flush();
            await WriteResponseAsync(buffer, cancellationToken);
        }
        finally
        {
            _pool.Return(buffer);
        }

        return new EmptyResult();
    }

    /// <summary>Writes the employees as one JSON array, byte-identical to serializing a <c>List&lt;Employee&gt;</c>, without building a list.</summary>
    internal void WriteList(Utf8JsonWriter writer, ReadOnlySpan<Employee> employees)
    {
        writer.WriteStartArray();
        foreach (var employee in employees)
        {
            JsonSerializer.Serialize(writer, employee, _json.Employee.Write);
        }

        writer.WriteEndArray();
        writer.Flush();
    }

    /// <summary>Copies the body into <paramref name="buffer"/>; false as soon as it exceeds <paramref name="maximumBytes"/>.</summary>
    private static async Task<bool> ReadBodyAsync(PipeReader reader, PooledBufferWriter buffer, int maximumBytes, CancellationToken cancellationToken)
    {
        while (true)
        {
            var result = await reader.ReadAsync(cancellationToken);
            var body = result.Buffer;
            if (buffer.WrittenCount + body.Length > maximumBytes)
            {
                reader.AdvanceTo(body.End);
                return false;
            }

            foreach (var segment in body)
            {
                buffer.Write(segment.Span);
            }

            reader.AdvanceTo(body.End);
            if (result.IsCompleted)
            {
                return true;
            }
        }
    }

    private async Task WriteResponseAsync(PooledBufferWriter buffer, CancellationToken cancellationToken)
    {
        Response.StatusCode = StatusCodes.Status200OK;
        Response.ContentType = ApplicationJson;
        Response.ContentLength = buffer.WrittenCount;
        await Response.Body.WriteAsync(buffer.WrittenMemory, cancellationToken);
    }

    private IActionResult BodyTooLarge()
    {
        ModelState.AddModelError("body", string.Create(CultureInfo.InvariantCulture, $"The request body exceeds {_options.MaximumRequestBodyBytes} bytes (JsonPools:MaximumRequestBodyBytes)."));
        return ValidationProblem();
    }
}
