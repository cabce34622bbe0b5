"""Chat bubbles keep their painted text as a pixmap (ui/wrap_label.py): what they draw from it is
what a direct paint draws, and it follows their text, width, palette and selection."""

from __future__ import annotations

import gc

import pytest
from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPalette
from PySide6.QtWidgets import QApplication, QWidget
from pytestqt.qtbot import QtBot

from caec_desktop.ui import wrap_label
from caec_desktop.ui.chat_pane import WRITING_NOTE, Bubble, ChatPane

ANSWER = (
    "**Time step**: 1.02e-6 s\n\n- from the Rayleigh wave speed\n- [source](https://x.org)\n\n"
    + "The particle radius and the shear modulus set it. " * 8
)


def _chat(qtbot: QtBot, width: int = 560) -> ChatPane:
    pane = ChatPane()
    qtbot.addWidget(pane)
    pane.resize(width, 800)
    pane.show()
    qtbot.waitUntil(lambda: pane.windowHandle() is not None and pane.windowHandle().isExposed())
    return pane


def _shown(qtbot: QtBot, label: Bubble) -> None:
    """Wait until the chat has laid `label` out and shows it."""
    qtbot.waitUntil(
        lambda: (
            not label.visibleRegion().isEmpty()
            and label.height() == label.heightForWidth(label.width())
        )
    )


def _painted_twice(label: Bubble) -> QImage:
    """What the label shows once it has painted twice at its size (the second paint keeps it)."""
    label.repaint()
    label.repaint()
    return label.grab().toImage()


def _direct(label: Bubble) -> QImage:
    """What the label shows painted directly (no pixmap), its pixmap kept off afterwards."""
    label.set_paint_cache(False)
    return label.grab().toImage()


def test_a_bubble_draws_from_its_pixmap_the_pixels_of_a_direct_paint(qtbot: QtBot) -> None:
    pane = _chat(qtbot)
    bubbles = [
        pane.add_message("user", "Rayleigh step for 1 mm glass beads"),
        pane.add_message("answer", ANSWER),
        pane.add_message("error", "The model did *not* answer"),
    ]
    for bubble in bubbles:
        assert isinstance(bubble, Bubble)
        _shown(qtbot, bubble)
        cached = _painted_twice(bubble)
        assert bubble.paint_cached()
        assert cached == _direct(bubble)


def test_a_bubble_is_painted_into_its_pixmap_without_a_walk_over_the_window(qtbot: QtBot) -> None:
    """Painted ahead, a bubble's pixmap is painted by a twin out of the window: `render` of the
    shown bubble itself first sent every widget of the window its pending move and resize
    events (a walk over all of them: ~10 ms a bubble in a chat of 1,000 reopened turns), so a
    widget resized while hidden got its resize event there. The pixmap is still what a direct
    paint draws, for each role and in a font of the bubble's own."""
    pane = _chat(qtbot)
    elsewhere = QWidget(pane)  # a widget of the window, out of the chat
    elsewhere.hide()
    resizes: list[QEvent.Type] = []
    elsewhere.installEventFilter(_Recorder(pane, QEvent.Type.Resize, resizes))
    bubbles = [
        pane.add_message("user", "Rayleigh step for 1 mm glass beads"),
        pane.add_message("answer", ANSWER),
        pane.add_message("error", "The model did *not* answer"),
    ]
    font = QFont(bubbles[1].font())
    font.setPointSize(font.pointSize() + 3)
    bubbles[1].setFont(font)
    for i, bubble in enumerate(bubbles):
        assert isinstance(bubble, Bubble)
        _shown(qtbot, bubble)
        elsewhere.resize(40 + i, 40)  # hidden: its resize event waits
        assert elsewhere.testAttribute(Qt.WidgetAttribute.WA_PendingResizeEvent)
        bubble.paint_ahead(bubble.width())
        assert bubble.paint_cached()
        assert elsewhere.testAttribute(Qt.WidgetAttribute.WA_PendingResizeEvent)
        assert not resizes
        assert bubble.grab().toImage() == _direct(bubble)
        resizes.clear()  # (`grab` renders the bubble itself: it sent the event)


def test_the_writing_bubble_s_note_and_pieces_are_painted_without_a_walk_over_the_window(
    qtbot: QtBot,
) -> None:
    """The "model is writing…" note and each finished piece of a streamed answer are painted into
    their pixmaps by the twin out of the window too (they were rendered themselves: in a chat
    of 1,000 reopened turns, ~10 ms or more for each piece, a loop turn of it while the answer
    streams): a widget of the window resized while hidden keeps its resize event waiting, and
    the pixmap is what a direct paint draws."""
    pane = _chat(qtbot, width=420)
    elsewhere = QWidget(pane)
    elsewhere.hide()
    resizes: list[QEvent.Type] = []
    elsewhere.installEventFilter(_Recorder(pane, QEvent.Type.Resize, resizes))
    pane.add_message("user", "Rayleigh step for 1 mm glass beads, and explain it")
    shown: list[str] = []
    pane.writingShown.connect(shown.append)
    for i in range(5):  # paragraphs: the text is cut into pieces at the blank lines
        count = len(shown)
        pane.stream_text(f"Paragraph {i}: **the step** " + "is about 1.02 µs; " * 12 + "\n\n")
        qtbot.waitUntil(lambda n=count: len(shown) > n, timeout=5000)
    (writing,) = [w for w in pane.items() if w.property("role") == "writing"]
    texts = writing.pieces()
    assert len(texts) > 2
    labels = [w for w in writing.findChildren(Bubble) if w.isVisible() and w.height() > 0]
    note, finished = labels[0], labels[1 : len(texts)]
    assert note.text() == WRITING_NOTE and [p.text() for p in finished] == texts[:-1]
    qtbot.waitUntil(lambda: not writing.has_unpainted(), timeout=5000)  # (the chat's own)
    for i, label in enumerate([note, *finished]):
        elsewhere.resize(40 + i, 40)  # hidden: its resize event waits
        assert elsewhere.testAttribute(Qt.WidgetAttribute.WA_PendingResizeEvent)
        label.paint_ahead(label.width())  # (paints anew)
        assert label.paint_cached()
        assert elsewhere.testAttribute(Qt.WidgetAttribute.WA_PendingResizeEvent)
        assert not resizes
        assert label.grab().toImage() == _direct(label)
        resizes.clear()  # (`grab` renders the label itself: it sent the event)


class _Recorder(QObject):
    """Records the events of one type its watched widget gets."""

    def __init__(self, parent: QObject, kind: QEvent.Type, seen: list[QEvent.Type]) -> None:
        super().__init__(parent)
        self.kind = kind
        self.seen = seen

    def eventFilter(self, _watched: QObject, event: QEvent) -> bool:
        if event.type() == self.kind:
            self.seen.append(event.type())
        return False


def test_a_cached_bubble_shows_its_new_text(qtbot: QtBot) -> None:
    pane = _chat(qtbot)
    bubble = pane.add_message("answer", ANSWER)
    assert isinstance(bubble, Bubble)
    _shown(qtbot, bubble)
    before = _painted_twice(bubble)
    assert bubble.paint_cached()
    bubble.setText(ANSWER.replace("1.02e-6", "3.75e-7"))
    assert not bubble.paint_cached()
    after = _painted_twice(bubble)
    assert bubble.paint_cached()
    assert after != before
    assert after == _direct(bubble)


def test_a_cached_bubble_rewraps_to_a_new_width(qtbot: QtBot) -> None:
    pane = _chat(qtbot, width=560)
    bubble = pane.add_message("answer", ANSWER)
    assert isinstance(bubble, Bubble)
    _shown(qtbot, bubble)
    wide = _painted_twice(bubble)
    old_width = bubble.width()
    pane.resize(380, 800)
    qtbot.waitUntil(lambda: bubble.width() < old_width)
    _shown(qtbot, bubble)
    narrow = _painted_twice(bubble)
    assert bubble.paint_cached()
    assert narrow.width() < wide.width()
    assert narrow == _direct(bubble)


def test_a_cached_bubble_follows_a_palette_change(qtbot: QtBot) -> None:
    pane = _chat(qtbot)
    bubble = pane.add_message("answer", ANSWER)
    assert isinstance(bubble, Bubble)
    _shown(qtbot, bubble)
    black = _painted_twice(bubble)
    red = QPalette(bubble.palette())
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text):
        red.setColor(role, QColor("#c03030"))
    bubble.setPalette(red)
    assert not bubble.paint_cached()
    recoloured = _painted_twice(bubble)
    assert bubble.paint_cached()
    assert recoloured != black
    assert recoloured == _direct(bubble)


def test_a_cached_bubble_shows_what_a_direct_paint_shows_after_a_new_app_palette(
    qtbot: QtBot,
) -> None:
    """A theme switch (the application's palette) draws the bubble as a direct paint does."""
    pane = _chat(qtbot)
    bubble = pane.add_message("answer", ANSWER)
    assert isinstance(bubble, Bubble)
    _shown(qtbot, bubble)
    _painted_twice(bubble)
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    original = app.palette()
    dark = QPalette(original)
    for role, colour in [
        (QPalette.ColorRole.Window, "#202020"),
        (QPalette.ColorRole.WindowText, "#e0e0e0"),
        (QPalette.ColorRole.Text, "#e0e0e0"),
        (QPalette.ColorRole.Base, "#101010"),
    ]:
        dark.setColor(role, QColor(colour))
    try:
        app.setPalette(dark)
        QCoreApplication.processEvents()
        assert _painted_twice(bubble) == _direct(bubble)
    finally:
        app.setPalette(original)


def test_a_selection_paints_directly_and_the_pixmap_returns_after_it(qtbot: QtBot) -> None:
    pane = _chat(qtbot)
    bubble = pane.add_message("answer", ANSWER)
    assert isinstance(bubble, Bubble)
    _shown(qtbot, bubble)
    plain = _painted_twice(bubble)
    bubble.setSelection(0, 9)
    assert bubble.selectedText() == "Time step"
    selected = bubble.grab().toImage()
    assert selected != plain  # the selection shows
    bubble.set_paint_cache(False)
    assert bubble.grab().toImage() == selected
    bubble.set_paint_cache(True)
    bubble.setSelection(0, 0)
    assert not bubble.hasSelectedText()
    assert _painted_twice(bubble) == plain
    assert bubble.paint_cached()


def test_text_that_changes_between_paints_is_never_kept(qtbot: QtBot) -> None:
    """The streamed answer's last piece: each paint shows new text, none pays for a pixmap."""
    pane = _chat(qtbot)
    bubble = pane.add_message("answer", "first")
    assert isinstance(bubble, Bubble)
    _shown(qtbot, bubble)
    for words in range(2, 6):
        bubble.setText(" ".join(["word"] * words))
        bubble.repaint()
        assert not bubble.paint_cached()


def test_pixmaps_beyond_the_budget_are_dropped_oldest_first(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    pane = _chat(qtbot)
    first = pane.add_message("answer", ANSWER)
    second = pane.add_message("answer", ANSWER)
    assert isinstance(first, Bubble) and isinstance(second, Bubble)
    _shown(qtbot, first)
    _shown(qtbot, second)
    rect = first.contentsRect()
    one = rect.width() * rect.height() * 4  # bytes of one bubble's pixmap (pixel ratio 1)
    monkeypatch.setattr(wrap_label, "PAINT_CACHE_BYTES", one + one // 2)
    first.setText(ANSWER)  # kept again, now under the small budget
    _painted_twice(first)
    assert first.paint_cached()
    second.setText(ANSWER)
    _painted_twice(second)
    assert second.paint_cached()
    assert not first.paint_cached()
    assert wrap_label.paint_cache_bytes() <= one + one // 2
    assert _painted_twice(first) == _direct(first)  # drawn again (and kept again) as before


def test_a_deleted_bubble_gives_its_pixmap_back(qtbot: QtBot) -> None:
    pane = _chat(qtbot)
    held = wrap_label.paint_cache_bytes()
    bubble = pane.add_message("answer", ANSWER)
    assert isinstance(bubble, Bubble)
    _shown(qtbot, bubble)
    _painted_twice(bubble)
    assert wrap_label.paint_cache_bytes() > held
    pane.clear()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    del bubble
    gc.collect()
    assert wrap_label.paint_cache_bytes() == held


def test_pieces_of_the_streamed_answer_draw_the_frames_colour_from_their_pixmap(
    qtbot: QtBot,
) -> None:
    """The writing bubble's pieces have the frame's background: kept, the note and the finished
    pieces draw as before. The last piece, which the next render changes, keeps no pixmap."""
    pane = _chat(qtbot)
    with qtbot.waitSignal(pane.writingShown):
        pane.stream_text("**Streamed** answer. " * 10 + "\n\n" + "More text here. " * 40)
    (writing,) = [w for w in pane.items() if w.property("role") == "writing"]
    qtbot.waitUntil(writing.updatesEnabled)  # paints a turn after a render
    pieces = [  # (not the spare piece made ahead, out of the layout)
        w for w in writing.findChildren(Bubble) if writing.layout().indexOf(w) >= 0
    ]
    assert len(pieces) >= 3  # the note and the text cut into pieces
    for piece in pieces:
        _shown(qtbot, piece)
        cached = _painted_twice(piece)
        assert piece.paint_cached() is (piece is not pieces[-1])
        assert cached == _direct(piece)


def test_finished_pieces_are_painted_into_their_pixmaps_after_the_render_shows_them(
    qtbot: QtBot,
) -> None:
    """A piece finished by a render is painted into its pixmap on a later loop turn, not in a
    repaint: a repaint that takes it in again draws the pixmap, the pixels of a direct paint.
    The growing last piece never gets one (each render changes it)."""
    pane = _chat(qtbot)
    shown: list[str] = []
    pane.writingShown.connect(shown.append)
    for i in range(4):
        pane.stream_text(f"Paragraph {i}: " + "the step follows the shear wave speed. " * 6)
        pane.stream_text("\n\n")
        qtbot.waitUntil(lambda n=i + 1: len(shown) == n)
    (writing,) = [w for w in pane.items() if w.property("role") == "writing"]
    pieces = [w for w in writing.findChildren(Bubble) if writing.layout().indexOf(w) >= 0][1:]
    assert len(pieces) >= 3
    finished, last = pieces[:-1], pieces[-1]
    qtbot.waitUntil(lambda: all(piece.paint_cached() for piece in finished))
    assert not last.paint_cached()
    QCoreApplication.sendPostedEvents()  # the last repaint
    last.repaint()
    last.repaint()
    assert not last.paint_cached()
    for piece in finished:
        kept = piece.grab().toImage()
        assert piece.paint_cached()
        assert kept == _direct(piece)


def test_clear_number_alignment_and_margin_repaint_a_cached_bubble(qtbot: QtBot) -> None:
    pane = _chat(qtbot)
    bubble = pane.add_message("answer", "short answer")
    assert isinstance(bubble, Bubble)
    _shown(qtbot, bubble)
    shown = _painted_twice(bubble)
    changes = [
        lambda: bubble.setAlignment(Qt.AlignmentFlag.AlignRight),
        lambda: bubble.setMargin(3),
        lambda: bubble.setIndent(20),
        lambda: bubble.setNum(42),
        bubble.clear,
    ]
    for change in changes:
        assert bubble.paint_cached()
        change()
        assert not bubble.paint_cached()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        now = _painted_twice(bubble)
        assert now != shown
        assert now == _direct(bubble)
        bubble.set_paint_cache(True)
        shown = _painted_twice(bubble)


def test_a_bubble_too_large_for_its_share_of_the_budget_paints_directly(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    pane = _chat(qtbot)
    bubble = pane.add_message("answer", ANSWER)
    assert isinstance(bubble, Bubble)
    _shown(qtbot, bubble)
    rect = bubble.contentsRect()
    monkeypatch.setattr(wrap_label, "LABEL_CACHE_BYTES", rect.width() * rect.height() * 4 - 1)
    bubble.setText(ANSWER)
    direct = _painted_twice(bubble)
    assert not bubble.paint_cached()
    assert direct == _direct(bubble)


def test_a_bubble_without_room_for_text_paints_directly(qtbot: QtBot) -> None:
    pane = _chat(qtbot)
    bubble = pane.add_message("answer", ANSWER)
    assert isinstance(bubble, Bubble)
    _shown(qtbot, bubble)
    bubble.setContentsMargins(0, 0, 0, bubble.height())  # an empty contents rectangle
    assert bubble.contentsRect().isEmpty()
    _painted_twice(bubble)
    assert not bubble.paint_cached()


def test_a_bubble_painted_ahead_in_bands_draws_what_a_direct_paint_draws(qtbot: QtBot) -> None:
    """`paint_ahead` in three bands, a call each: the pixmap holds what a direct paint shows;
    a text changed between two bands makes the next paint direct again."""
    pane = _chat(qtbot)
    bubble = pane.add_message("answer", ANSWER)
    assert isinstance(bubble, Bubble)
    _shown(qtbot, bubble)
    width = bubble.width()
    for part in range(3):
        bubble.paint_ahead(width, part, 3)
    assert bubble.paint_cached()
    assert bubble.grab().toImage() == _direct(bubble)
    bubble.set_paint_cache(True)
    bubble.paint_ahead(width, 0, 3)
    bubble.setText(ANSWER.replace("1.02e-6", "3.75e-7"))
    bubble.paint_ahead(width, 1, 3)
    bubble.paint_ahead(width, 2, 3)
    assert not bubble.paint_cached()
    QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
    assert bubble.grab().toImage() == _direct(bubble)


def test_a_hidden_bubble_laid_out_ahead_then_painted_ahead_shows_a_direct_paints_pixels(
    qtbot: QtBot,
) -> None:
    """`lay_out_ahead` sizes a hidden bubble to its height at the chat's width and paints one
    pixel directly (Qt lays the text out for that size), keeping no pixmap; the bands painted
    ahead after it are what it first draws once shown: the pixels of a direct paint."""
    pane = _chat(qtbot)
    bubble = pane.add_message("answer", ANSWER)
    assert isinstance(bubble, Bubble)
    _shown(qtbot, bubble)
    width = bubble.width()
    bubble.hide()
    bubble.setText(ANSWER.replace("1.02e-6", "3.75e-7") * 2)  # new text, not laid out yet
    bubble.lay_out_ahead(width)
    assert bubble.size().toTuple() == (width, bubble.heightForWidth(width))
    assert not bubble.paint_cached()
    for part in range(3):
        bubble.paint_ahead(width, part, 3)
    assert bubble.paint_cached()
    bubble.show()
    _shown(qtbot, bubble)
    assert bubble.paint_cached()  # its first paint draws the pixmap ...
    assert bubble.grab().toImage() == _direct(bubble)  # ... the pixels of a direct paint


def test_laying_a_hidden_answer_out_ahead_renders_its_twin_not_itself(
    qtbot: QtBot, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`lay_out_ahead` paints its one pixel with the twin that paints the bands, not with the
    bubble: Qt's render of a hidden widget first lays out every shown widget of its window
    (~25 ms with 1,000 turns in the chat, the longest step of a streamed run's end there). The
    bubble is sized to its height at the width and keeps no pixmap; painted ahead, it draws
    the pixels of a direct paint."""
    pane = _chat(qtbot)
    bubble = pane.add_message("answer", ANSWER)
    assert isinstance(bubble, Bubble)
    _shown(qtbot, bubble)
    width = bubble.width()
    bubble.hide()
    bubble.setText(ANSWER * 2)
    rendered: list[QWidget] = []
    render = QWidget.render

    def spy(widget: QWidget, *args: object) -> None:
        rendered.append(widget)
        render(widget, *args)  # type: ignore[call-overload]

    monkeypatch.setattr(wrap_label.WrapLabel, "render", spy)
    bubble.lay_out_ahead(width)
    assert rendered and bubble not in rendered
    assert bubble.size().toTuple() == (width, bubble.heightForWidth(width))
    assert not bubble.paint_cached()
    monkeypatch.undo()
    for part in range(3):
        bubble.paint_ahead(width, part, 3)
    bubble.show()
    _shown(qtbot, bubble)
    assert bubble.paint_cached()
    assert bubble.grab().toImage() == _direct(bubble)
