using System.Net.Sockets;

namespace SystemUnderTest.Sockets;

internal sealed partial class SaeaLoop
{
    // Sends the whole message; a send may be partial, so it continues from where the last one stopped.
    private void SendOne()
    {
        var args = _send.Args;
        MessagePattern.Stamp(_send.Buffer, _message);
        var sent = 0;
        while (sent < _options.MessageSize)
        {
            args.SetBuffer(sent, _options.MessageSize - sent);
            _send.Completed.Reset();
            if (StartSend(args))
            {
                WaitForCompletion(_send, "send");
            }

            if (args.SocketError != SocketError.Success)
            {
                throw SocketLoopException.FromSocketError("send", _message, args.SocketError);
            }

            sent += args.BytesTransferred;
        }
    }
}
