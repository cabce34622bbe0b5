"""Chat repaints that cover only what changed, once: a live result card's first paint, and the
pixels they leave on screen (what painting the whole chat anew shows)."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QEventLoop
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from caec_desktop.settings.model import Settings
from caec_desktop.tools import execute
from caec_desktop.ui.chat_pane import WRITING_NOTE, ChatPane
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.result_card import ResultCard
from caec_desktop.ui.session_runner import SessionRunner
from caec_desktop.ui.trace_model import FLUSH_MS
from caec_desktop.ui.wide_area import WideArea
from caec_desktop.ui.wrap_label import WrapLabel
from tests.ui.app_events import AppEvents, paints
from tests.ui.helpers import FakeSession, events

ARGS = {"particle_radius": "1 mm", "density": 2500, "youngs_modulus": "70 GPa",
        "poisson_ratio": 0.25}  # fmt: skip
ANSWER = "The Rayleigh time step follows from the radius, density and shear modulus. " * 4


def _result_data() -> dict:
    outcome = execute("rayleigh_timestep", ARGS)
    assert outcome.ok and outcome.calc_sheet is not None
    return {"tool": "rayleigh_timestep", "args": ARGS, "result": outcome.result,
            "calc_sheet": outcome.calc_sheet.model_dump(), "source": "llm"}  # fmt: skip


def _on_screen(pane: ChatPane) -> QImage:
    """What the window shows of the chat's scroll area (its backing store), not a new paint."""
    area = pane.scroll_area
    rect = area.rect().translated(area.mapTo(pane, area.rect().topLeft()))
    return pane.screen().grabWindow(pane.winId()).toImage().copy(rect)


def _shows_a_whole_new_paint(pane: ChatPane) -> bool:
    shown = _on_screen(pane)
    for label in pane.findChildren(WrapLabel):
        label.set_paint_cache(False)
    pane.repaint()
    return shown == _on_screen(pane)


class _PaintsAtScroll(AppEvents):
    """The paints in the chat, each with the view's scroll position when it came (`at`)."""

    def __init__(self, pane: ChatPane) -> None:
        super().__init__(pane, QEvent.Type.Paint)
        self.bar = pane.scroll_area.verticalScrollBar()
        self.at: list[tuple[QWidget, int]] = []

    def record(self, watched: QWidget, event: QEvent) -> None:
        super().record(watched, event)
        self.at.append((watched, self.bar.value()))


def _long_chat(qtbot: QtBot) -> ChatPane:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.resize(460, 400)
    pane.show()
    for i in range(4):
        pane.add_message("user", f"question {i}")
        pane.add_message("answer", ANSWER)
    bar = pane.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum())
    QCoreApplication.sendPostedEvents()
    return pane


def test_a_live_card_is_painted_once_when_it_shows_and_shows_a_whole_new_paint(
    qtbot: QtBot,
) -> None:
    """The card is shown with its updates off and takes them a loop turn later: the chat's
    widget repaints its place then, together with the rows the scroll to it exposed, so no
    widget of the card is painted twice for it (`setUpdatesEnabled(True)` made the card and
    each widget in it dirty on their own, and Qt painted the card in both repaints)."""
    pane = _long_chat(qtbot)
    bar = pane.scroll_area.verticalScrollBar()
    pane.add_message("user", "question 4")  # a turn shorter than the view: followed to its end
    QCoreApplication.sendPostedEvents()
    painted = _PaintsAtScroll(pane)
    card = pane.add_result(_result_data())
    qtbot.waitUntil(lambda: card.updatesEnabled() and card in painted.widgets, timeout=5000)
    qtbot.waitUntil(lambda: bar.value() == bar.maximum())
    QCoreApplication.sendPostedEvents()
    assert not card.visibleRegion().isEmpty()
    # Per scroll position: on a loaded machine the scroll to the bottom can come after the
    # card's first paint, and the rows it then exposes are painted anew (a paint of its own).
    per_widget = Counter((id(w), at) for w, at in painted.at if w is card or card.isAncestorOf(w))
    assert sum(n for (w, _at), n in per_widget.items() if w == id(card)) >= 1
    # No widget of the card painted twice in one frame, but the results table's area: its
    # label takes one more repaint of its region (the card's under it) after its first paint.
    # (Before, this held because the table was never painted at all: see the next test.)
    table = card.result_label
    again = {id(w) for w in (card, table, *table.parentWidget().findChildren(QWidget))}
    again |= {id(w) for w in card.findChildren(WideArea)} | {id(table.parentWidget())}
    assert max(n for (w, _at), n in per_widget.items() if w not in again) == 1
    assert max(n for (w, _at), n in per_widget.items() if w in again) <= 2
    assert (id(table), bar.value()) in per_widget  # the table is painted
    assert all(w.updatesEnabled() for w in card.findChildren(QWidget) if not w.isWindow())
    assert _shows_a_whole_new_paint(pane)


def test_trace_rows_due_with_a_late_render_repaint_wait_for_the_next_frame(qtbot: QtBot) -> None:
    """New trace rows wait a while after each render of the streamed answer (`MainWindow`), and
    again when the loop turn after it asks for the render's repaint: on a loaded machine that
    turn can come when the rows are due too, and both in one loop pass made one repaint of the
    chat and the trace table. Here the GUI thread is kept busy past both (a stalled loop): the
    chat's repaint is done before the rows go into the table."""
    runner = SessionRunner(FakeSession([]))
    window = MainWindow(runner, Settings(mode="local", base_url="http://127.0.0.1:1/v1"))
    qtbot.addWidget(window)
    window.show()
    run = events(
        ("run_start", None, {"text": "q"}),
        ("llm_request", "report", {"purpose": "summarize"}),
        ("llm_response", "report", {"stream": "delta", "text": "The step", "purpose": "summary"}),
        ("node_end", "report", {"status": "answered"}),
    )
    runner.runStarted.emit("ask")
    for event in run[:3]:
        runner.eventReceived.emit(event)
    window.trace.flush()
    painted_at_insert: list[int] = []
    """At each insert of trace rows: the writing bubble's paints since the render."""
    painted: list[AppEvents] = []

    def stall(_text: str) -> None:  # after the window's own slot (connected first)
        runner.eventReceived.emit(run[3])  # a row queued, due within FLUSH_MS
        (writing,) = [w for w in window.chat.items() if w.property("role") == "writing"]
        painted.append(paints(writing))
        end = time.perf_counter() + (FLUSH_MS + 20) / 1000
        while time.perf_counter() < end:  # the loop held up past both timers
            pass

    window.chat.writingShown.connect(stall)
    window.trace.model.rowsInserted.connect(
        lambda *_: painted_at_insert.append(painted[0].count if painted else -1)
    )
    qtbot.waitUntil(lambda: bool(painted_at_insert), timeout=5000)
    assert painted_at_insert[0] > 0  # the render's repaint came first


def test_the_writing_bubble_is_painted_once_when_it_shows(qtbot: QtBot) -> None:
    """The "model is writing…" bubble is added with its updates off and painted by the chat's
    widget a loop turn later, with the rows the scroll to it exposed: its note is painted once
    (shown with updates on, it was painted in both repaints of that frame, the second time
    into its pixmap); the chat shows what a whole new paint shows."""
    pane = _long_chat(qtbot)
    painted = paints(pane)
    pane.stream_text("The step ")
    pane.postpone_render(60_000)  # no render meanwhile: the bubble's show is all that paints
    (writing,) = [w for w in pane.items() if w.property("role") == "writing"]
    note = writing.findChildren(WrapLabel)[0]
    assert note.text() == WRITING_NOTE
    qtbot.waitUntil(lambda: writing.updatesEnabled() and note in painted.widgets)
    for _ in range(3):  # any repaint still due
        QCoreApplication.sendPostedEvents()
    assert painted.widgets.count(note) == 1
    assert _shows_a_whole_new_paint(pane)


def test_a_live_card_s_results_table_is_painted_when_it_shows(qtbot: QtBot) -> None:
    """The results table sits in a scroll area inside the card. Shown with the card (updates
    off, then one repaint of the card's place asked of the chat's widget), it was never
    painted: the card showed a blank gap where its results are, or the pixels of the answer
    that had been there, until the window was resized. It is painted when the card shows, and
    the window shows what a fresh rendering of the chat shows."""
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.resize(460, 500)
    pane.show()
    qtbot.waitUntil(lambda: pane.windowHandle() is not None and pane.windowHandle().isExposed())
    pane.add_message("user", "rayleigh time step for 1 mm glass beads")
    card = pane.add_result(_result_data())
    pane.add_message("answer", ANSWER)  # where the card will be, until the card shows
    assert isinstance(card, ResultCard)
    painted = paints(pane)
    qtbot.waitUntil(lambda: card.updatesEnabled() and card in painted.widgets, timeout=5000)
    table = card.result_label
    qtbot.waitUntil(lambda: table in painted.widgets, timeout=2000)
    for _ in range(3):  # any repaint still due
        QCoreApplication.sendPostedEvents()
    rect = table.rect().translated(table.mapTo(pane, table.rect().topLeft()))
    shown = pane.screen().grabWindow(pane.winId()).toImage().copy(rect)
    assert shown == pane.grab(rect).toImage().convertToFormat(shown.format())


def test_the_chats_steps_due_together_take_a_loop_turn_each(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A live card's build steps and the new writing bubble's steps, all due at once (the loop
    held up), run one a loop turn, each once, each chain in its order: as timers of their own,
    Qt ran every due step in one pass (3-4 steps of 1-3 ms made one gap, bench_streaming)."""
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.resize(600, 500)
    pane.show()
    qtbot.waitUntil(lambda: pane.windowHandle() is not None and pane.windowHandle().isExposed())
    ran: list[str] = []
    for name in ("_card_step", "_card_shown", "_writing_placed", "_writing_shown"):
        method = getattr(ChatPane, name)

        def noted(self: ChatPane, *args: object, _name: str = name, _method: Any = method) -> None:
            ran.append(_name)
            _method(self, *args)

        monkeypatch.setattr(ChatPane, name, noted)
    pane.add_message("user", "rayleigh time step for 1 mm glass beads")
    qtbot.waitUntil(pane.scroll_area.widget().isVisible)  # the chat, not the welcome panel
    card = pane.add_result(_result_data())
    pane.stream_text("The step")
    pane.postpone_render(60_000)  # no render: the steps only
    end = time.perf_counter() + 0.03
    while time.perf_counter() < end:  # the loop held up: the first steps of both are due
        pass
    passes: list[list[str]] = []
    for _ in range(200):  # (bounded; each pass waits for the next step's timer, 1 ms)
        if {"_card_shown", "_writing_shown"} <= set(ran):
            break
        before = len(ran)
        QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.WaitForMoreEvents)
        if len(ran) > before:
            passes.append(ran[before:])
    assert [len(p) for p in passes] == [1] * len(passes)
    cards = [s for s in ran if s.startswith("_card")]
    assert cards == ["_card_step"] * 7 + ["_card_shown"]  # its parts, the show, the paint
    assert [s for s in ran if s.startswith("_writing")] == ["_writing_placed", "_writing_shown"]
    assert card.isVisible() and card.updatesEnabled()
