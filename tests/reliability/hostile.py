"""Hostile HTTP servers on 127.0.0.1 for the reliability tests: each misbehaves in one way.

A thread runs a plain socket server; every connection reads the request (headers and body) and
then plays one `Behaviour`: never answer, SSE keep-alive comments only, a body trickled a byte
at a time, an HTML page with status 200, random bytes, JSON cut in the middle, a wrong content
type. Pacing waits on the server's `stop` event, so closing the server ends every connection at
once; the test itself never sleeps. GET /v1/models lists one model, so the client gets that far.
"""

from __future__ import annotations

import json
import random
import socket
import socketserver
import threading
from collections.abc import Callable
from typing import Any

from tests.llm.fake_server import QuietServer

Behaviour = Callable[["Conn"], None]


class Conn:
    """One accepted connection: the request read, helpers to answer."""

    def __init__(self, sock: socket.socket, stop: threading.Event) -> None:
        self.sock = sock
        self.stop = stop
        self.method = ""
        self.path = ""
        self.body: bytes = b""

    def read_request(self) -> None:
        data = b""
        while b"\r\n\r\n" not in data:
            part = self.sock.recv(65536)
            if not part:
                return
            data += part
        head, _, rest = data.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        self.method, self.path, _ = [*lines[0].split(" "), "", ""][:3]
        length = 0
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        while len(rest) < length:
            part = self.sock.recv(65536)
            if not part:
                break
            rest += part
        self.body = rest

    @property
    def streamed(self) -> bool:
        try:
            return bool(json.loads(self.body or b"{}").get("stream"))
        except ValueError:
            return False

    def send(self, data: bytes) -> bool:
        try:
            self.sock.sendall(data)
        except OSError:
            return False
        return True

    def head(self, status: int = 200, ctype: str = "application/json", length: int | None = None,
             extra: str = "") -> bool:  # fmt: skip
        reason = {200: "OK", 500: "Internal Server Error"}.get(status, "X")
        lines = [f"HTTP/1.1 {status} {reason}", f"Content-Type: {ctype}", "Connection: close"]
        if length is not None:
            lines.append(f"Content-Length: {length}")
        if extra:
            lines.append(extra)
        return self.send(("\r\n".join(lines) + "\r\n\r\n").encode())

    def whole(self, body: bytes, ctype: str, status: int = 200) -> None:
        self.head(status, ctype, len(body))
        self.send(body)

    def pace(self, seconds: float) -> bool:
        """Wait `seconds` unless the server is closing (then False)."""
        return not self.stop.wait(seconds)


# --- behaviours -----------------------------------------------------------------------------


def silent(c: Conn) -> None:
    """Accept, read the request, never answer."""
    c.stop.wait()


def keep_alive_only(c: Conn) -> None:
    """An SSE stream (or, for a plain request, a chunked body) of keep-alive comments only."""
    c.head(200, "text/event-stream")
    while c.send(b": keep-alive\n\n") and c.pace(0.05):
        pass


def empty_deltas(c: Conn) -> None:
    """An SSE stream that sends a role chunk and then empty deltas forever (no token)."""
    c.head(200, "text/event-stream")
    chunk = {"id": "x", "object": "chat.completion.chunk", "model": "m",
             "choices": [{"index": 0, "delta": {}, "finish_reason": None}]}  # fmt: skip
    while c.send(f"data: {json.dumps(chunk)}\n\n".encode()) and c.pace(0.05):
        pass


def trickle(c: Conn) -> None:
    """A valid completion (JSON or SSE as asked), one byte at a time, every 0.05 s."""
    if c.streamed:
        c.head(200, "text/event-stream")
        body = SSE_REPLY
    else:
        body = json.dumps(COMPLETION).encode()
        c.head(200, "application/json", len(body))
    for i in range(len(body)):
        if not (c.send(body[i : i + 1]) and c.pace(0.05)):
            return


def html_page(c: Conn) -> None:
    """A web page with status 200 (a base URL missing /v1 on a server with a web UI)."""
    c.whole(HTML, "text/html; charset=utf-8")


def html_as_json(c: Conn) -> None:
    """An HTML page with a JSON content type."""
    c.whole(HTML, "application/json")


def random_bytes(c: Conn) -> None:
    """4 KB of random bytes, as an octet stream."""
    c.whole(random.Random(12).randbytes(4096), "application/octet-stream")


def random_as_json(c: Conn) -> None:
    """4 KB of random bytes, claiming to be JSON."""
    c.whole(random.Random(13).randbytes(4096), "application/json")


def truncated_json(c: Conn) -> None:
    """Half a completion, then the connection is closed (Content-Length promised all of it)."""
    body = json.dumps(COMPLETION).encode()
    c.head(200, "application/json", len(body))
    c.send(body[: len(body) // 2])


def truncated_json_short(c: Conn) -> None:
    """Half a completion with a Content-Length that matches it: the JSON itself is cut."""
    body = json.dumps(COMPLETION).encode()
    c.whole(body[: len(body) // 2], "application/json")


def plain_text(c: Conn) -> None:
    """A text answer (a proxy's error page) with status 200."""
    c.whole(b"Service temporarily unavailable, try again later.\n", "text/plain")


def json_not_completion(c: Conn) -> None:
    """JSON that is not a chat completion."""
    c.whole(json.dumps({"status": "ok", "version": "1.2"}).encode(), "application/json")


def empty_body(c: Conn) -> None:
    """Status 200 with an empty body."""
    c.whole(b"", "application/json")


def html_500(c: Conn) -> None:
    """A proxy's HTML error page with status 500."""
    c.whole(HTML, "text/html", status=500)


def sse_then_html(c: Conn) -> None:
    """Status 200, content type event-stream, but the body is a web page."""
    c.whole(HTML, "text/event-stream")


COMPLETION: dict[str, Any] = {
    "id": "chatcmpl-1", "object": "chat.completion", "created": 0, "model": "m",
    "choices": [{"index": 0, "finish_reason": "stop",
                 "message": {"role": "assistant", "content": "Hello from a slow server."}}],
}  # fmt: skip
SSE_REPLY = (
    b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
    b'"delta":{"role":"assistant","content":"Hello"},"finish_reason":null}]}\n\n'
    b'data: {"id":"c","object":"chat.completion.chunk","model":"m","choices":[{"index":0,'
    b'"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
)
HTML = (
    b"<!DOCTYPE html><html><head><title>Open WebUI</title></head>"
    b"<body><h1>Welcome</h1><p>Sign in to continue.</p></body></html>"
)


class HostileServer:
    """`with HostileServer(behaviour) as s:` serves `behaviour` on `s.base_url` until closed."""

    def __init__(self, behaviour: Behaviour, models: Behaviour | None = None) -> None:
        """`models`: how GET /models is answered (default: one model, "m")."""
        self.stop = threading.Event()
        self.requests: list[tuple[str, str]] = []
        server = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                conn = Conn(self.request, server.stop)
                conn.read_request()
                server.requests.append((conn.method, conn.path))
                if conn.method == "GET" and models is not None:
                    models(conn)
                    return
                if conn.method == "GET" and conn.path.rstrip("/").endswith("/models"):
                    conn.whole(b'{"object":"list","data":[{"id":"m","object":"model"}]}',
                               "application/json")  # fmt: skip
                    return
                behaviour(conn)

        class Server(QuietServer):
            allow_reuse_address = True

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}/v1"
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def chat_posts(self) -> int:
        return sum(1 for m, p in self.requests if m == "POST")

    def __enter__(self) -> HostileServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(timeout=5)
