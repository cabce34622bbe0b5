"""StepQueue: the window's deferred steps run one a loop turn, in order, each once; a step of a
deleted object is dropped; a step given `first` goes before those waiting. Steps all due
together (the loop held up) still take a turn each: as timers of their own, Qt ran every due
one in the same pass."""

from __future__ import annotations

import time
from collections.abc import Callable

import shiboken6
from PySide6.QtCore import QCoreApplication, QEventLoop, QObject, QTimer
from pytestqt.qtbot import QtBot

from caec_desktop.ui.loop_steps import StepQueue

MS = 1


def _passes(queue: StepQueue, ran: list[str], limit: int = 200) -> list[list[str]]:
    """Run loop passes (each waits for an event) until the queue is empty, at most `limit`:
    the steps each pass that ran any ran."""
    passes: list[list[str]] = []
    for _ in range(limit):
        if not queue.pending():
            break
        before = len(ran)
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        if len(ran) > before:
            passes.append(ran[before:])
    assert not queue.pending()
    return passes


def _step(
    ran: list[str], name: str, then: Callable[[], object] = lambda: None
) -> Callable[[], None]:
    def step() -> None:
        ran.append(name)
        then()

    return step


def _hold_loop(ms: float) -> None:
    """Keep the GUI thread busy for `ms` (a stalled loop: every timer set meanwhile is due)."""
    end = time.perf_counter() + ms / 1000
    while time.perf_counter() < end:
        pass


def test_steps_due_together_run_one_a_turn_in_order_each_once(qtbot: QtBot) -> None:
    owner = QObject()
    queue = StepQueue(owner)
    ran: list[str] = []
    for chain in "abc":  # three chains, each giving its next step from the one before
        second = _step(ran, f"{chain}2")
        queue.later(owner, _step(ran, f"{chain}1", lambda s=second: queue.later(owner, s, MS)), MS)
    _hold_loop(5 * MS)  # all three first steps due at once
    assert _passes(queue, ran) == [["a1"], ["b1"], ["c1"], ["a2"], ["b2"], ["c2"]]
    timers: list[str] = []  # the same three first steps as timers of their own
    for chain in "abc":
        QTimer.singleShot(MS, owner, _step(timers, f"{chain}1"))
    _hold_loop(5 * MS)
    QCoreApplication.processEvents()
    assert timers == ["a1", "b1", "c1"]  # one pass ran them all


def test_a_step_of_a_deleted_object_is_dropped_and_the_next_runs_in_its_turn(
    qtbot: QtBot,
) -> None:
    owner, gone = QObject(), QObject()
    queue = StepQueue(owner)
    ran: list[str] = []
    queue.later(owner, _step(ran, "first"), MS)
    queue.later(gone, _step(ran, "gone"), MS)
    queue.later(owner, _step(ran, "last"), MS)
    shiboken6.delete(gone)
    assert _passes(queue, ran) == [["first"], ["last"]]


def test_a_step_given_first_goes_before_those_waiting(qtbot: QtBot) -> None:
    owner = QObject()
    queue = StepQueue(owner)
    ran: list[str] = []
    urgent = _step(ran, "repaint")
    queue.later(owner, _step(ran, "render", lambda: queue.later(owner, urgent, MS, first=True)), MS)
    queue.later(owner, _step(ran, "ahead"), MS)
    assert _passes(queue, ran) == [["render"], ["repaint"], ["ahead"]]
