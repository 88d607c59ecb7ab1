using System.Net.Sockets;

namespace SystemUnderTest.Sockets;

internal sealed partial class SaeaLoop
{
    // Receives exactly one message; it may arrive in pieces, so each receive continues where the last one stopped.
    private void ReceiveOne()
    {
        var args = _receive.Args;
        var size = _options.MessageSize;
        var received = 0;
        while (received < size)
        {
            args.SetBuffer(received, size - received);
            _receive.Completed.Reset();
            if (StartReceive(args))
            {
                WaitForCompletion(_receive, "receive");
            }

            if (args.SocketError != SocketError.Success)
            {
                throw SocketLoopException.FromSocketError("receive", _message, args.SocketError);
            }

            if (args.BytesTransferred == 0)
            {
                throw SocketLoopException.PeerClosed(_message, received, size);
            }

            received += args.BytesTransferred;
        }

        if (!MessagePattern.IsMessage(_receive.Buffer, _send.Buffer, _message))
        {
            throw new SocketLoopException($"Message {_message} arrived with the wrong bytes.");
        }
    }
}
