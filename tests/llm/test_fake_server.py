"""The loopback server itself: a client that hangs up leaves no traceback in the test output."""

from __future__ import annotations

import socket
import struct

import pytest

from tests.llm.fake_server import FakeOpenAI


def test_a_client_that_hangs_up_is_handled_quietly(capfd: pytest.CaptureFixture[str]) -> None:
    with FakeOpenAI() as server:
        client = socket.create_connection(("127.0.0.1", server.port))
        client.sendall(b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n")  # headers unfinished
        # close with a reset (SO_LINGER 0), as a client dropping a connection does
        client.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        client.close()
        assert server.httpd.hung_up.wait(10)
    out, err = capfd.readouterr()
    assert "Traceback" not in err + out and "ConnectionResetError" not in err + out
