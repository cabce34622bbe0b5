"""SessionRunner passes a run's events on in order, a few per event-loop turn when they come
together (its drain budget), so the view's slots for a burst of events do not share one turn."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from typing import Any

import pytest
import qasync
from pytestqt.qtbot import QtBot

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.session import TurnResult
from caec_desktop.ui.session_runner import SessionRunner
from tests.loop_turns import LoopTurns
from tests.ui.helpers import events, wait_signal

BURST = events(
    ("run_start", None, {}),
    *((("node_start" if i % 2 else "node_end"), "tools", {"i": i}) for i in range(8)),
    ("run_end", None, {"status": "answered"}),
)


class BurstSession:
    """A session whose stream has every event ready at once (no await between them), as a node's
    last events and the next node's first come out of the session's queue."""

    def __init__(self) -> None:
        self.last_turn: TurnResult | None = None

    async def ask(self, text: str) -> AsyncIterator[TraceEvent]:
        for event in BURST:
            yield event
        self.last_turn = TurnResult(answer=text, status="answered", events=BURST)

    async def aclose(self) -> None:
        pass


def _drain(
    qloop: qasync.QEventLoop, budget_ms: float, finished_at: list[int] | None = None
) -> tuple[list[int], list[int], Any]:
    """Run one turn of a BurstSession: the seq of each event received, the loop turn (a counter
    a task steps once per turn) at which each arrived, and the finished turn; the loop turn of
    `runFinished` goes into `finished_at`."""
    runner = SessionRunner(BurstSession())  # type: ignore[arg-type]
    runner.drain_budget_ms = budget_ms
    turns = LoopTurns()
    received: list[tuple[int, int]] = []
    runner.eventReceived.connect(lambda e: received.append((e.seq, turns.now)))
    if finished_at is not None:
        runner.runFinished.connect(lambda _turn: finished_at.append(turns.now))

    async def run() -> Any:
        async with turns:
            assert runner.ask("burst")
            (finished,) = await wait_signal(runner.runFinished)
        await runner.shutdown()
        return finished

    finished = qloop.run_until_complete(run())
    return [s for s, _ in received], [t for _, t in received], finished


def test_a_drain_over_its_budget_lets_the_loop_run_between_events_and_keeps_them_all(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    seqs, turns, finished = _drain(qloop, budget_ms=0.0)  # every slot is over a 0 ms budget
    assert seqs == [e.seq for e in BURST]  # every event, in order
    assert all(a < b for a, b in itertools.pairwise(turns))  # each on a later turn
    assert finished is not None and finished.answer == "burst"


def test_a_drain_within_its_budget_passes_a_burst_on_in_one_turn(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    seqs, turns, finished = _drain(qloop, budget_ms=1e9)
    assert seqs == [e.seq for e in BURST]
    assert len(set(turns)) == 1  # the events came together, and went on together
    assert finished is not None and finished.status == "answered"


def test_the_run_finishes_on_a_loop_turn_after_its_last_events(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """The view's slots for the run's end (the answer's bubble, the status) do not share a loop
    turn with those of the last events, even when every event went on in one turn."""
    finished_at: list[int] = []
    seqs, turns, finished = _drain(qloop, budget_ms=1e9, finished_at=finished_at)
    assert seqs == [e.seq for e in BURST] and len(set(turns)) == 1
    assert len(finished_at) == 1 and finished_at[0] > turns[-1]
    assert finished is not None and finished.answer == "burst"


def test_the_runs_first_step_is_not_on_the_loop_turn_after_run_started(
    qtbot: QtBot, qloop: qasync.QEventLoop
) -> None:
    """The view repaints the run's start (status, buttons, the locked conversation list) on the
    loop turn after `runStarted`; the session's first step comes a turn later, not in that one."""
    runner = SessionRunner(BurstSession())  # type: ignore[arg-type]
    turns = LoopTurns()
    seen: list[tuple[str, int]] = []
    runner.runStarted.connect(lambda _kind: seen.append(("started", turns.now)))
    runner.eventReceived.connect(lambda _event: seen.append(("event", turns.now)))

    async def run() -> None:
        async with turns:
            assert runner.ask("burst")
            await wait_signal(runner.runFinished)
        await runner.shutdown()

    qloop.run_until_complete(run())
    (started, at), (kind, first) = seen[:2]
    assert (started, kind) == ("started", "event")
    assert first >= at + 2, seen[:2]


def test_closing_right_after_an_answer_saves_the_whole_turn_as_the_app_wires_it(
    qtbot: QtBot, qloop: qasync.QEventLoop, monkeypatch: pytest.MonkeyPatch
) -> None:
    """app.py makes a finished turn's event rows a few per loop turn from runFinished on
    (`ConversationRecorder.prepare`) and saves it at runSettled: a window closed before then
    (shutdown settles the turn at once) still saves the turn with every event, once."""
    from caec_desktop.app import ErrorSink, wire_history
    from caec_desktop.services.history import HistoryStore
    from caec_desktop.services.history import recorder as recorder_module
    from caec_desktop.services.session import Session
    from caec_desktop.settings.model import Settings
    from caec_desktop.ui.main_window import MainWindow

    monkeypatch.setattr(recorder_module, "PREPARE_BUDGET_MS", 0.0)  # one row per loop turn
    settings = Settings(mode="offline")
    runner = SessionRunner(Session(settings))
    window = MainWindow(runner, settings)
    qtbot.addWidget(window)
    controller = wire_history(window, runner, ErrorSink(window))
    recorder = controller.recorder

    async def scenario() -> Any:
        assert runner.ask("rayleigh time step for 1 mm glass beads")
        (turn,) = await wait_signal(runner.runFinished)
        await asyncio.sleep(0)  # some of its rows made, not all
        await runner.shutdown()  # what app.py does once the window is closed ...
        assert recorder.flush()  # ... then the writer thread's saves
        return turn

    turn = qloop.run_until_complete(scenario())
    path = recorder.store.path
    recorder.store.close()
    window.close()
    with HistoryStore(path) as store:
        (conversation,) = store.list_conversations()
        (saved,) = store.load(conversation.id).turns
    assert turn is not None and len(turn.events) > 5
    assert saved.events == turn.events
    assert saved.result["answer"] == turn.answer
