"""Helpers for the window tests: a fake Session, TraceEvent builders, awaiting a Qt signal.

Async scenarios run with `qloop.run_until_complete(...)` and await signals with `wait_signal`
(never `qtbot.waitSignal` inside a running coroutine: it hangs; docs/architecture.md, testing).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Any

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.session import TurnResult


async def wait_signal(signal: Any, timeout: float = 5.0) -> tuple[Any, ...]:
    """Await the next emission of a Qt `signal` on the running (qasync) loop."""
    fut: asyncio.Future[tuple[Any, ...]] = asyncio.get_running_loop().create_future()

    def _on(*args: Any) -> None:
        if not fut.done():
            fut.set_result(args)

    signal.connect(_on)
    try:
        return await asyncio.wait_for(fut, timeout)
    finally:
        signal.disconnect(_on)


async def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Let the running (qasync) loop go on until `condition()` holds (AssertionError after
    `timeout` seconds)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        if loop.time() > end:
            raise AssertionError(f"not true within {timeout} s")
        await asyncio.sleep(0.001)


def events(*specs: tuple[str, str | None, dict[str, Any]]) -> list[TraceEvent]:
    """TraceEvents numbered from 1, 1 ms apart, from (kind, node, data) triples."""
    return [
        TraceEvent(seq=i, t_ms=float(i), kind=kind, node=node, data=data)  # type: ignore[arg-type]
        for i, (kind, node, data) in enumerate(specs, 1)
    ]


class FakeSession:
    """The Session API (ask, run_tool, cancel, aclose, messages, last_turn) replaying events."""

    def __init__(self, script: list[TraceEvent], answer: str = "done") -> None:
        self.script = script
        self.answer = answer
        self.messages: list[dict[str, str]] = []
        self.last_turn: TurnResult | None = None
        self.calls: list[tuple[str, Any]] = []
        self.gate: asyncio.Event | None = None
        """When set, the stream pauses after run_start until the gate opens or cancel()."""
        self.cancelled = False
        self.closed = False
        self.usage: dict[str, float] = {}
        """Tokens each turn reports spending (as a model's turn does; offline turns: none)."""
        self.usage_total: dict[str, float] = {}

    async def aclose(self) -> None:
        self.closed = True

    def cancel(self) -> None:
        self.cancelled = True
        if self.gate is not None:
            self.gate.set()

    async def ask(self, text: str) -> AsyncIterator[TraceEvent]:
        self.calls.append(("ask", text))
        async for ev in self._play():
            yield ev

    async def run_tool(
        self,
        name: str,
        args: dict[str, Any],
        source: str = "form",
        arg_sources: dict[str, str] | None = None,
    ) -> AsyncIterator[TraceEvent]:
        self.calls.append(("run_tool", (name, args, source)))
        async for ev in self._play():
            yield ev

    async def _play(self) -> AsyncIterator[TraceEvent]:
        for ev in self.script:
            await asyncio.sleep(0)
            if self.cancelled and ev.kind != "run_end":
                continue
            yield ev
            if ev.kind == "run_start" and self.gate is not None:
                await self.gate.wait()
        status = "cancelled" if self.cancelled else "answered"
        for key, value in self.usage.items():
            self.usage_total[key] = self.usage_total.get(key, 0) + value
        self.last_turn = TurnResult(
            answer=self.answer,
            status=status,
            events=self.script,
            usage=dict(self.usage),
            conversation_usage=dict(self.usage_total),
        )


def window_recording_status(qtbot: Any, settings: Any) -> tuple[Any, Any, list[str]]:
    """A window on a real session with `settings`, and every status-line message it shows, in
    order: (window, runner, shown)."""
    from caec_desktop.services.session import Session
    from caec_desktop.ui.main_window import MainWindow
    from caec_desktop.ui.session_runner import SessionRunner

    runner = SessionRunner(Session(settings))
    window = MainWindow(runner, settings)
    qtbot.addWidget(window)
    shown: list[str] = []
    window.statusBar().messageChanged.connect(shown.append)
    return window, runner, shown
