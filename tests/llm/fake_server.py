"""A real OpenAI-compatible HTTP server on 127.0.0.1 that plays scripted replies.

Each POST /v1/chat/completions takes the next `Reply` from the script. A `Reply` is either a chat
message (rendered as one JSON body or as SSE chunks, whichever the request asked for), raw SSE
chunks (for dialect quirks inside streams), a raw JSON body with a status (errors), a delay, or a
dropped connection. Every request is recorded (path, headers, JSON body) so tests can assert what
the client sent. GET /v1/models lists `models`.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """One scripted answer."""

    message: dict[str, Any] | None = None
    """Assistant message (rendered per the request's `stream` flag)."""
    usage: dict[str, Any] | None = None
    finish_reason: str = "stop"
    body: dict[str, Any] | None = None
    """Raw JSON body (used as is, with `status`)."""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    chunks: list[dict[str, Any] | str] | None = None
    """Raw SSE events: dicts become `data: {json}`, strings are written verbatim."""
    delay_s: float = 0.0
    drop: bool = False
    """Close the connection without answering."""
    done: bool = True
    """Send `data: [DONE]` after the chunks."""
    content_pieces: int = 3
    """How many SSE chunks a streamed `message` content is split into."""
    chunk_delay_s: float = 0.0
    """Pause before each SSE chunk after the first (a model writing at a given pace)."""
    hold: threading.Event | None = None
    """When given, the stream stops before its last chunk until this event is set."""
    echo_key: bool = False
    """Replace `ECHO_KEY` in `message`, `body` and `chunks` with the bearer token the request
    carried: a server that echoes the client's key (the leak tests)."""


ECHO_KEY = "{echo-the-key}"
"""Placeholder a `Reply(echo_key=True)` fills with the key it received."""


def echoed(reply: Reply, authorization: str) -> Reply:
    """`reply` with `ECHO_KEY` replaced by the token of an `Authorization: Bearer …` header."""
    token = authorization.split(None, 1)[1] if " " in authorization else authorization
    fill = json.dumps(token)[1:-1]  # the key as it appears inside a JSON string

    def swap(value: Any) -> Any:
        return None if value is None else json.loads(json.dumps(value).replace(ECHO_KEY, fill))

    return dataclasses.replace(
        reply, message=swap(reply.message), body=swap(reply.body), chunks=swap(reply.chunks)
    )


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    """Header names in lower case."""
    body: dict[str, Any]
    t: float


def tool_call(name: str, args: Any, call_id: Any = "call_1", **extra: Any) -> dict[str, Any]:
    """A native tool call entry; `args` as given (a dict becomes a JSON string)."""
    arguments = json.dumps(args) if isinstance(args, dict) else args
    entry: dict[str, Any] = {"type": "function", "function": {"name": name, "arguments": arguments}}
    if call_id is not None:
        entry["id"] = call_id
    entry.update(extra)
    return entry


def _split(text: str, parts: int = 3) -> list[str]:
    step = max(1, len(text) // parts)
    return [text[i : i + step] for i in range(0, len(text), step)] or [""]


def stream_chunks(reply: Reply, include_usage: bool) -> list[dict[str, Any] | str]:
    """OpenAI-style SSE chunks of `reply.message`: role first, content and arguments in pieces."""
    msg = reply.message or {}
    base = {"id": "chatcmpl-1", "object": "chat.completion.chunk", "model": "fake"}

    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {**base, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}

    out: list[dict[str, Any] | str] = [chunk({"role": "assistant", "content": None})]
    for key in ("reasoning", "reasoning_content"):
        if msg.get(key):
            out += [chunk({key: piece}) for piece in _split(msg[key])]
    if msg.get("content"):
        out += [chunk({"content": p}) for p in _split(msg["content"], reply.content_pieces)]
    for i, tc in enumerate(msg.get("tool_calls") or []):
        fn = tc["function"]
        first = {"index": i, "id": tc.get("id"), "type": "function"}
        out.append(
            chunk({"tool_calls": [{**first, "function": {"name": fn["name"], "arguments": ""}}]})
        )
        for piece in _split(fn.get("arguments") or ""):
            out.append(chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]}))
    out.append(chunk({}, reply.finish_reason))
    if include_usage and reply.usage:
        out.append({**base, "choices": [], "usage": reply.usage})
    return out


class QuietServer(ThreadingHTTPServer):
    """A threading server on which a client that hangs up (a reset or closed connection: the
    app cancelling a request, httpx dropping a pooled connection) ends its request thread
    quietly; socketserver would print a traceback to stderr for each one, burying real output.
    Other errors are still printed."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int], handler: type) -> None:
        super().__init__(address, handler)
        self.hung_up = threading.Event()
        """Set when a client hung up on a request (tests wait for it)."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if isinstance(sys.exc_info()[1], ConnectionError):
            self.hung_up.set()
            return
        super().handle_error(request, client_address)


class FakeOpenAI:
    """The server; use as a context manager or via the `fake_llm` fixture."""

    def __init__(self, models: tuple[str, ...] = ("fake-model",), host: str = "127.0.0.1") -> None:
        """`host`: a loopback address to listen on (127.0.0.2 is another host to the client)."""
        self.script: deque[Reply] = deque()
        self.requests: list[Recorded] = []
        self.models = list(models)
        self.release = threading.Event()
        """Set to end every pending delay at once (shutdown)."""
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            disable_nagle_algorithm = True  # headers and body go out as separate writes

            def log_message(self, format: str, *args: Any) -> None:
                return

            def _record(self, body: dict[str, Any]) -> None:
                server.requests.append(
                    Recorded(
                        self.command,
                        self.path,
                        {k.lower(): v for k, v in self.headers.items()},
                        body,
                        time.monotonic(),
                    )
                )

            def do_GET(self) -> None:
                self._record({})
                if self.path.rstrip("/").endswith("/models"):
                    data = [{"id": m, "object": "model"} for m in server.models]
                    self._json(200, {"object": "list", "data": data})
                else:
                    self._json(404, {"error": {"message": "no such path", "code": 404}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                self._record(body)
                if not server.script:
                    self._json(500, {"error": {"message": "fake server: no scripted reply"}})
                    return
                reply = server.script.popleft()
                if reply.echo_key:
                    reply = echoed(reply, self.headers.get("Authorization", ""))
                if reply.delay_s and server.release.wait(reply.delay_s):
                    return
                if reply.drop:
                    self.close_connection = True
                    self.connection.shutdown(2)
                    return
                if reply.body is not None or reply.status != 200:
                    self._json(reply.status, reply.body or {}, reply.headers)
                elif reply.chunks is not None or body.get("stream"):
                    include = bool((body.get("stream_options") or {}).get("include_usage"))
                    chunks = (
                        reply.chunks if reply.chunks is not None else stream_chunks(reply, include)
                    )
                    self._sse(chunks, reply)  # a client that stops listening: QuietServer
                else:
                    self._json(200, completion(reply), reply.headers)

            def _json(
                self, status: int, payload: dict[str, Any], headers: dict[str, str] | None = None
            ) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def _sse(self, chunks: list[dict[str, Any] | str], reply: Reply) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Connection", "close")
                self.end_headers()
                self.close_connection = True
                for i, c in enumerate(chunks):
                    if i and reply.chunk_delay_s and server.release.wait(reply.chunk_delay_s):
                        return  # shutting down
                    if reply.hold is not None and i == len(chunks) - 1:
                        while not reply.hold.wait(0.02):
                            if server.release.is_set():
                                return
                    text = c if isinstance(c, str) else f"data: {json.dumps(c)}\n\n"
                    self.wfile.write(text.encode())
                    self.wfile.flush()
                if reply.done:
                    self.wfile.write(b"data: [DONE]\n\n")
                self.wfile.flush()

        self.httpd = QuietServer((host, 0), Handler)
        self.port = self.httpd.server_address[1]
        self.base_url = f"http://{host}:{self.port}/v1"
        self._thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    def add(self, *replies: Reply) -> None:
        self.script.extend(replies)

    @property
    def chat_requests(self) -> list[dict[str, Any]]:
        """JSON bodies of the chat-completion requests, in order."""
        return [r.body for r in self.requests if r.path.endswith("/chat/completions")]

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.httpd.shutdown()
        self.httpd.server_close()
        self._thread.join(timeout=5)


def completion(reply: Reply) -> dict[str, Any]:
    """A non-streamed chat completion body around `reply.message`."""
    body: dict[str, Any] = {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 0,
        "model": "fake",
        "choices": [{"index": 0, "message": reply.message, "finish_reason": reply.finish_reason}],
    }
    if reply.usage:
        body["usage"] = reply.usage
    return body
