"""The loopback fake OpenAI server (`tests/llm/fake_server.py`) in a child process (bench only).

A real model server (llama.cpp, vLLM, OpenRouter) is another process. Run inside the bench's own
process, the fake server's threads parse each request and write each SSE chunk while holding the
interpreter lock, and the GUI thread waits for it: measured gaps held up to ~10 ms of the server's
CPU. In a child process the GUI thread shares nothing with it but the socket.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing.connection import Connection
from typing import Any


def _serve(conn: Connection) -> None:
    from tests.llm.fake_server import FakeOpenAI

    with FakeOpenAI() as server:
        conn.send(server.base_url)
        while (message := conn.recv())[0] == "add":
            server.add(*message[1])
            conn.send(len(server.script))


class ServerProcess:
    """`FakeOpenAI` run by a spawned child; `add` sends it scripted `Reply`s (pickled)."""

    def __init__(self) -> None:
        context = multiprocessing.get_context("spawn")
        self._conn, child = context.Pipe()
        self._process = context.Process(target=_serve, args=(child,), daemon=True)
        self.base_url = ""

    def add(self, *replies: Any) -> None:
        self._conn.send(("add", replies))
        self._conn.recv()  # the child has queued them

    def __enter__(self) -> ServerProcess:
        self._process.start()
        if not self._conn.poll(60):
            self._process.kill()
            raise RuntimeError("the fake server's process did not start within 60 s")
        self.base_url = self._conn.recv()
        return self

    def __exit__(self, *exc: object) -> None:
        self._conn.send(("stop",))
        self._process.join(timeout=5)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(timeout=5)
