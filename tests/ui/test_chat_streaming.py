"""The "model is writing…" bubble: grows with streamed text, renders at most once per interval,
and gives way to the final answer. Driven through the runner's signals (no event loop needed)."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QEvent
from PySide6.QtGui import QImage
from PySide6.QtWidgets import QLabel, QWidget
from pytestqt.qtbot import QtBot

from caec_desktop.services.session import TurnResult
from caec_desktop.settings.model import Settings
from caec_desktop.ui import chat_pane
from caec_desktop.ui.chat_pane import ANSWER_BAND_PX, WRITING_NOTE, ChatPane
from caec_desktop.ui.main_window import MainWindow
from caec_desktop.ui.session_runner import SessionRunner
from caec_desktop.ui.wrap_label import WrapLabel
from tests.ui.app_events import AppEvents, paints, resizes, settled
from tests.ui.helpers import FakeSession, events


def _bubbles(pane: ChatPane, role: str) -> list[Any]:
    """Bubbles of `role` (answers are labels; the writing bubble is a frame of labels)."""
    return [w for w in pane.items() if w.property("role") == role]


def _placed(writing: QWidget) -> list[QLabel]:
    """The labels of a writing bubble in its layout: the note, then the pieces (not the spare
    made ahead)."""
    layout = writing.layout()
    assert layout is not None
    return [p for p in writing.findChildren(QLabel) if layout.indexOf(p) >= 0]


def _delta(text: str, purpose: str = "summary") -> tuple[str, str, dict[str, Any]]:
    return ("llm_response", "report", {"stream": "delta", "text": text, "purpose": purpose})


def test_deltas_arriving_together_render_once(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    renders: list[str] = []
    pane.writingShown.connect(renders.append)
    for word in ("The ", "step ", "is ", "1.02 µs."):
        pane.stream_text(word)
    (bubble,) = _bubbles(pane, "writing")
    assert bubble.text() == WRITING_NOTE  # nothing rendered yet: one render per interval
    qtbot.waitUntil(lambda: renders == ["The step is 1.02 µs."])
    assert bubble.text() == f"{WRITING_NOTE}\n\nThe step is 1.02 µs."
    pane.stream_text(" More.")
    qtbot.waitUntil(lambda: len(renders) == 2)
    assert renders[-1] == "The step is 1.02 µs. More." and pane.writing_text() == renders[-1]
    pane.end_stream()
    assert pane.writing_text() is None and not _bubbles(pane, "writing")


def test_window_grows_the_bubble_then_shows_the_answer_in_its_place(qtbot: QtBot) -> None:
    runner = SessionRunner(FakeSession([]))
    window = MainWindow(runner, Settings(mode="local", base_url="http://127.0.0.1:1/v1"))
    qtbot.addWidget(window)
    chat = window.chat
    run = events(
        ("run_start", None, {"text": "q"}),
        ("llm_request", "tools", {"purpose": "select"}),
        _delta("Let me check", "reply"),
        ("llm_request", "report", {"purpose": "summarize"}),  # a new call: old text goes
        _delta("The Rayleigh step"),
        _delta(" is about 1.02 µs."),
    )
    runner.runStarted.emit("ask")
    for event in run[:3]:
        runner.eventReceived.emit(event)
    qtbot.waitUntil(lambda: chat.writing_text() == "Let me check")
    runner.eventReceived.emit(run[3])
    assert chat.writing_text() is None
    runner.eventReceived.emit(run[4])
    qtbot.waitUntil(lambda: "The Rayleigh step" in _bubbles(chat, "writing")[0].text())
    runner.eventReceived.emit(run[5])
    qtbot.waitUntil(lambda: "is about 1.02 µs." in _bubbles(chat, "writing")[0].text())
    assert not chat.stop_button.isHidden()  # Stop stays available while the model writes
    answer = "The Rayleigh step is about 1.02 µs.\n\n### `rayleigh_timestep`"
    runner.runFinished.emit(TurnResult(answer=answer, status="answered", mode="local"))
    assert not _bubbles(chat, "writing")
    assert chat.items()[-1].property("role") == "answer"
    assert "The Rayleigh step is about 1.02 µs." in chat.items()[-1].text()  # type: ignore[attr-defined]
    window.trace.flush()
    summaries = [
        window.trace.model.index(r, 3).data() for r in range(window.trace.model.rowCount())
    ]
    assert "summary ▸ is about 1.02 µs." in summaries


def test_in_a_shown_chat_the_answer_replaces_the_bubble_turns_later_in_one_swap(
    qtbot: QtBot,
) -> None:
    """Made when the run ends, laid out on a later loop turn, shown on the turn after with the
    writing bubble removed in the same step: the chat never shows neither, nor both."""
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.show()
    pane.stream_text("The Rayleigh step is about 1.02 µs.")
    qtbot.waitUntil(lambda: "1.02 µs" in _bubbles(pane, "writing")[0].text())
    (writing,) = _bubbles(pane, "writing")
    seen: list[tuple[bool, bool]] = []  # (writing bubble in the chat, answer shown) per check
    answer = pane.add_answer("answer", "**The step** is about 1.02 µs.")
    assert pane.writing_text() is None  # the stream is over: no more renders
    assert answer.isHidden() and writing in pane.items() and writing.isVisible()
    assert pane.items()[-1] is answer

    def swapped() -> bool:
        seen.append((writing in pane.items(), answer.isVisible()))
        return seen[-1] == (False, True)

    qtbot.waitUntil(swapped, timeout=5000)
    assert all(in_chat != shown for in_chat, shown in seen)  # one or the other, always
    assert not _bubbles(pane, "writing") and pane.items()[-1] is answer
    assert answer.text() == "**The step** is about 1.02 µs."


def test_a_stopped_run_removes_the_bubble(qtbot: QtBot) -> None:
    runner = SessionRunner(FakeSession([]))
    window = MainWindow(runner, Settings(mode="local", base_url="http://127.0.0.1:1/v1"))
    qtbot.addWidget(window)
    (start, delta) = events(("run_start", None, {}), _delta("Half a sent"))
    runner.runStarted.emit("ask")
    runner.eventReceived.emit(start)
    runner.eventReceived.emit(delta)
    qtbot.waitUntil(lambda: window.chat.writing_text() == "Half a sent")
    runner.runFinished.emit(
        TurnResult(answer="Cancelled: the run was stopped.", status="cancelled")
    )
    assert not _bubbles(window.chat, "writing")
    assert window.chat.send_button.text() == "Send"


def test_a_bubble_height_follows_its_text_and_width(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    bubble = pane.add_message("answer", "short")
    one_line = bubble.heightForWidth(300)
    assert bubble.heightForWidth(300) == one_line  # remembered, same answer
    bubble.setText("a longer answer " * 60)
    tall = bubble.heightForWidth(300)
    assert tall > 3 * one_line  # the new text wraps over many lines
    assert bubble.heightForWidth(600) < tall  # wider: fewer lines
    bubble.setStyleSheet("padding: 40px;")
    bubble.ensurePolished()  # as the layout does before it asks
    assert bubble.heightForWidth(300) > tall  # the style's padding counts


def test_a_long_answer_streams_in_pieces_that_read_as_the_whole_text(qtbot: QtBot) -> None:
    pane = ChatPane()
    qtbot.addWidget(pane)
    renders: list[str] = []
    pane.writingShown.connect(renders.append)
    words = " ".join(f"word{j}" for j in range(40))
    paragraphs = [f"Paragraph {i}: {words}" for i in range(6)]
    items = [f"- item {i} " + "x" * 30 for i in range(8)]
    text = "\n\n".join(paragraphs) + "\n\n" + "\n".join(items)
    for start in range(0, len(text), 7):  # every token, many renders
        pane.stream_text(text[start : start + 7])
        if start % 350 == 0:
            qtbot.waitUntil(lambda upto=start: bool(renders) and len(renders[-1]) > upto)
    qtbot.waitUntil(lambda: bool(renders) and renders[-1] == text)
    (bubble,) = _bubbles(pane, "writing")
    pieces = bubble.pieces()
    assert len(pieces) > 2 and "".join(pieces) == text  # cut, nothing lost or repeated
    assert all(piece.startswith(("Paragraph", "- item")) for piece in pieces)  # at block starts
    assert bubble.text() == f"{WRITING_NOTE}\n\n{text}"


def test_a_postponed_render_still_shows_every_token(qtbot: QtBot) -> None:
    """The window postpones renders while the trace table repaints; the text still all shows."""
    pane = ChatPane()
    qtbot.addWidget(pane)
    renders: list[str] = []
    pane.writingShown.connect(renders.append)
    for word in ("The ", "step ", "is "):
        pane.stream_text(word)
        pane.postpone_render(30)
    pane.stream_text("1.02 µs.")
    pane.postpone_render(30)
    qtbot.waitUntil(lambda: renders[-1:] == ["The step is 1.02 µs."], timeout=5000)
    assert _bubbles(pane, "writing")[0].text() == f"{WRITING_NOTE}\n\nThe step is 1.02 µs."
    pane.end_stream()
    pane.postpone_render(30)  # no bubble, nothing pending: nothing to do
    assert pane.writing_text() is None


ANSWER = (
    "**Time step**: 1.02e-6 s\n\n- from the Rayleigh wave speed\n- of the particle\n\n"
    + "The particle radius and the shear modulus set it. " * 6
)


def _chat_with_answers(qtbot: QtBot) -> ChatPane:
    """A shown chat of three turns, scrolled to its end (the view follows)."""
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.resize(420, 360)
    pane.show()
    qtbot.waitUntil(lambda: pane.windowHandle() is not None and pane.windowHandle().isExposed())
    for i in range(3):
        pane.add_message("user", f"question {i}")
        pane.add_message("answer", ANSWER)
    bar = pane.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum())
    return pane


def _stream(qtbot: QtBot, pane: ChatPane, deltas: list[str], shown: list[str]) -> None:
    """Stream `deltas` one render each, waiting until each render has scrolled and repainted."""
    bar = pane.scroll_area.verticalScrollBar()
    for delta in deltas:
        count = len(shown)
        pane.stream_text(delta)
        qtbot.waitUntil(lambda n=count: len(shown) > n, timeout=5000)
        qtbot.waitUntil(lambda: bar.updatesEnabled() and bar.value() == bar.maximum())


def test_a_render_lays_the_chat_out_at_once_resizing_only_the_growing_bubble(
    qtbot: QtBot,
) -> None:
    """When writingShown fires, the grown text is laid out (not a few posted layout passes
    later, which could share a frame with other work), and the view is at the end on the next
    loop turn. The chat is made taller before its layout places the items: laid out at its old
    height, the layout took the bubble's growth from every item and gave it back a moment
    later (every answer resized twice per render, repainted and its pixmap lost)."""
    pane = _chat_with_answers(qtbot)
    seen: list[tuple[int, int]] = []
    shown: list[str] = []

    def on_shown(text: str) -> None:
        (bubble,) = _bubbles(pane, "writing")
        piece = _placed(bubble)[-1]  # not a spare
        seen.append((piece.height(), piece.heightForWidth(piece.width())))
        shown.append(text)

    pane.writingShown.connect(on_shown)
    _stream(qtbot, pane, ["The step. "], shown)
    (writing,) = _bubbles(pane, "writing")
    resized = resizes(pane.scroll_area)
    _stream(qtbot, pane, [f"sentence {i} " + "word " * 12 for i in range(6)], shown)
    assert all(height == wanted for height, wanted in seen)
    others = [w for w in resized.widgets if w is not writing and not writing.isAncestorOf(w)]
    assert [type(w).__name__ for w in others if type(w).__name__ != "_Host"] == []


def test_a_render_repaints_the_grown_bubble_on_a_later_loop_turn_and_nothing_above_it(
    qtbot: QtBot,
) -> None:
    """The render's text layout and the chat's repaint are not one stall: when writingShown
    fires the writing bubble and the scroll bar take no paints; a later loop turn scrolls and
    lets them repaint. The scroll moves the pixels shown already, so the answers above the
    bubble are not painted again (a region waiting for its paint under the scroll made Qt
    repaint the whole view, every answer and card in it, on every render)."""
    pane = _chat_with_answers(qtbot)
    answer = _bubbles(pane, "answer")[-1]
    bar = pane.scroll_area.verticalScrollBar()
    during: list[tuple[bool, bool]] = []
    shown: list[str] = []

    def on_shown(text: str) -> None:
        (bubble,) = _bubbles(pane, "writing")
        during.append((bubble.updatesEnabled(), bar.updatesEnabled()))
        shown.append(text)

    pane.writingShown.connect(on_shown)
    _stream(qtbot, pane, ["The step. "], shown)
    (writing,) = _bubbles(pane, "writing")
    writing_painted, answer_painted = paints(writing), paints(answer)
    top = bar.value()
    _stream(qtbot, pane, ["is about " * 8, "1.02 µs " * 8, "for glass " * 8], shown)
    QCoreApplication.sendPostedEvents()  # the last repaint
    assert during == [(False, False)] * 4
    assert bar.value() > top  # the view followed the grown text ...
    assert not answer.visibleRegion().isEmpty()  # ... with the answer still in view, moved
    assert answer_painted.count == 0
    assert writing_painted.count > 0 and writing.updatesEnabled() and bar.updatesEnabled()


def test_a_render_lays_its_text_out_a_loop_turn_before_the_chat(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A render sets the text and lays it out in the bubble on its own loop turn, and the chat
    on a later one, when writingShown fires (the two in one turn were the longest step of a
    streamed run). Between them the text is in the bubble, laid out at its width, while the
    bubble keeps its old height; each render is reported once, with its text."""
    pane = _chat_with_answers(qtbot)
    shown: list[str] = []
    pane.writingShown.connect(shown.append)
    _stream(qtbot, pane, ["The step. "], shown)
    (writing,) = _bubbles(pane, "writing")
    monkeypatch.setattr(chat_pane, "SHOW_LATER_MS", 300)  # the turns after a render, far apart
    before = writing.height()
    pane.stream_text("is about 1.02 µs " * 20)
    qtbot.waitUntil(lambda: "1.02 µs" in writing.text(), timeout=5000)
    assert shown == ["The step. "]  # set, the chat not laid out yet ...
    piece = _placed(writing)[-1]
    assert writing.height() == before < writing.heightForWidth(writing.width())
    assert piece.heightForWidth(piece.width()) > piece.height()  # ... the text laid out
    qtbot.waitUntil(lambda: len(shown) == 2, timeout=5000)
    assert shown[1] == "The step. " + "is about 1.02 µs " * 20
    assert writing.height() == writing.heightForWidth(writing.width())
    assert piece.height() == piece.heightForWidth(piece.width())


def test_a_render_before_the_bubble_first_paints_holds_it_until_its_own_repaint(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On a loaded machine the first render can come between the new bubble's layout and its
    first paint (`_writing_shown`): the bubble still takes no paint until the render asks for
    its repaint (a paint while it is held is not moved by the render's scroll), then paints
    once with the rendered text, and the chat shows what a whole new paint shows."""
    pane = _chat_with_answers(qtbot)
    monkeypatch.setattr(chat_pane, "SHOW_LATER_MS", 18)  # placed, render (25 ms), shown
    order: list[str] = []
    monkeypatch.setattr(
        ChatPane, "_writing_shown", _noting(order, "shown", ChatPane._writing_shown)
    )
    monkeypatch.setattr(
        ChatPane, "_render_writing", _noting(order, "render", ChatPane._render_writing)
    )
    painted: list[AppEvents] = []
    at_repaint: list[int] = []
    pane.writingRepainting.connect(lambda: at_repaint.append(painted[0].count))
    pane.stream_text("The step is about 1.02 µs.")
    (writing,) = _bubbles(pane, "writing")
    painted.append(paints(writing))
    qtbot.waitUntil(lambda: bool(at_repaint) and "shown" in order, timeout=5000)
    assert order[:2] == ["render", "shown"]  # the case in point
    assert at_repaint[0] == 0  # no paint while the render held it
    qtbot.waitUntil(lambda: painted[0].count > 0 and settled(pane), timeout=5000)
    assert writing.updatesEnabled()
    assert len(set(painted[0].widgets)) == painted[0].count  # each of its widgets once
    assert _shows_a_whole_new_paint(pane)


def test_a_render_while_the_last_ones_repaint_waits_is_repainted_with_it_once(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Text that comes after a render's layout and before its repaint is rendered (set, then
    laid out) before that repaint, which then covers both: one repaint asked, not one per render
    (a second, a turn later, let the bubble take paints while a third render held it)."""
    pane = _chat_with_answers(qtbot)
    shown: list[str] = []
    pane.writingShown.connect(shown.append)
    _stream(qtbot, pane, ["The step. "], shown)
    monkeypatch.setattr(chat_pane, "SHOW_LATER_MS", 150)  # a render's turns far apart
    repaints: list[str] = []
    pane.writingRepainting.connect(lambda: repaints.append(pane.writing_text() or ""))
    more = "is about 1.02 µs for 1 mm glass beads. "

    def then(_text: str) -> None:  # laid out, its repaint 150 ms away: more text comes
        pane.writingShown.disconnect(then)
        pane.stream_text(more)

    pane.writingShown.connect(then)
    pane.stream_text("Here ")
    qtbot.waitUntil(lambda: len(repaints) == 1, timeout=5000)
    assert shown[1:] == ["The step. Here ", "The step. Here " + more]  # both laid out first
    (writing,) = _bubbles(pane, "writing")
    done = lambda: not pane._steps.pending() and settled(pane)  # noqa: E731 (every step taken)
    qtbot.waitUntil(lambda: done() and writing.updatesEnabled(), timeout=5000)
    assert repaints == ["The step. Here " + more]
    assert _shows_a_whole_new_paint(pane)


def _noting(order: list[str], name: str, method: Any) -> Any:
    """`method`, noting `name` in `order` at each call."""

    def noted(self: ChatPane, *args: Any) -> Any:
        order.append(name)
        return method(self, *args)

    return noted


def _on_screen(pane: ChatPane) -> QImage:
    """What the window shows of the chat's scroll area: its backing store (offscreen: the
    screen's grab of a window reads it), not a new paint."""
    area = pane.scroll_area
    rect = area.rect().translated(area.mapTo(pane, area.rect().topLeft()))
    return pane.screen().grabWindow(pane.winId()).toImage().copy(rect)


def _shows_a_whole_new_paint(pane: ChatPane) -> bool:
    """Whether the chat's backing store (what the window shows) holds the pixels that painting
    all of it anew, without the labels' pixmaps, puts into the same backing store."""
    shown = _on_screen(pane)
    for label in pane.findChildren(WrapLabel):
        label.set_paint_cache(False)
    pane.repaint()  # all of it, into the same backing store
    return shown == _on_screen(pane)


def test_a_streamed_answer_shows_the_pixels_of_a_whole_new_paint(qtbot: QtBot) -> None:
    """Moved pixels, pixmaps of bubbles, repaints held back a loop turn: after streaming (cut
    into pieces, scrolled on every render) the chat shows what painting all of it anew shows."""
    pane = _chat_with_answers(qtbot)
    shown: list[str] = []
    pane.writingShown.connect(shown.append)
    words = [f"**step{i}** " if i % 25 == 0 else f"word{i} " for i in range(200)]
    _stream(
        qtbot,
        pane,
        ["".join(words[i : i + 9]) + "\n\n" * (i % 4 == 0) for i in range(0, 200, 9)],
        shown,
    )
    assert len(_bubbles(pane, "writing")[0].pieces()) > 1
    QCoreApplication.sendPostedEvents()  # the last repaint
    streamed = _on_screen(pane)
    for label in pane.findChildren(WrapLabel):
        label.set_paint_cache(False)
    (writing,) = _bubbles(pane, "writing")
    assert writing.updatesEnabled() and pane.scroll_area.verticalScrollBar().updatesEnabled()
    pane.repaint()  # all of it, into the same backing store
    assert streamed == _on_screen(pane)


def test_the_next_piece_is_made_ahead_and_filled_at_the_cut(qtbot: QtBot) -> None:
    """Once the last piece is half way to its cut, the next one is made on a later loop turn,
    shown but out of the bubble's layout and of no size (nothing of it shows); the render that
    cuts fills it and places it, showing no widget (a show laid the bubble and the chat out at
    once, before the render's own layout), and the text reads the same."""
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.resize(400, 300)
    pane.show()
    renders: list[str] = []
    pane.writingShown.connect(renders.append)
    first = "word " * 50  # past half of PIECE_CHARS
    pane.stream_text(first)
    qtbot.waitUntil(lambda: renders == [first])
    (bubble,) = _bubbles(pane, "writing")
    qtbot.waitUntil(lambda: len(bubble.findChildren(QLabel)) == 3)  # note, piece, spare
    spare = bubble.findChildren(QLabel)[-1]
    assert spare.size().isEmpty() and bubble.layout().indexOf(spare) < 0
    assert spare.text() == "" and bubble.pieces() == [first]
    shows = AppEvents(bubble, QEvent.Type.Show)
    shown_by_render: list[int] = []
    pane.writingShown.connect(lambda _text: shown_by_render.append(shows.count))
    second = "\n\n" + "more " * 50  # over PIECE_CHARS: cut at the blank line
    pane.stream_text(second)
    qtbot.waitUntil(lambda: len(renders) == 2)
    assert len(bubble.pieces()) == 2 and spare.isVisible() and shown_by_render == [0]
    qtbot.waitUntil(lambda: spare.height() == spare.heightForWidth(spare.width()))
    assert bubble.layout().indexOf(spare) >= 0
    assert spare.text().startswith("more") and "".join(bubble.pieces()) == first + second
    assert bubble.text().endswith(first + second)


def test_the_growing_piece_is_painted_once_per_render(qtbot: QtBot) -> None:
    """QLabel lays a new text out when it first paints it, and that layout asks for another
    paint of the label during the paint (Qt posts it); the paint drew the laid-out text, so
    the piece is not painted (and kept as a pixmap) a second time for the same text."""
    pane = _chat_with_answers(qtbot)
    shown: list[str] = []
    pane.writingShown.connect(shown.append)
    _stream(qtbot, pane, ["The step ", "is about " * 4], shown)
    (writing,) = _bubbles(pane, "writing")
    piece = _placed(writing)[-1]
    for _ in range(3):  # the last render's repaint, if it is still to come
        QCoreApplication.sendPostedEvents()
    painted = paints(piece)
    counts = []
    for delta in ["1.02 µs " * 4, "for glass " * 4, "beads " * 4]:
        before = painted.count
        _stream(qtbot, pane, [delta], shown)
        # The render's repaint comes a loop turn later (a timer): wait for it, then deliver
        # any paint it asked for meanwhile, so a second paint would be counted here.
        qtbot.waitUntil(lambda b=before: painted.count > b, timeout=5000)
        for _ in range(3):
            QCoreApplication.sendPostedEvents()
        counts.append(painted.count - before)
    assert counts == [1, 1, 1]


def test_the_growing_piece_is_painted_once_per_render_that_scrolls_the_view(
    qtbot: QtBot,
) -> None:
    """A render that adds lines scrolls the view to them; the rows the scroll exposes and the
    bubble's changed part are repainted together, the growing piece once (it was painted
    twice per render, the exposed rows at its bottom, then all of it)."""
    pane = _chat_with_answers(qtbot)
    shown: list[str] = []
    pane.writingShown.connect(shown.append)
    _stream(qtbot, pane, ["The step ", "is about " * 4], shown)
    (writing,) = _bubbles(pane, "writing")
    piece = _placed(writing)[-1]
    for _ in range(3):
        QCoreApplication.sendPostedEvents()
    bar = pane.scroll_area.verticalScrollBar()
    painted = paints(piece)
    counts = []
    for i in range(3):
        before, top = painted.count, bar.value()
        _stream(qtbot, pane, [f" line {i} " + "word " * 16], shown)
        qtbot.waitUntil(lambda b=before: painted.count > b, timeout=5000)
        for _ in range(3):
            QCoreApplication.sendPostedEvents()
        assert bar.value() > top  # the render scrolled the view
        counts.append(painted.count - before)
    assert counts == [1, 1, 1]


class _FirstPaint(AppEvents):
    """Whether `label` held its pixmap at each paint once shown (the paint into its pixmap,
    while it is hidden, is not counted)."""

    def __init__(self, label: WrapLabel) -> None:
        super().__init__(label, QEvent.Type.Paint)
        self.label = label
        self.cached: list[bool] = []

    def record(self, watched: QWidget, event: QEvent) -> None:
        if watched is self.label and self.label.isVisible():
            self.cached.append(self.label.paint_cached())


def test_the_answer_is_painted_ahead_and_first_shows_the_pixels_of_a_direct_paint(
    qtbot: QtBot,
) -> None:
    """The final answer is painted into its pixmap a loop turn before it is shown, so the turn
    that shows it draws the pixmap; what shows is what a direct paint shows."""
    pane = _chat_with_answers(qtbot)
    shown: list[str] = []
    pane.writingShown.connect(shown.append)
    _stream(qtbot, pane, ["The step ", "is about 1.02 µs."], shown)
    answer = pane.add_answer("answer", ANSWER)
    assert isinstance(answer, WrapLabel)
    first = _FirstPaint(answer)
    qtbot.waitUntil(lambda: answer.isVisible() and not _bubbles(pane, "writing"))
    qtbot.waitUntil(lambda: len(first.cached) > 0)
    assert first.cached[0] is True
    QCoreApplication.sendPostedEvents()
    assert _shows_a_whole_new_paint(pane)


def test_in_a_long_chat_the_scroll_bar_repaints_only_when_its_slider_moves(
    qtbot: QtBot,
) -> None:
    """A render grows a long chat by a line or so, which moves the scroll bar's slider by less
    than a pixel: the bar is not painted again for it (its paint was ~0.5-2 ms of each render's
    repaint). What shows afterwards is what a whole new paint shows."""
    pane = _chat_with_answers(qtbot)
    for i in range(20):
        pane.add_message("user", f"question {i}")
        pane.add_message("answer", ANSWER)
    bar = pane.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 2000 and bar.value() == bar.maximum())
    shown: list[str] = []
    pane.writingShown.connect(shown.append)
    _stream(qtbot, pane, ["The step "], shown)
    painted = paints(bar)
    top = bar.value()
    _stream(qtbot, pane, [f"word{i} " * 6 for i in range(8)], shown)
    QCoreApplication.sendPostedEvents()  # the last repaint
    assert bar.value() > top  # it scrolled on the renders ...
    assert painted.count < 8  # ... and was painted for fewer of them
    assert _shows_a_whole_new_paint(pane)


def _streamed_in_pieces(qtbot: QtBot) -> tuple[ChatPane, Any, list[str]]:
    """A shown chat whose writing bubble holds finished pieces (its text cut at blank lines)."""
    pane = _chat_with_answers(qtbot)
    shown: list[str] = []
    pane.writingShown.connect(shown.append)
    _stream(qtbot, pane, [f"paragraph {i} " + "word " * 30 + "\n\n" for i in range(6)], shown)
    (writing,) = _bubbles(pane, "writing")
    assert len(writing.pieces()) > 2
    for _ in range(3):  # the last render's repaint
        QCoreApplication.sendPostedEvents()
    return pane, writing, shown


def test_a_render_repaints_the_piece_it_changed_not_the_finished_pieces_above(
    qtbot: QtBot,
) -> None:
    """Each render repaints the bubble from the piece it changed down: the finished pieces above
    take no paint however long the answer grows (the whole bubble was repainted per render),
    and what shows is what a whole new paint shows."""
    pane, writing, shown = _streamed_in_pieces(qtbot)
    pieces = _placed(writing)[1:]  # not the note
    first, last = paints(pieces[0]), paints(pieces[-1])
    _stream(qtbot, pane, [f"more{i} " * 5 for i in range(4)], shown)
    qtbot.waitUntil(lambda: last.count > 0)
    for _ in range(3):
        QCoreApplication.sendPostedEvents()
    assert first.count == 0
    assert _shows_a_whole_new_paint(pane)


def test_a_new_piece_leaves_the_pieces_above_it_in_place(qtbot: QtBot) -> None:
    """The render that cuts the text shows a new piece: the bubble's layout places it below the
    others without squeezing them into the bubble's old height first (each finished piece was
    resized twice per cut and lost its pixmap)."""
    pane, writing, shown = _streamed_in_pieces(qtbot)
    finished = _placed(writing)[1:-1]
    resized = resizes(writing)
    count = len(writing.pieces())
    _stream(qtbot, pane, ["last words " * 40, "\n\nand a new paragraph"], shown)
    assert len(writing.pieces()) > count
    assert not [w for w in resized.widgets if w in finished]


def test_a_long_answer_is_painted_ahead_in_bands_and_shows_what_a_direct_paint_shows(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long answer is painted into its pixmap a band per loop turn before it shows (more turns,
    not longer ones); its first paint draws the pixmap, the same pixels as a direct paint."""
    pane = _chat_with_answers(qtbot)
    shown: list[str] = []
    pane.writingShown.connect(shown.append)
    _stream(qtbot, pane, ["The step ", "is about 1.02 µs."], shown)
    bands: list[int] = []
    original = ChatPane._paint_answer

    def counted(self: ChatPane, label: Any, writing: Any, part: int = 0) -> None:
        bands.append(part)
        original(self, label, writing, part)

    monkeypatch.setattr(ChatPane, "_paint_answer", counted)
    answer = pane.add_answer("answer", ANSWER * 6)
    assert isinstance(answer, WrapLabel)
    first = _FirstPaint(answer)
    qtbot.waitUntil(lambda: answer.isVisible() and not _bubbles(pane, "writing"))
    qtbot.waitUntil(lambda: len(first.cached) > 0)
    height = answer.heightForWidth(answer.width())
    assert bands == list(range(-(-height // ANSWER_BAND_PX))) and len(bands) > 2
    assert first.cached[0] is True
    QCoreApplication.sendPostedEvents()
    assert _shows_a_whole_new_paint(pane)


def test_paints_are_watched_only_while_an_answer_streams(qtbot: QtBot) -> None:
    """The chat filters its bar's, the bar's box's and its own events (a held render needs their
    paints) only while a writing bubble streams: at start-up, and in chats that never stream,
    every one of their events went through Python (the longest stall before the first answer
    doubled). After the stream, the scroll bar still shows its slider where a direct paint does.
    A second model call whose stream ends before its first render leaves the chat as it was:
    its bubble's show, queued when it was added, showed it out of the chat's layout, an empty
    dashed box over the top of the answers (until its deferred delete)."""
    pane = _chat_with_answers(qtbot)
    assert not pane._watching
    shown: list[str] = []
    pane.writingShown.connect(shown.append)
    _stream(qtbot, pane, ["The step ", "is about " * 4], shown)
    assert pane._watching
    pane.add_answer("answer", "The step is about 1.02 µs.")
    (answer,) = [w for w in _bubbles(pane, "answer") if w.text().startswith("The step")]
    qtbot.waitUntil(lambda: answer.isVisible() and not _bubbles(pane, "writing"), timeout=5000)
    qtbot.waitUntil(lambda: not pane._watching and settled(pane), timeout=5000)
    before = _on_screen(pane)
    shows = AppEvents(pane, QEvent.Type.Show)
    pane.stream_text("again ")  # a second model call streams: watched again, until it ends
    assert pane._watching
    pane.end_stream()
    qtbot.waitUntil(lambda: not pane._watching and settled(pane), timeout=5000)
    assert shows.seen == []  # its bubble never showed ...
    assert _on_screen(pane) == before  # ... and the chat shows what it showed before
    assert _shows_a_whole_new_paint(pane)


def test_the_render_that_first_fills_the_view_resizes_and_repaints_nothing_above_it(
    qtbot: QtBot,
) -> None:
    """A short chat grows past its view while an answer streams: its scroll bar appearing took
    its width from the chat's, so every item was laid out again at the narrower width and the
    whole view repainted, in the render's own loop turn (~5 ms render + ~6 ms repaint: a run's
    longest gap, bench_streaming). The bar's place is kept from the start: the items above the
    bubble keep their size and pixels, and the screen still shows what a whole new paint shows."""
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.resize(420, 600)
    pane.show()
    qtbot.waitUntil(lambda: pane.windowHandle() is not None and pane.windowHandle().isExposed())
    question = pane.add_message("user", "question")
    answer = pane.add_message("answer", ANSWER)
    bar = pane.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: answer.isVisible() and answer.height() > 0)
    QCoreApplication.sendPostedEvents()  # the first paint
    assert bar.maximum() == 0  # it all fits
    width = pane.scroll_area.viewport().width()
    shown: list[str] = []
    pane.writingShown.connect(shown.append)
    _stream(qtbot, pane, ["The step. "], shown)
    assert bar.maximum() == 0  # still
    resized = resizes(pane.scroll_area)
    painted = AppEvents(pane.scroll_area, QEvent.Type.Paint)
    for _ in range(40):  # until the chat is taller than its view, and a render more
        _stream(qtbot, pane, ["is about 1.02 µs for glass beads " * 2], shown)
        if bar.maximum() > 0:
            break
    _stream(qtbot, pane, ["and more words"], shown)
    QCoreApplication.sendPostedEvents()  # the last repaint
    assert bar.maximum() > 0 and bar.value() == bar.maximum()
    assert pane.scroll_area.viewport().width() == width
    assert question not in resized.widgets and answer not in resized.widgets
    assert question not in painted.widgets and answer not in painted.widgets
    assert _shows_a_whole_new_paint(pane)


def test_new_trace_rows_wait_until_the_answer_has_been_shown_step_by_step(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each step of the final answer's show (made, read, laid out, painted ahead, shown) keeps
    the trace table's new rows waiting, as a render of the streamed text does: a step and the
    table's repaint in one loop pass made one of a run's longest gaps."""
    from caec_desktop.ui import main_window, trace_model

    runner = SessionRunner(FakeSession([]))
    window = MainWindow(runner, Settings(mode="local", base_url="http://127.0.0.1:1/v1"))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.windowHandle() is not None and window.windowHandle().isExposed())
    chat = window.chat
    start, delta, end = events(
        ("run_start", None, {"text": "q"}), _delta("The step is"), ("run_end", None, {})
    )
    runner.runStarted.emit("ask")
    runner.eventReceived.emit(start)
    with qtbot.waitSignal(chat.writingRepainting, timeout=5000):  # rendered, its repaint asked
        runner.eventReceived.emit(delta)
    assert "The step is" in _bubbles(chat, "writing")[0].text()
    window.trace.flush()
    order: list[str] = []
    chat.answerStep.connect(lambda: order.append("step"))
    window.trace.model.rowsInserted.connect(lambda *_: order.append("rows"))
    monkeypatch.setattr(trace_model, "FLUSH_MS", 2)  # due while the answer is being shown ...
    monkeypatch.setattr(main_window, "_trace_after_render_ms", lambda: 300)  # ... but it waits
    runner.eventReceived.emit(end)  # a trace row to insert
    runner.runFinished.emit(TurnResult(answer="The step is 1.02 µs.", status="answered"))
    qtbot.waitUntil(lambda: "rows" in order, timeout=5000)
    assert order.count("step") > 4  # made, read, laid out, its text laid out, a band, shown
    assert order[-1] == "rows" and "rows" not in order[:-1]
    assert not _bubbles(chat, "writing") and _bubbles(chat, "answer")[-1].isVisible()
