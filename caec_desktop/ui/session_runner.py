"""SessionRunner: the thin Qt adapter over `Session` (async iterators in, Qt signals out).

The view binds only to these signals (qasync's service pattern); what is not shown (the history's
save) binds to `runSettled`, `SETTLE_MS` after `runFinished`. The runner keeps its own
reference to the run task (qasync issue #98: tasks made by `asyncSlot` are not kept alive) and
`shutdown()` stops and awaits it before the loop closes (issue #60), then closes every session it
has run (the current one and those replaced after a settings change) so their HTTP clients close.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:
    from caec_desktop.agent.trace import TraceEvent
    from caec_desktop.services.session import Session

log = logging.getLogger(__name__)
SETTLE_MS = 150
"""From `runFinished` to `runSettled`: a new answer is shown, laid out and painted over the next
few event-loop steps (Qt posts each of them as the previous one runs; work done a step later still
fell into the same frame), and the trace shows the run's last rows within ~130 ms
(`trace_model.FLUSH_MS`, then up to three `PACE_MS` steps, each a table repaint): the save comes
after both."""
DRAIN_BUDGET_MS = 2.0
"""GUI-thread time the view's slots may take for one run's events in one event-loop turn: events
that arrive together (a node's last events, the next node's first) are passed on in one turn
until their slots have taken this long, the rest on the next turns (`_drain`): a turn then
holds at most this plus one event's slot (a result card's, ~4 ms, the longest), not every event
a node sends at once. The run's first step comes a turn after `runStarted` (the view's repaint
of the run's start, ~2.5 ms with the locked conversation list, and the session's first step,
~1.7 ms, made one gap), and `runFinished` on a turn after the last events' (its slots make the
answer's bubble and set the status: ~2 ms with the last events' ~1-2 ms in one turn made one of
a streamed run's longest gaps, bench/bench_streaming.py)."""

STOP_WAIT_S = 5.0
"""How long quitting waits for a stopped run to end with its run_end (it takes milliseconds: the
run's task is cancelled) before cancelling its stream, and with it the record of the turn."""


class SessionRunner(QObject):
    """Runs one turn at a time on the asyncio loop and re-emits its TraceEvents."""

    runStarted = Signal(str)
    eventReceived = Signal(object)
    runFinished = Signal(object)
    runSettled = Signal(object)
    """The turn of `runFinished` again, `SETTLE_MS` later: for work the user does not watch
    (saving it to the history, refreshing the conversation list), so that the frames showing the
    answer do not wait for it (bench/bench_streaming.py: 3-4 ms at the end of each run)."""
    failed = Signal(str)

    def __init__(self, session: Session, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.task: asyncio.Task[None] | None = None
        self._replaced: list[Session] = []
        """Sessions swapped out by `replace_session`, closed by `shutdown`."""
        self._settling: list[tuple[asyncio.TimerHandle, Any]] = []
        """Finished turns whose `runSettled` is still to come, with its timer."""
        self.drain_budget_ms = DRAIN_BUDGET_MS
        """See `DRAIN_BUDGET_MS`."""

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    @property
    def settling(self) -> bool:
        """A finished turn's `runSettled` is still to come (the history saves it then)."""
        return bool(self._settling)

    def ask(self, text: str) -> bool:
        """Start a chat turn; False when a run is already going."""
        return self._start("ask", lambda: self.session.ask(text))

    def run_tool(
        self, name: str, args: dict[str, Any], arg_sources: dict[str, str] | None = None
    ) -> bool:
        """Start a form run of tool `name` (no LLM); False when a run is already going."""
        return self._start(
            "form",
            lambda: self.session.run_tool(name, args, source="form", arg_sources=arg_sources),
        )

    def cancel(self) -> None:
        """Ask the session to stop; its stream still ends with a run_end event."""
        if self.running:
            self.session.cancel()

    def replace_session(self, session: Session) -> None:
        """Run the next turns in `session`; a run already going finishes in the old one, which is
        closed at `shutdown()` (its HTTP clients may still be in use until then)."""
        self._replaced.append(self.session)
        self.session = session

    async def shutdown(self) -> None:
        """Stop the run as Esc does (its stream ends with run_end, so the stopped turn keeps the
        question, as a turn marked cancelled), wait for it (at most `STOP_WAIT_S`, then cancel
        it), settle its turn at once (so it is saved), close the HTTP clients of every session
        run here."""
        if self.task is not None and not self.task.done():
            for session in (*self._replaced, self.session):  # a run may be in a replaced one
                session.cancel()
            _, pending = await asyncio.wait({self.task}, timeout=STOP_WAIT_S)
            if pending:  # a stream that does not end when asked: its turn is lost, not the exit
                self.task.cancel()
                await asyncio.gather(self.task, return_exceptions=True)
        self._settle_now()
        sessions, self._replaced = [*self._replaced, self.session], []
        for session in sessions:
            await session.aclose()

    def _start(self, kind: str, stream: Any) -> bool:
        if self.running:
            return False
        self.task = asyncio.get_running_loop().create_task(self._drain(stream()))
        self.runStarted.emit(kind)  # at once, so Stop shows before the first event
        return True

    async def _drain(self, stream: AsyncIterator[TraceEvent]) -> None:
        before = getattr(self.session, "last_turn", None)
        spent = 0.0  # seconds the slots took since the drain last let the loop run
        try:
            await asyncio.sleep(0)  # the run's first step a turn after `runStarted`'s repaint
            async for event in stream:
                began = time.perf_counter()
                self.eventReceived.emit(event)
                spent += time.perf_counter() - began
                if spent * 1000 >= self.drain_budget_ms:  # the next events on a later turn
                    await asyncio.sleep(0)
                    spent = 0.0
            if spent:  # the run's end on a turn of its own, not after its last events' slots
                await asyncio.sleep(0)
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the session reports its own failures; this is a bug path
            log.exception("run failed: %s", type(exc).__name__)
            self.failed.emit(
                "Something unexpected stopped this run (a bug in CAEC Desktop, not your input); "
                "the details are in the log file caec-desktop.log in the data folder."
            )
        finally:
            turn = getattr(self.session, "last_turn", None)
            finished = turn if turn is not before else None
            self.runFinished.emit(finished)
            handle = asyncio.get_running_loop().call_later(SETTLE_MS / 1000, self._settle, finished)
            self._settling.append((handle, finished))

    def _settle(self, finished: Any) -> None:
        self._settling = [(h, t) for h, t in self._settling if t is not finished]
        self.runSettled.emit(finished)

    def _settle_now(self) -> None:
        """Emit every `runSettled` still waiting (the window is closing: a turn answered just
        before must still be saved)."""
        pending, self._settling = self._settling, []
        for handle, finished in pending:
            handle.cancel()
            self.runSettled.emit(finished)
