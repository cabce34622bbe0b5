"""ChatPane: the conversation (user turns, answers, tool result cards) and the message box.

The view follows the conversation: each new item (answer, error, refusal, card, streamed text)
scrolls into view unless the reader scrolled up, in which case a "↓ New answer" button appears
instead; a turn taller than the view stops at its question, a "↓ Rest of the answer" button under
it. Messages wrap to the pane's width and the pane never scrolls sideways; wide content
scrolls inside its own card. An empty conversation shows the welcome panel.

During a run the message box stays editable: Enter (or the Queue button) queues the question,
shown above the box with a ✕ to remove it, and the queue is asked in order as runs end; the
Stop button (or Esc) stops the run.

While a model writes its answer, a "model is writing…" bubble grows with the streamed text; it is
re-rendered at most once per `RENDER_INTERVAL_MS` however fast text arrives, and removed when the
model call ends, where the final answer takes its place.

A reopened conversation shows its newest turn at once and keeps the older ones as pending
replays (`set_older`, `add_older`) in empty slots of about their height (`_Slot`), so the scroll
bar spans the whole conversation from the start and a jump to its top is a jump. The turns of a
slot near the view (`FILL_MARGIN_SCREENS`), or below its top (scrolled past before they were
built), are made into widgets `OLDER_PAGE_TURNS` at a time, a widget after the other for up to
`FILL_BUDGET_MS` a loop turn, into a hidden page (`_Page`) that then takes their place in one
step, the view staying on what it showed. Pages go into chapters (`_Chapter`) of up to
`CHAPTER_PAGES`, so placing one lays out a few dozen items, above 1,000 turns as above 10.
The bubbles of pages placed above the view are painted into their pixmaps on the loop turns
that have no turn near the view left to build (in the same budget), so they come into view
without a first paint of their text.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any, cast

import shiboken6
from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import (
    QCoreApplication,
    QEvent,
    QMargins,
    QObject,
    QPoint,
    QRect,
    QSize,
    QTimer,
    Signal,
)
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from caec_desktop.ui.chat_input import IDLE_PLACEHOLDER, RUNNING_PLACEHOLDER, ChatInput
from caec_desktop.ui.loop_steps import StepQueue
from caec_desktop.ui.qt_children import viewport
from caec_desktop.ui.question_queue import QuestionQueue
from caec_desktop.ui.result_card import ResultCard
from caec_desktop.ui.welcome_panel import WelcomePanel
from caec_desktop.ui.wrap_label import WrapLabel

if TYPE_CHECKING:
    from PySide6.QtGui import QPaintEvent, QPalette, QRegion
    from PySide6.QtWidgets import QScrollBar

    from caec_desktop.ui.sweep_card import SweepCard

_STYLES = {
    "user": "background: #e8f0fe; border-radius: 6px; padding: 6px;",
    "answer": "background: #f6f6f6; border-radius: 6px; padding: 6px;",
    "error": "background: #fdecea; color: #8a1c1c; border-radius: 6px; padding: 6px;",
    "writing": "background: #f6f6f6; border: 1px dashed #b0b0b0; border-radius: 6px; padding: 6px;",
}
_PIECE_STYLE = "background: #f6f6f6;"
"""A piece of the writing bubble (the note, each streamed piece): the frame's colour."""
_SHEET = "\n".join(
    [
        f'{"WritingBubble" if role == "writing" else "Bubble"}[role="{role}"] {{ {style} }}'
        for role, style in _STYLES.items()
    ]
    + [f"WritingBubble > Bubble {{ {_PIECE_STYLE} }}"]
)
"""One style sheet on the chat for every bubble, by its role: a style sheet per bubble made Qt
build a style for each one (~0.1 ms per event on every bubble, seconds for a long chat). Every
`Bubble` gets an opaque background from it, so it can keep its painted text: by its role, or as a
piece of the writing bubble, the frame's colour."""
WRITING_NOTE = "*model is writing…*"
RENDER_INTERVAL_MS = 25
"""Delay from streamed text to its render, and the least time between two renders (the LLM layer
sends a delta event every 50 ms). The window keeps renders and new trace rows half of it apart
(see `MainWindow`), so the table's repaint does not share a frame with the chat's."""
PIECE_CHARS = 400
"""The streamed text's last piece is cut at a block boundary (`markdown_blocks.last_cut`) once it
is longer than this: each render then lays out at most about this much text, not the answer."""
LAYOUT_PASSES = 4
"""Layout requests a render sends at once: one per level from a piece of the writing bubble up
to the chat's scroll area (one spare)."""
SHOW_LATER_MS = 1
"""A new result card's table is placed this long after the card is built, and the card shown as
long after that: each on a later loop turn (a 0 ms single shot is a posted call, run in the same
pass as the build's own posted work)."""
ANSWER_BAND_PX = 200
"""The final answer is painted ahead in bands of this height, one loop turn each (see
`ChatPane._paint_answer`): in two fixed halves, each half of a long answer took ~3-6 ms of its
turn; a band costs ~1.5-2 ms (Qt lays the chat out for each `render` of a hidden widget, ~1 ms,
so more bands a turn cost more than one taller band)."""
OLDER_PAGE_TURNS = 3
"""Older turns made into widgets together and shown in one step (one page): showing a page lays
out and paints its turns at once (~1-2 ms a turn), so it stays inside a frame."""
TURN_PX = 300
"""Height a slot gives each turn not built yet until turns of the conversation were measured (a
request, a result card and its answer are ~250-450 px)."""
FILL_BUDGET_MS = 4.0
"""Time a loop turn spends building older turns (a widget at least: ~0.5-3 ms each), the rest of
the frame left to the layout and paint: built one widget per loop turn, a page took longer to
build than a reader takes to scroll past it with the wheel."""
OLDER_LATER_MS = 16
"""Older turns given (`add_older`) are built from this long after: a frame later than the loop
pass that gave them."""
CHAPTER_PAGES = 16
"""Pages of older turns laid out together as one item of the chat (see `_Chapter`)."""
FILL_MARGIN_SCREENS = 1.0
"""Older turns are built when their slot comes this many view heights close to the view: built
ahead of a reader scrolling up, so a page lands above the view, not in it."""
SCROLL_BUSY_MS = 500
"""The chat counts as busy (see `ChatPane.busy`) this long after it last scrolled."""
FOLLOW_SLACK_PX = 8
"""The reader counts as "at the end" this close to the bottom (a wheel step is ~60 px)."""
PIN_MARGIN_PX = 8
"""Room above the turn's question when the view stops at it (`ChatPane._follow_value`)."""
NEW_ANSWER = ("↓ New answer", "Show the newest message (you scrolled up to read)")
"""The end button's words when the reader scrolled up and something new came below."""
REST_OF_ANSWER = ("↓ Rest of the answer", "The answer goes on below its first lines: show its end")
"""Its words when the view stopped at the turn's question (`_follow_value`): nothing new came
that the reader missed, the answer is longer than the view ("New answer" there read as if a
second answer had arrived)."""
ANSWER_SHARE = 1 / 3
"""The least share of the view left to the answer's first lines when the view stops at a tall
question (`ChatPane._follow_value`): a question up to the rest shows whole, from its first line."""


class Bubble(WrapLabel):
    """A chat bubble: a word-wrapped label that remembers its height for each width and its
    painted text (see `wrap_label`: every growth of a streamed answer scrolls the chat and
    repaints each visible bubble; the chat's style sheet gives every bubble an opaque
    background), with size hints that lay nothing out."""

    def __init__(self, text: str = "") -> None:
        super().__init__(text)
        self.set_paint_cache(True)

    def minimumSizeHint(self) -> QSize:
        """Narrow enough for any pane (the text wraps instead of widening the chat), one line
        high. QLabel's own hints lay the whole text out three times (unwrapped, at its narrowest
        and at a trial width; ~3.5 ms each for a 300-word answer) and the chat's layout, which
        sizes each bubble by `heightForWidth`, needs neither."""
        return QSize(40, self._line_height())

    def sizeHint(self) -> QSize:
        """About 80 characters wide, one line high (see `minimumSizeHint`)."""
        margins = self.contentsMargins()
        width = self.fontMetrics().averageCharWidth() * 80 + margins.left() + margins.right()
        return QSize(width, self._line_height())

    def _line_height(self) -> int:
        self.ensurePolished()  # the chat's style sheet gives the padding
        margins = self.contentsMargins()
        return self.fontMetrics().height() + margins.top() + margins.bottom()

    def render_twin(self) -> QWidget | None:
        """The chat's twin for the bubble's role, or for a piece of the writing bubble (the
        note, a finished streamed piece: styled by the frame's colour), set to paint what the
        bubble paints (`_Host.twin`); None for a bubble out of a chat, or with neither: the
        bubble itself is rendered."""
        role = self.property("role")
        parent = self.parentWidget()
        if role not in _STYLES or role == "writing":
            if not isinstance(parent, WritingBubble):
                return None
            role = _PIECE
        while parent is not None and not isinstance(parent, _Host):
            parent = parent.parentWidget()
        return parent.twin(self, role) if parent is not None else None


class WritingBubble(QFrame):
    """The "model is writing…" bubble: the note, then the streamed Markdown in pieces cut at block
    boundaries. Finished pieces keep their layout; each render sets only the last piece's text."""

    def __init__(self) -> None:
        super().__init__()
        self.setProperty("role", "writing")
        self._lay = _ChatLayout(self)  # a new piece shown squeezed every piece above it
        self._lay.setContentsMargins(0, 0, 0, 0)
        self._lay.setSpacing(self.fontMetrics().height() // 2)  # as between two paragraphs
        self._label(WRITING_NOTE).set_paint_cache(True)  # (it never changes)
        self._pieces: list[Bubble] = []
        self._spare: Bubble | None = None
        """The next piece, made ahead out of the layout (`prepare_piece`)."""
        self._cut = 0
        """Where the last piece starts in the text."""
        self._shown = ""
        self._unpainted: list[Bubble] = []
        """Finished pieces not painted into their pixmaps yet (`paint_finished`)."""
        self._held: tuple[int, QRect] | None = None
        """While held (`hold`): the first piece a render may change, and the bubble's geometry."""
        from PySide6.QtGui import QRegion  # (its class takes PySide6 ms to build: when used)

        self._owed = QRegion()
        """What `release` asked to repaint that the bubble has not painted yet: Qt paints no
        held widget, so a render held before that repaint came would drop it."""

    def text(self) -> str:
        """The note, then the text rendered so far (what the bubble reads as)."""
        return f"{WRITING_NOTE}\n\n{self._shown}" if self._shown else WRITING_NOTE

    def pieces(self) -> list[str]:
        """The text of each piece, in order."""
        return [piece.text() for piece in self._pieces]

    def show_text(self, text: str) -> None:
        """Render `text`, the whole answer so far (it only ever grows), and lay it out at the
        bubble's width (each piece remembers its height there: `WrapLabel`). The pieces are
        placed on a later loop turn (`place`): till then the bubble's layout is off, so the
        layout requests the new text posts do not lay the chat out on the next pass."""
        from caec_desktop.ui.markdown_blocks import last_cut, literal_markdown

        self._lay.setEnabled(False)

        if not self._pieces:
            self._pieces.append(self._next_piece())
        if len(text) - self._cut > PIECE_CHARS:
            cut = last_cut(text, self._cut)
            if cut > self._cut:  # the last piece ends at the cut and is laid out no more
                finished = self._pieces[-1]
                finished.setText(literal_markdown(text[self._cut : cut]))
                finished.set_paint_cache(True)
                self._unpainted.append(finished)
                self._pieces.append(self._next_piece())
                self._cut = cut
        last = literal_markdown(text[self._cut :])  # the model's text, shown as written
        if self._pieces[-1].text() != last:
            self._pieces[-1].setText(last)
        self._shown = text
        self.heightForWidth(self.width())

    def shown(self) -> str:
        """The text rendered so far (the model's words, without the note)."""
        return self._shown

    def place(self) -> None:
        """Let the bubble's layout place its pieces again, on the loop turn after `show_text`
        (its layout request is taken with the chat's: `ChatPane._place_render`)."""
        self._lay.setEnabled(True)
        QCoreApplication.postEvent(self, QEvent(QEvent.Type.LayoutRequest))

    def hold(self) -> None:
        """Take no paints until `release`: the bubble, and the pieces a render changes (the last
        one and those it adds). The pieces above keep taking theirs."""
        if self._held is not None:
            return
        self._held = (max(0, len(self._pieces) - 1), self.geometry())
        disabled = QtCore.Qt.WidgetAttribute.WA_UpdatesDisabled
        for widget in [self, *self._pieces[self._held[0] :], self._spare]:
            if widget is not None:  # (a piece made meanwhile is held by its parent)
                widget.setAttribute(disabled, True)

    def release(self, via: QWidget | None = None) -> None:
        """Take paints again and repaint what the renders since `hold` changed: the bubble from
        the top of the first piece they changed down (its end, the grown frame). The pieces
        above did not change or move: repainting them too (what `setUpdatesEnabled` does) made
        each render's repaint grow with the answer. The repaint is asked of `via` (an ancestor)
        when given, with what it has to repaint already (see `ChatPane._show_render`)."""
        if self._held is None:
            return
        first, before = self._held
        self._held = None
        disabled = QtCore.Qt.WidgetAttribute.WA_UpdatesDisabled
        forced = QtCore.Qt.WidgetAttribute.WA_ForceUpdatesDisabled
        if self.testAttribute(forced):  # turned off meanwhile: all of it repaints when on again
            return
        for widget in [self, *self.findChildren(QWidget)]:
            if not widget.testAttribute(forced):
                widget.setAttribute(disabled, False)
        now = self.geometry()
        moved = now.topLeft() != before.topLeft() or now.width() != before.width()
        if moved or now.height() < before.height() or first >= len(self._pieces):
            from PySide6.QtGui import QRegion

            self._owed = QRegion(self.rect())  # moved, a new width or shrunk: all of it
        else:
            top = self._pieces[first].y()
            self._owed += QRect(0, top, self.width(), self.height() - top)
        if via is None:
            self.update(self._owed)
        else:
            via.update(self._owed.translated(self.mapTo(via, QPoint(0, 0))))

    def paintEvent(self, event: QPaintEvent) -> None:
        self._owed -= event.region()
        super().paintEvent(event)

    def parent_painted(self, region: QRegion) -> None:
        """Its parent painted `region` (its own coordinates): while held, the bubble was not
        painted there (Qt paints no held widget), so `release` repaints it too."""
        if self._held is not None:
            self._owed += region.translated(-self.pos()) & type(region)(self.rect())

    def paint_finished(self) -> None:
        """Paint the finished pieces into their pixmaps (~1-1.5 ms each, a loop turn of its
        own after the repaint that first shows them): the repaints that take in a finished
        piece again (a scroll Qt cannot do by moving pixels) then draw its pixmap; made in such
        a repaint, each piece's pixmap cost ~1.5 ms of it, several in one frame."""
        for piece in self._unpainted:
            if piece.isVisible() and not piece.paint_cached():
                piece.paint_ahead(piece.width())
        self._unpainted = []

    def has_unpainted(self) -> bool:
        """Whether a finished piece waits to be painted into its pixmap."""
        return bool(self._unpainted)

    def wants_piece(self) -> bool:
        """Whether the next piece should be made ahead: none is, and the last piece is half
        way to its cut."""
        return self._spare is None and len(self._shown) - self._cut > PIECE_CHARS // 2

    def prepare_piece(self) -> None:
        """Make the next piece now, styled and shown but out of the layout, of no size (it
        paints nothing), so the render that needs it only fills it and puts it in the layout:
        making a piece took ~2.5 ms of a ~5 ms render, and showing one there laid the bubble
        and the whole chat out at once (Qt activates the layouts of a shown widget's parents),
        ~2 ms before the render's own layout did it again. Shown on a loop turn of its own,
        after the render's layout, those layouts have nothing to do."""
        if self._spare is None:
            piece = self._spare = self._piece("")
            piece.setParent(self)
            piece.setGeometry(0, 0, 0, 0)
            piece.ensurePolished()
            if self.isVisible():
                piece.show()

    def _next_piece(self) -> Bubble:
        piece, self._spare = self._spare, None
        if piece is None:
            return self._label("")
        self._lay.addWidget(piece)
        if self.isVisible() and not piece.isVisible():  # (made while the bubble was hidden)
            piece.show()
        return piece

    def _label(self, text: str) -> Bubble:
        label = self._piece(text)
        self._lay.addWidget(label)
        if self.isVisible():
            label.show()  # now, not from a call Qt posts (see `ChatPane._render_writing`)
        return label

    @staticmethod
    def _piece(text: str) -> Bubble:
        label = Bubble()
        # The last piece changes on every render: a pixmap of it would be thrown away by the
        # next one (a render's repaint paints it up to twice, and kept it from the second:
        # ~1 ms more than a direct paint). Kept once the piece is finished (`show_text`).
        label.set_paint_cache(False)
        label.setTextFormat(QtCore.Qt.TextFormat.MarkdownText)
        label.setText(text)
        label.setWordWrap(True)
        label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        return label


_PIECE = "piece"
"""The twin key of a piece of the writing bubble (`Bubble.render_twin`)."""
_TWIN_STYLES = {**_STYLES, _PIECE: _PIECE_STYLE}
"""A twin's style by its key: as the chat's sheet styles a bubble of that role, or a piece."""


_TWIN_SETTINGS: list[tuple[Callable[[QLabel], Any], Callable[[QLabel, Any], object]]] = [
    (QLabel.textFormat, QLabel.setTextFormat),
    (QLabel.wordWrap, QLabel.setWordWrap),
    (QLabel.textInteractionFlags, QLabel.setTextInteractionFlags),
    (QLabel.alignment, QLabel.setAlignment),
    (QLabel.indent, QLabel.setIndent),
    (QLabel.margin, QLabel.setMargin),
    (QLabel.openExternalLinks, QLabel.setOpenExternalLinks),
    (QLabel.text, QLabel.setText),
]
"""What a bubble's twin takes from the bubble before it paints (`_Host.twin`), the text last."""


def _paints_active(palette: QPalette) -> bool:
    """Whether a widget with `palette` (as `QWidget.palette()` returns it) paints the colours of
    the active group: in it, or in a group whose colours are the same."""
    from PySide6.QtGui import QPalette  # (its class is built on first use, after start-up)

    group = palette.currentColorGroup()
    active = QPalette.ColorGroup.Active
    if group == active:
        return True
    return all(
        palette.brush(group, role) == palette.brush(active, role)
        for role in QPalette.ColorRole
        if role not in (QPalette.ColorRole.NColorRoles, QPalette.ColorRole.NoRole)
    )


def _enable_updates(widget: QWidget) -> None:
    """What `widget.setUpdatesEnabled(True)` does after `setUpdatesEnabled(False)`, without
    asking any widget for a repaint: updates on again for `widget` and, as Qt does, for each
    widget inside it but those turned off on their own (and windows)."""
    forced = QtCore.Qt.WidgetAttribute.WA_ForceUpdatesDisabled
    disabled = QtCore.Qt.WidgetAttribute.WA_UpdatesDisabled
    direct = QtCore.Qt.FindChildOption.FindDirectChildrenOnly
    widget.setAttribute(forced, False)
    todo = [widget]
    while todo:
        w = todo.pop()
        w.setAttribute(disabled, False)
        todo += [
            c
            for c in w.findChildren(QWidget, options=direct)  # (filtered in C++: see below)
            if not c.isWindow() and not c.testAttribute(forced)
        ]


def _unshown(widget: QWidget) -> bool:
    """Whether `widget`, shown with its updates off (`setUpdatesEnabled(False)`), has not been
    let paint yet (`_paint_in_place`)."""
    return widget.testAttribute(QtCore.Qt.WidgetAttribute.WA_ForceUpdatesDisabled)


def _paint_in_place(widget: QWidget) -> None:
    """Let `widget`, shown with its updates off, paint: updates on again (`_enable_updates`)
    and one repaint of its place asked of its parent, which paints it with whatever else of
    the parent's is due in that frame, once."""
    _enable_updates(widget)
    parent = widget.parentWidget()
    if parent is not None and widget.isVisible():
        parent.update(widget.geometry())


def _inner_width(widget: QWidget) -> int:
    """The width `widget`'s layout gives its items."""
    layout = widget.layout()
    margins = layout.contentsMargins() if layout is not None else QMargins()
    return widget.width() - margins.left() - margins.right()


class _ChatLayout(QVBoxLayout):
    """The chat's layout (and its pages'): it never gives its items less than their height.
    Asked to place them in less (the chat has grown a new item and the scroll area has not made
    it taller yet),
    QBoxLayout took the difference from every item, and gave it back a moment later: every
    bubble and card resized twice, repainted, and the bubbles' pixmaps lost (a new card at the
    end of a long chat: ~10 ms of direct paints). Placed at their heights, the items below the
    chat's bottom wait there, out of view, until the scroll area makes it taller."""

    def setGeometry(self, rect: QRect) -> None:
        need = self.heightForWidth(rect.width())
        if need > rect.height():
            rect = QRect(rect.x(), rect.y(), rect.width(), need)
        super().setGeometry(rect)


class _Host(QWidget):
    """The widget holding the chat's items, in its scroll area."""

    def __init__(self) -> None:
        super().__init__()
        self._twins: dict[str, WrapLabel] = {}
        """A label per bubble role (and one for the writing bubble's pieces), each a hidden
        window of its own (see `twin`)."""

    def twin(self, bubble: Bubble, role: str) -> WrapLabel | None:
        """A label that paints what `bubble` paints, for `WrapLabel.render_twin`: a hidden
        window of its own (its `render` walks itself only, not the chat's thousands of
        widgets), styled as the chat's sheet styles `role` (or a piece of the writing bubble,
        `_PIECE`), given the bubble's text, format, font and size. None when it would not
        paint the same: another palette (the bubble's own, or its window inactive with other
        colours: a hidden twin paints the active ones), disabled, or at another pixel ratio."""
        twin = self._twins.get(role)
        if twin is None:
            twin = self._twins[role] = WrapLabel()
            twin.setParent(self, QtCore.Qt.WindowType.Window)  # deleted with the chat
            twin.setStyleSheet(f"WrapLabel {{ {_TWIN_STYLES[role]} }}")
            twin.ensurePolished()
        if not bubble.isEnabled() or bubble.devicePixelRatioF() != twin.devicePixelRatioF():
            return None
        if bubble.logicalDpiY() != twin.logicalDpiY():
            return None
        if bubble.font() != twin.font():
            twin.setFont(bubble.font())
        palette = bubble.palette()
        if palette != twin.palette() or not _paints_active(palette):
            return None
        if bubble.layoutDirection() != twin.layoutDirection():
            twin.setLayoutDirection(bubble.layoutDirection())
        if bubble.contentsMargins() != twin.contentsMargins():
            twin.setContentsMargins(bubble.contentsMargins())
        for get, put in _TWIN_SETTINGS:
            value = get(bubble)
            if get(twin) != value:
                put(twin, value)
        if twin.size() != bubble.size():
            twin.resize(bubble.size())
        return twin

    def sizeHint(self) -> QSize:
        """Its height at its width (what the scroll area sizes it to), for the reason of
        `_Page.sizeHint`."""
        return QSize(self.width(), self.heightForWidth(self.width()))


class _Page(QWidget):
    """Older turns made into widgets together (one chunk), laid out as one item of the chat.

    The chat's layout places each of its items again whenever one is added: with every widget an
    item of its own that was ~60 µs a widget (a chunk near the top of 1,000 turns: 100-300 ms
    with the resizes); a page is one item whose own layout later pages leave alone. Its
    children are added while it is hidden and shown with it in one step. Its layout, as the
    chat's, never gives them less than their height (`_ChatLayout`): a page shown in a chapter
    not yet made taller for it squeezed every page of the chapter, each card resized and
    resized back (a minimum height given to the chapter and the chat while it showed avoided
    that, at ~2 more layouts of the chat a page)."""

    def __init__(self, host: QWidget, spacing: int) -> None:
        super().__init__()
        self.host = host
        """The chat's widget, whose width the page is laid out at."""
        self.lay = _ChatLayout(self)
        self.lay.setContentsMargins(0, 0, 0, 0)
        self.lay.setSpacing(spacing)

    def sizeHint(self) -> QSize:
        """Its height at the width the chat gives it. (QLayout's own hint is the height at the
        page's preferred width: asking it evicts the one width each layout caches its heights
        for, and every chunk then measured every page again, twice: ~4 ms a page.)"""
        width = _inner_width(self.host)
        return QSize(width, self.heightForWidth(width))

    def items(self) -> list[QWidget]:
        """Its message widgets, oldest first (those of the pages it holds, for a chapter)."""
        out: list[QWidget] = []
        for i in range(self.lay.count()):
            item = self.lay.itemAt(i)
            w = item.widget() if item is not None else None
            if isinstance(w, _Page):
                out += w.items()
            elif w is not None:
                out.append(w)
        return out


class _Chapter(_Page):
    """Pages placed next to each other, up to `CHAPTER_PAGES`, laid out as one item of the chat:
    each page placed lays out its chapter and the chat's items, not every page of the chat
    (~25 µs a page: ~8 ms a layout, three per page, near the top of 1,000 turns). A stretch at
    its end takes any room it is given beyond its pages' height."""

    def __init__(self, host: QWidget, spacing: int) -> None:
        super().__init__(host, spacing)
        self.lay.addStretch(1)

    def has_room(self) -> bool:
        return self.lay.count() - 1 < CHAPTER_PAGES


Replay = Callable[[], "list[Callable[[], object]] | None"]
"""An older turn: adds its widgets (with `add_message`/`add_result`) or returns the steps that do,
one widget each (chat_replay.turn_steps), to be run one per loop turn."""


class _Slot(QWidget):
    """Older turns not made into widgets yet: empty room of about their height (`turn_px` each),
    so the scroll bar spans them. The turns near the view are built into a page that takes
    their place (`ChatPane._fill_step`)."""

    def __init__(self, replays: list[Replay], turn_px: int) -> None:
        super().__init__()
        self.replays = replays
        """Each turn's replay, oldest first."""
        self.turn_px = turn_px
        self.setFixedHeight(len(replays) * turn_px)

    def set_replays(self, replays: list[Replay]) -> None:
        self.replays = replays
        self.setFixedHeight(len(replays) * self.turn_px)


class _Fill:
    """Turns `start`..`end` of `slot` being made into widgets in `page` (hidden, not in the
    chat's layout yet): the next turn is `next`, the rest of the one begun are `steps`. The
    page is a child of the chapter it will go into from the start (`at_end`: its end, else its
    top; a `new` chapter holds it already and goes into the chat with it): moved to another
    parent once built, its widgets were all styled again by the chat's style sheet (~20 ms)."""

    def __init__(
        self, slot: _Slot, start: int, end: int, chapter: _Chapter, new: bool, at_end: bool
    ) -> None:
        self.slot = slot
        self.start = start
        self.end = end
        self.next = start
        self.chapter = chapter
        self.new = new
        self.at_end = at_end
        self.page = _Page(chapter.host, chapter.lay.spacing())
        self.page.setParent(chapter)  # styled by the chat's sheet; hidden until it is shown
        self.page.hide()
        if new:
            chapter.lay.insertWidget(0, self.page)
        self.steps: deque[Callable[[], object]] = deque()


class ChatPane(QWidget):
    """Shows turns as they happen; during a run Send queues and Stop shows."""

    sendRequested = Signal(str)
    stopRequested = Signal()
    openInForm = Signal(str, dict, dict)
    writingShown = Signal(str)
    """The "model is writing…" bubble was rendered with this text (the model's words so far)."""
    writingRepainting = Signal()
    """The loop turn after a render: the chat asked for the render's repaint (the next frame)."""
    answerStep = Signal()
    """A step of showing the run's final answer was taken (made, read, laid out, painted ahead,
    shown: `add_answer`); the next one, if any, comes a loop turn later."""

    def __init__(
        self,
        examples: list[tuple[str, str]] | None = None,
        parent: QWidget | None = None,
        input_box: ChatInput | None = None,
        welcome: WelcomePanel | None = None,
    ) -> None:
        """`input_box`: the message box to use (the window's first frame shows it before the chat
        is built; what was typed in it stays), a new one by default. `welcome`: the welcome panel
        to show (the window builds and lays it out a loop turn before the chat), a new one with
        `examples` by default."""
        super().__init__(parent)
        self.running = False
        self.following = True
        """The view sticks to the newest item (False once the reader scrolls up); within a turn
        taller than the view, to the turn's question (`_follow_value`)."""
        self._question: QWidget | None = None
        """The question of the turn shown live, where a following view stops (None: the end)."""
        self._host = _Host()
        self._host.setStyleSheet(_SHEET)
        self._list = _ChatLayout(self._host)
        self._list.addStretch(1)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidget(self._host)
        bar = self.scroll_area.verticalScrollBar()
        bar.valueChanged.connect(self._on_bar_value_changed)
        bar.rangeChanged.connect(self._on_bar_range_changed)
        # The scroll area's box for its bar, by `parent()`, not `parentWidget()`: a QWidget*
        # return of a widget Qt made builds ~70 PySide6 classes first (qt_children.py), and
        # here that was inside the chat's build, before the first answer.
        box = bar.parent()
        assert isinstance(box, QWidget)
        self._bar_box = box
        self._watching = False
        """Whether `eventFilter` watches the bar's, its box's and the chat's paints: only while
        a writing bubble streams (`_watch_paints`). Watched always, every event of the three
        went through Python, and at start-up that and QPaintEvent's class doubled the longest
        stall before the first answer (~10 -> ~20 ms GUI CPU, bench_startup)."""
        self.welcome = welcome or WelcomePanel(examples or [])
        self.welcome.exampleChosen.connect(self.ask)
        self.welcome_area = QScrollArea()
        self.welcome_area.setWidgetResizable(True)
        self.welcome_area.setFrameShape(QFrame.Shape.NoFrame)
        self.welcome_area.setWidget(self.welcome)
        self.new_answer_button = QPushButton(NEW_ANSWER[0])
        self.new_answer_button.setToolTip(NEW_ANSWER[1])
        self.new_answer_button.clicked.connect(self.scroll_to_end)
        self.new_answer_button.hide()
        self.queue = QuestionQueue()
        self.input = input_box or ChatInput()
        self.input.submitted.connect(self._on_input_submitted)
        self.send_button = QPushButton("Send")
        self.send_button.setToolTip("Send (Enter); during a run: queue it for when the run ends")
        self.send_button.clicked.connect(self._on_send_button_clicked)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setToolTip("Stop the run (Esc)")
        self.stop_button.clicked.connect(self.stopRequested)
        self.stop_button.hide()
        self._input_row = row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addWidget(self.send_button)
        row.addWidget(self.stop_button)
        lay = QVBoxLayout(self)
        lay.addWidget(self.welcome_area, 1)
        lay.addWidget(self.scroll_area, 1)
        lay.addWidget(self.new_answer_button)
        lay.addWidget(self.queue)
        lay.addLayout(row)
        self._tab_anchor: QWidget | None = None
        """The last focusable widget of the chat's items (`_tab_before_input`)."""
        self._order_tabs()
        self._writing: WritingBubble | None = None
        self._written: list[str] = []
        self._slots: list[_Slot] = []
        """Older turns not made into widgets yet, top to bottom (see `set_older`)."""
        self._fill: _Fill | None = None
        """The older turns being made into widgets, if any."""
        self._turn_px = TURN_PX
        """Height of a built older turn, on average (what a new slot gives each turn)."""
        self._built: tuple[int, int] = (0, 0)
        """Older turns built so far and their height, for `_turn_px`."""
        self._held = False
        """A render's text was set and its scroll and repaint wait for a later loop turn."""
        self._placing = False
        """A render's text was set and the chat's layout waits for the next loop turn."""
        self._repaint_due = False
        """A render was laid out and its scroll and repaint wait for the next loop turn."""
        self._slider: tuple[bool, QRect, QRect] | None = None
        """The scroll bar's look when it was last painted (`_slider_key`): compared with the
        look before a held render, a repaint asked for and dropped by the next hold (Qt paints
        no held widget) was lost, and the bar showed its slider where it had been."""
        self._page: _Page | None = None
        """While an older turn is replayed: the page its widgets go into (see `_fill_step`)."""
        self._showing: list[QWidget] = []
        """Cards of a run (or the newest turn of a reopened conversation) being shown a step a
        loop turn (`add_result`): older turns wait meanwhile (see `_on_older_timer_timeout`)."""
        self._ahead: deque[Bubble] = deque()
        """Bubbles of placed older pages to paint into their pixmaps before they come into view
        (see `_paint_ahead`), nearest the view first."""
        self._newest: deque[Callable[[], object]] = deque()
        """The steps of a reopened conversation's newest turn still to take (`add_newest`)."""
        self._taking_newest = False
        self._newest_timer = QTimer(self)
        self._newest_timer.setSingleShot(True)
        self._newest_timer.setInterval(SHOW_LATER_MS)
        self._newest_timer.timeout.connect(self._take_newest_step)
        self._keep_from_bottom: int | None = None
        self._scrolled_at = 0.0
        """When the view last scrolled (`time.monotonic()`), for `busy()`."""
        self._older_timer = QTimer(self)
        self._older_timer.setSingleShot(True)
        self._older_timer.setInterval(0)
        self._older_timer.timeout.connect(self._on_older_timer_timeout)
        self._steps = StepQueue(self)
        """The chat's steps spread over loop turns, one a turn (`loop_steps`)."""
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.setInterval(RENDER_INTERVAL_MS)
        self._render_timer.timeout.connect(self._render_writing)
        self._show_welcome()

    def take_input(self, box: ChatInput) -> None:
        """Use `box` as the message box, in the place of the one the chat has (the window builds
        the chat a loop turn before it moves the first frame's box, with what was typed, into
        it)."""
        old, self.input = self.input, box
        old.submitted.disconnect(self._on_input_submitted)
        self._input_row.replaceWidget(old, box)
        old.setParent(None)  # (gone with its last reference, at the end of this call)
        box.submitted.connect(self._on_input_submitted)
        self._order_tabs()

    def _tab_before_input(self, widget: QWidget) -> None:
        """Put `widget`'s buttons in Tab order after the chat's items, before the message box
        (a new widget joined the end of the window's chain: after the side tabs and the trace).
        Its focusable children are found with `findChildren` (walking the focus chain meets
        widgets Qt made, whose `QWidget*` returns cost PySide6's class search: qt_children.py)."""
        anchor = self._tab_anchor
        if (
            anchor is None
            or not shiboken6.isValid(anchor)
            or not self.isAncestorOf(anchor)  # (its item taken out of the chat)
        ):
            anchor = self._tab_anchor = self.scroll_area
        tab = QtCore.Qt.FocusPolicy.TabFocus
        for each in (widget, *widget.findChildren(QWidget)):
            # (isAncestorOf stops at a window: a menu, a combo box's popup list)
            if each.focusPolicy() & tab and (each is widget or widget.isAncestorOf(each)):
                QWidget.setTabOrder(anchor, each)
                anchor = self._tab_anchor = each
        QWidget.setTabOrder(anchor, self.input)

    def _order_tabs(self) -> None:
        """Tab goes through the chat, then the message box, Send and Stop (the box, made
        before the chat by the window's first frame, came after Send, and Tab from it left the
        chat for the side tabs)."""
        QWidget.setTabOrder(self.scroll_area, self.input)
        QWidget.setTabOrder(self.input, self.send_button)
        QWidget.setTabOrder(self.send_button, self.stop_button)

    # --- content ---------------------------------------------------------------------------------
    def items(self) -> list[QWidget]:
        """The message widgets, oldest first."""
        out = []
        for i in range(self._list.count()):
            item = self._list.itemAt(i)
            w = item.widget() if item is not None else None
            if isinstance(w, _Page):
                out += w.items()
            elif w is not None and not isinstance(w, _Slot):
                out.append(w)
        return out

    def cards(self) -> list[ResultCard]:
        return [w for w in self.items() if isinstance(w, ResultCard)]

    def add_message(self, role: str, markdown: str) -> QLabel:
        """Append a user/answer/error bubble (Markdown, its raw HTML shown as written; a user's
        bubble is plain text)."""
        from caec_desktop.ui.markdown_blocks import literal_markdown

        label = Bubble()
        user = role == "user"
        label.setTextFormat(
            QtCore.Qt.TextFormat.PlainText if user else QtCore.Qt.TextFormat.MarkdownText
        )
        label.setText(markdown if user else literal_markdown(markdown))
        label.setWordWrap(True)
        label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setProperty("role", role)  # before it is polished: the chat's sheet styles it
        if user and self._page is None:  # the user's own question: show it and what follows
            self.following = True
            self._question = label
        self._append(label)
        return label

    def add_result(self, data: dict[str, Any]) -> ResultCard | SweepCard:
        """Append the card of a tool_result event (a sweep's: plot and table)."""
        from caec_desktop.tools.sweep import SWEEP_TOOL  # the tools load after start-up

        card: ResultCard | SweepCard
        live = self._page is None and self._host.isVisible()
        fill = self._fill if self._page is not None else None
        if data.get("tool") == SWEEP_TOOL:
            from caec_desktop.ui.sweep_card import SweepCard

            card = SweepCard(data)
        else:
            later = live or fill is not None
            card = ResultCard(data, table_later=later, labels_later=later)
            if fill is not None:  # an older turn built step by step: the card's are the next
                fill.steps.extendleft(reversed(self._page_card_steps(card)))
        card.openInForm.connect(self.openInForm)
        if live:
            # A card of a run going on: its labels made (in two steps), its table's area made,
            # the table laid out in it, placed, the card styled, shown (laid out), painted, each
            # on a later loop turn than the one before (in one turn they made the longest stall
            # of a run; ~1-4 ms each under load). A reopened conversation's newest turn
            # shows its card so too; an older turn's card is built in steps into its page
            # (`_page_card_steps`).
            card.hide()
            self._showing.append(card)  # older turns wait for it (their steps share turns)
            steps: list[Callable[[], object]] = []
            if isinstance(card, ResultCard):
                steps = [card.make_top_labels, card.make_labels, card.make_table_area]
                steps.append(card.lay_out_table)
                steps.append(card.place_table)
                steps.append(lambda: card.polish(self._list.contentsRect().width()))
            steps.append(partial(self._show_card, card))
            self._steps.later(card, partial(self._card_step, card, steps), SHOW_LATER_MS)
        self._append(card)
        return card

    def add_newest(self, steps: list[Callable[[], object]]) -> None:
        """Show a reopened conversation's newest turn from its steps (`chat_replay.turn_steps`:
        its request, each result card, its answer, a widget each): the first now, each other on
        a later loop turn (`SHOW_LATER_MS`), each with its own layout and first paint. Built in
        the loop turn that read and restored the conversation, with its paint, the turn was the
        longest stall of an open. An item added meanwhile (a run's) takes the steps left first,
        so it comes after them."""
        self._newest.extend(steps)
        self._take_newest_step()

    def newest_pending(self) -> int:
        """How many steps of the newest turn (`add_newest`) are still to take."""
        return len(self._newest)

    def _take_newest_step(self) -> None:
        if self._newest:
            self._taking_newest = True
            try:
                self._newest.popleft()()
            finally:
                self._taking_newest = False
        if self._newest:
            self._newest_timer.start()

    def _finish_newest(self) -> None:
        """Take the newest turn's steps left now."""
        self._newest_timer.stop()
        while self._newest:
            self._take_newest_step()
        self._newest_timer.stop()

    def _page_card_steps(self, card: ResultCard) -> list[Callable[[], object]]:
        """The build of an older turn's card in steps, each of its own in the fill's budget
        (`_on_older_timer_timeout`): its labels (in two steps), its table's area, the table laid
        out in it, placed, the card measured at the chat's width. In one step (~3-7 ms under
        load) it overshot the budget, and with the frame's repaint made the longest stalls of
        opening and scrolling a long conversation."""
        return [
            card.make_top_labels,
            card.make_labels,
            card.make_table_area,
            card.lay_out_table,
            partial(self._place_page_table, card),
        ]

    def _place_page_table(self, card: ResultCard) -> None:
        card.place_table()
        for child in card.findChildren(QWidget):
            child.ensurePolished()  # (a polished card polishes no new child)
        card.heightForWidth(_inner_width(self._host))  # its labels keep their heights

    def _card_step(self, card: QWidget, steps: list[Callable[[], object]]) -> None:
        """Take the next step of a live card's build; the rest on later loop turns."""
        steps.pop(0)()
        if steps:
            self._steps.later(card, partial(self._card_step, card, steps), SHOW_LATER_MS)

    def _show_card(self, card: QWidget) -> None:
        """Show the card (styled, laid out, the chat scrolled to it) now and let it paint on the
        next loop turn: its labels' and buttons' first paint (~3 ms) made one gap with the show
        and the repaints of the same frame (the trace table's new rows, the scroll bar)."""
        if self._list.indexOf(card) >= 0:  # (not if the chat was cleared meanwhile)
            card.setUpdatesEnabled(False)
            card.show()
            self._steps.later(card, partial(self._card_shown, card), SHOW_LATER_MS)
        elif card in self._showing:
            self._showing.remove(card)

    def _card_shown(self, card: QWidget) -> None:
        """Let the card paint: its widgets take paints again and the chat's widget repaints the
        card's place. (`setUpdatesEnabled(True)` asks the card and each widget in it for a
        repaint of its own: when the chat's widget had a region of its own to repaint in the
        same frame, the rows the view's scroll to the card exposed, Qt painted the card in
        both, twice: ~1 ms more of a run's longest repaint.)"""
        _paint_in_place(card)
        if card in self._showing:
            self._showing.remove(card)

    def stream_text(self, delta: str) -> None:
        """Add text the model is writing to the "model is writing…" bubble (made on first use)."""
        if not delta:
            return
        if self._writing is None:
            # Growing at the bottom, the chat repaints no more than the rows it gained (each
            # item repaints itself when it moves or changes). Set here, not when the chat is
            # made: Qt's enum namespace is built on first use, after the window's first paint.
            self._host.setAttribute(QtCore.Qt.WidgetAttribute.WA_StaticContents)
            writing = self._writing = WritingBubble()
            self._watch_paints(True)
            # Shown (by the layout, a call it posts) without a paint of its own: the chat's
            # widget paints it a loop turn later (`_writing_shown`), as it does a live card.
            writing.setUpdatesEnabled(False)
            self._append(writing)
            self._steps.later(writing, partial(self._writing_placed, writing), SHOW_LATER_MS)
        self._written.append(delta)
        if not self._render_timer.isActive():
            self._render_timer.start(RENDER_INTERVAL_MS)

    def _writing_placed(self, writing: WritingBubble) -> None:
        """The loop turn after the writing bubble was added: lay the chat out and scroll to it
        now (the bubble, updates off, is not painted), and let it paint on the next turn
        (`_writing_shown`), when the rows that scroll exposed have been painted."""
        for _ in range(LAYOUT_PASSES):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        self._steps.later(writing, partial(self._writing_shown, writing), SHOW_LATER_MS)

    def _writing_shown(self, writing: WritingBubble) -> None:
        """Let the writing bubble paint: the chat's widget repaints its place, as for a live
        card (`_card_shown`). Shown with its updates on, the new bubble was painted in the
        repaint of the rows the scroll to it exposed and again in its own, its note twice (the
        second time into its pixmap: ~1 ms more of that frame); asked in the turn of that
        scroll, the bubble's region was still painted in a second repaint of the frame. Its
        first piece is made on the next turn, before the first render. A render under way (on
        a loaded machine its timer can come first) lets the bubble paint with its own repaint
        (`_show_render`), not here: the render holds it until then."""
        if not self._held and _unshown(writing):
            _paint_in_place(writing)
        if writing is self._writing:  # (not if the stream ended meanwhile)
            self._steps.later(writing, writing.prepare_piece, SHOW_LATER_MS)

    def postpone_render(self, ms: int) -> None:
        """Render the streamed text no sooner than `ms` from now (the window keeps the chat's
        repaint out of the frames that repaint the trace table)."""
        if self._render_timer.isActive() and self._render_timer.remainingTime() < ms:
            self._render_timer.start(ms)

    def writing_text(self) -> str | None:
        """The text streamed into the writing bubble so far; None when there is no bubble."""
        return "".join(self._written) if self._writing is not None else None

    def end_stream(self) -> None:
        """Remove the writing bubble: the model call ended (its answer or the next call follows)."""
        self._render_timer.stop()
        self._written = []
        if self._writing is not None:
            self._remove(self._writing)
            self._writing = None
        self._watch_paints(False)

    def add_answer(self, role: str, markdown: str) -> QLabel:
        """Append the run's answer bubble in the writing bubble's place (`add_message`, then
        `end_stream`). In a shown chat it is styled and its Markdown read on a later loop turn,
        laid out on the next, its text laid out for its paint on the next, painted into its
        pixmap on the next ones, and shown on the turn after, when the writing bubble goes:
        the chat never shows neither, and no turn does all of it (~2 ms making it, ~4 ms styling
        and laying out its Markdown, ~3-5 ms painting it: in one turn with the end of the run
        they made one of a run's longest stalls)."""
        if not (self._page is None and self._host.isVisible()):
            label = self.add_message(role, markdown)
            self.end_stream()
            return label
        self._render_timer.stop()
        self._written = []
        writing, self._writing = self._writing, None  # no more renders; removed with the swap
        self._watch_paints(False)
        label = self.add_message(role, markdown)
        label.hide()  # before the show the layout posts
        self._steps.later(label, lambda: self._read_answer(label, writing), SHOW_LATER_MS)
        self.answerStep.emit()
        return label

    def _read_answer(self, label: QLabel, writing: WritingBubble | None) -> None:
        """Style the answer and read its Markdown into the label's document (an empty selection
        makes QLabel fill it), a loop turn before its layout: the two in one turn took ~3.5 ms
        for 300 words, ~1 ms of it the reading."""
        label.ensurePolished()  # the chat's style sheet gives its padding
        label.setSelection(0, 0)
        self._steps.later(label, lambda: self._lay_out_answer(label, writing), SHOW_LATER_MS)
        self.answerStep.emit()

    def _lay_out_answer(self, label: QLabel, writing: WritingBubble | None) -> None:
        width = _inner_width(self._host)
        # At its width first: QLabel lays a new text out at its own width, then at the width
        # asked, then at its own again (~2.5 ms each for 600 words): once when they are one.
        label.resize(width, label.height())
        label.heightForWidth(width)  # remembered for the show (WrapLabel)
        self._steps.later(label, lambda: self._ready_answer(label, writing), SHOW_LATER_MS)
        self.answerStep.emit()

    def _ready_answer(self, label: QLabel, writing: WritingBubble | None) -> None:
        """Have Qt lay the answer's text out for its paint, a loop turn before the first band
        (`WrapLabel.lay_out_ahead`: in that band's turn it took ~1.5 ms more than the others)."""
        if isinstance(label, WrapLabel):
            label.lay_out_ahead(_inner_width(self._host))
        self._steps.later(label, lambda: self._paint_answer(label, writing), SHOW_LATER_MS)
        self.answerStep.emit()

    def _paint_answer(self, label: QLabel, writing: WritingBubble | None, part: int = 0) -> None:
        """Paint the answer into its pixmap before it shows, a band of `ANSWER_BAND_PX` a loop
        turn: its first paint then draws that (a direct first paint took ~3-5 ms of the turn
        that shows it), and a longer answer takes more turns, not longer ones."""
        width = _inner_width(self._host)
        parts = max(1, -(-label.heightForWidth(width) // ANSWER_BAND_PX))
        if isinstance(label, WrapLabel):
            label.paint_ahead(width, part, parts)
        if part + 1 < parts:
            then = partial(self._paint_answer, label, writing, part + 1)
        else:
            then = partial(self._swap, label, writing)
        self._steps.later(label, then, SHOW_LATER_MS)
        self.answerStep.emit()

    def _swap(self, label: QLabel, writing: WritingBubble | None) -> None:
        if self._list.indexOf(label) < 0:  # the chat was cleared meanwhile
            return
        if writing is not None and self._list.indexOf(writing) >= 0:
            self._remove(writing)
        label.show()
        self.answerStep.emit()

    def _remove(self, widget: QWidget) -> None:
        """Take `widget` out of the chat and hide it at once: added a moment ago (a stream
        that ended before the next loop turn), its show was still queued (a layout shows a
        new child on a later turn), and out of the layout it showed at the chat's top-left,
        an empty dashed box over the answers until its deferred delete."""
        self._list.removeWidget(widget)
        widget.hide()
        widget.deleteLater()

    def _render_writing(self) -> None:
        """Render the text streamed so far over three loop turns: this one sets the text and
        lays it out in the bubble (`WritingBubble.show_text`), the next lays the chat out
        (`_place_render`), the one after scrolls and repaints (`_show_render`). The text's
        layout and the chat's were one step of ~2.5 ms, ~4-5 ms when a piece was finished
        (bench_streaming: the longest step of a run); apart, neither is half of that."""
        if self._writing is None:
            return
        text = "".join(self._written)
        self._written = [text]
        writing = self._writing
        # Until the render's repaint the bubble and the scroll bar take no paints: a region
        # waiting to be painted is not moved by a scroll (Qt repaints the whole view instead of
        # moving its pixels), and the render and the paint it causes would otherwise make one
        # gap of the loop.
        if not self._held:
            self._held = True
            writing.hold()
            # (set, not setUpdatesEnabled: turned on again that repaints the bar in any case)
            bar = self.scroll_area.verticalScrollBar()
            bar.setAttribute(QtCore.Qt.WidgetAttribute.WA_UpdatesDisabled, True)
        writing.show_text(text)
        if not self._placing:
            self._placing = True
            self._steps.later(self, partial(self._place_render, writing), SHOW_LATER_MS, first=True)

    def _place_render(self, writing: WritingBubble) -> None:
        """The loop turn after a render set its text: make the chat room for the grown bubble
        and lay it out, then scroll and repaint on the next turn (`_show_render`). A bubble
        the stream ended meanwhile is laid out still while it is in the chat (the answer
        takes its place a few turns later), but no render is reported."""
        self._placing = False
        if not self._repaint_due:  # (else the one asked for covers this render too)
            self._repaint_due = True
            self._steps.later(self, partial(self._show_render, writing), SHOW_LATER_MS, first=True)
        if not shiboken6.isValid(writing) or self._list.indexOf(writing) < 0:
            return
        writing.place()
        self._make_room(writing)
        # Lay the chat out now rather than pass by pass as Qt posts each step (the piece, the
        # bubble, the chat, the scroll area): the frame this render makes is then done by the
        # next loop turn, and timers set apart from it (the trace's batch) stay apart.
        for _ in range(LAYOUT_PASSES):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        if writing is not self._writing:
            return
        if writing.wants_piece():  # made on a later loop turn than this render
            self._steps.later(writing, writing.prepare_piece, SHOW_LATER_MS)
        if not self.following:
            self._offer_more(NEW_ANSWER)
        self.writingShown.emit(writing.shown())

    def _show_render(self, writing: WritingBubble) -> None:
        """The loop turn after a render: scroll to the new end if the view follows (Qt moves the
        pixels already shown), then let the bubble and the scroll bar repaint."""
        self._repaint_due = False
        self._held = False
        bar = self.scroll_area.verticalScrollBar()
        if self.following:  # a streamed answer is followed to its end, as it is being read
            bar.setValue(bar.maximum())
        bar.setAttribute(QtCore.Qt.WidgetAttribute.WA_UpdatesDisabled, False)
        if self._slider_key() != self._slider:  # (in a long chat a render moves it < 1 px)
            bar.update()
        if shiboken6.isValid(writing):  # (not if it was deleted meanwhile)
            # Asked of the chat's widget, not the bubble: the rows the scroll above exposed
            # and the bubble's region were painted apart in one repaint, the growing piece
            # twice (the exposed rows at its bottom, then all of it: ~0.5 ms more a render).
            writing.release(self._host)
            if _unshown(writing):  # rendered before its first paint (`_writing_shown`)
                _paint_in_place(writing)
            if writing.has_unpainted():  # after the repaint this release asks for
                self._steps.later(writing, writing.paint_finished, SHOW_LATER_MS)
        self._watch_paints(self._writing is not None)
        self.writingRepainting.emit()

    def _watch_paints(self, on: bool) -> None:
        """Watch the paints a held render needs to know about (`eventFilter`) while a writing
        bubble streams; stop when it is gone and no render is held. Starting, the bar's last
        look is unknown (`_slider` None: the first render repaints it)."""
        on = on or self._held
        if on == self._watching:
            return
        self._watching = on
        watched = (self.scroll_area.verticalScrollBar(), self._bar_box, self._host)
        for widget in watched:
            if on:
                widget.installEventFilter(self)
            else:
                widget.removeEventFilter(self)
        if on:
            self._slider = None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Paints around a held render: of the bar (its look then, `_slider`), of the bar's box
        over the held bar (Qt painted the box's background there, not the bar: it repaints on
        release), and of the chat over the held writing bubble (`WritingBubble.parent_painted`)."""
        if event.type() != QEvent.Type.Paint:
            return False
        event = cast("QPaintEvent", event)
        bar = self.scroll_area.verticalScrollBar()
        if watched is bar:
            self._slider = self._slider_key()
        elif watched is self._bar_box:
            if self._held and event.region().intersects(bar.geometry()):
                self._slider = None
        elif watched is self._host and self._writing is not None:
            self._writing.parent_painted(event.region())
        return False

    def _slider_key(self) -> tuple[bool, QRect, QRect]:
        """What the chat's scroll bar shows: whether it shows, where, and its slider's place
        (the bar's paint, ~0.5-2 ms, is skipped while these stay)."""
        # (only while an answer streams: no first answer needs QStyle's ~700 enum members, built
        # after it, `main_window.style_classes`)
        from PySide6.QtWidgets import QStyle, QStyleOptionSlider

        bar = self.scroll_area.verticalScrollBar()
        option = QStyleOptionSlider()
        bar.initStyleOption(option)
        style = bar.style()
        slider = style.subControlRect(
            QStyle.ComplexControl.CC_ScrollBar, option, QStyle.SubControl.SC_ScrollBarSlider, bar
        )
        return (bar.isVisible(), bar.geometry(), slider)

    def _make_room(self, writing: WritingBubble) -> None:
        """Make the chat as tall as its items need before its layout places them: laid out at
        its old height, the layout took the writing bubble's growth from every item (each
        bubble resized, and back again once the scroll area had grown the chat, so every
        visible bubble was painted again and lost its pixmap)."""
        writing.updateGeometry()  # the chat's layout asks its new height
        host = self._host
        height = host.heightForWidth(host.width())
        if height > host.height():
            host.resize(host.width(), height)

    def set_older(self, replays: list[Replay]) -> None:
        """Turns older than those shown, oldest first (see `Replay`): they wait in a slot above
        the shown turns and are made into widgets as the reader scrolls near them."""
        self.add_older(replays)

    def add_older(self, replays: list[Replay]) -> None:
        """More older turns, older than every turn given before (a long conversation's rest,
        read after its newest turns are shown), oldest first: one slot above the others."""
        if not replays:
            return
        slot = _Slot(list(replays), self._turn_px)
        self._slots.insert(0, slot)
        self._list.insertWidget(0, slot)
        if self._host.isVisible():
            slot.show()
        # A frame later: started at once, the first build step ran in the loop pass that took
        # the older turns in (a reopened conversation's rest: session, trace, this slot), one gap.
        self._older_timer.start(OLDER_LATER_MS)

    def older_pending(self) -> int:
        """How many older turns are not made into widgets yet."""
        return sum(len(slot.replays) for slot in self._slots)

    def show_older(self) -> int:
        """Make the older turns nearest the view into widgets now, a page of them (what the
        timer does a turn at a time as the reader scrolls); returns how many were added."""
        added = 0
        while self._fill is not None or self._start_fill(anywhere=True):
            added += self._fill_step()
            if self._fill is None:
                break
        return added

    def _start_fill(self, anywhere: bool = False) -> bool:
        """Choose the next older turns to build: in the slot nearest the view, within
        `FILL_MARGIN_SCREENS` of it or below its top (turns a reader scrolling up faster than
        they were built has passed; any slot when `anywhere`), the `OLDER_PAGE_TURNS` turns
        nearest the view's top. False when there are none: turns above the view wait until the
        reader comes near them."""
        if not self._slots:
            return False
        bar = self.scroll_area.verticalScrollBar()
        view = viewport(self.scroll_area).height()  # (no class search: qt_children)
        top, bottom = bar.value(), bar.value() + view
        margin = int(view * FILL_MARGIN_SCREENS)
        best: tuple[int, _Slot] | None = None
        unplaced = False
        for slot in self._slots:
            if slot.isHidden() or slot.height() != slot.maximumHeight():
                unplaced = True  # not laid out yet: looked at again once it is (below)
                continue
            y0, y1 = slot.y(), slot.y() + slot.height()
            distance = max(0, y0 - bottom, top - y1)
            passed = y0 >= top  # below the view's top: scrolled past before it was built
            wanted = anywhere or passed or distance <= margin
            if wanted and (best is None or distance < best[0]):
                best = (distance, slot)
        if best is None:
            if not anywhere:
                if unplaced and self._host.isVisible():
                    # A range change may not follow its layout (a page as tall as the room
                    # it took, once the turns' height is known): look again a loop turn on.
                    self._older_timer.start(SHOW_LATER_MS)
                return False
            best = (0, self._slots[-1])
        slot = best[1]
        n = len(slot.replays)
        at = min(n - 1, max(0, (top - slot.y()) // slot.turn_px))  # the turn at the view's top
        if slot.y() + slot.height() <= top:  # above the view: its newest turns, upwards
            start = max(0, n - OLDER_PAGE_TURNS)
        elif top <= slot.y():  # below the view's top: its oldest turns
            start = 0
        else:  # the view's top is in it: from the turn there, downwards
            start = min(at, max(0, n - OLDER_PAGE_TURNS))
        end = min(n, start + OLDER_PAGE_TURNS)
        index = self._list.indexOf(slot)
        nearby = []  # a chapter next to where the page goes: below it, or above it
        if end == n:
            nearby.append((index + 1, False))
        if start == 0:
            nearby.append((index - 1, True))
        for i, at_end in nearby:
            item = self._list.itemAt(i) if i >= 0 else None
            widget = item.widget() if item is not None else None
            if isinstance(widget, _Chapter) and widget.has_room():
                self._fill = _Fill(slot, start, end, widget, False, at_end)
                return True
        chapter = _Chapter(self._host, self._list.spacing())
        chapter.setParent(self._host)
        chapter.hide()
        self._fill = _Fill(slot, start, end, chapter, True, False)
        return True

    def _fill_built(self) -> bool:
        """Whether every turn of the fill going on is built: its page waits to be placed."""
        fill = self._fill
        return fill is not None and not fill.steps and fill.next >= fill.end

    def _fill_step(self) -> int:
        """Run one step of the fill going on (a widget of an older turn, or a card's table),
        styled and measured at the chat's width; once every turn is built, the next call puts
        the page in their place (a step of its own: with the last widget's build, the layout
        of its place made one gap). Returns how many turns were put in place."""
        fill = self._fill
        assert fill is not None
        if self._fill_built():
            self._fill = None
            self._place(fill)
            return fill.end - fill.start
        page = self._page = fill.page
        first = page.lay.count()
        try:
            if not fill.steps:  # the next turn
                replay = fill.slot.replays[fill.next]
                fill.next += 1
                fill.steps.extend(replay() or ())
            if fill.steps:
                fill.steps.popleft()()
        finally:
            self._page = None
        page.ensurePolished()
        width = _inner_width(self._host)
        for i in range(first, page.lay.count()):  # (a polished page polishes no new child)
            item = page.lay.itemAt(i)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.ensurePolished()  # the chat's style sheet gives the bubbles' padding
                widget.heightForWidth(width)  # a label keeps its height for the page's layout
        return 0

    def _place(self, fill: _Fill) -> None:
        """Put a built page where its turns' room was: the slot keeps the turns after them (or
        goes), a new slot above takes those before them. The view stays on what it showed: on
        the same distance from the bottom when the page is above the view's top."""
        slot, page = fill.slot, fill.page
        replays = slot.replays
        before, after = replays[: fill.start], replays[fill.end :]
        bar = self.scroll_area.verticalScrollBar()
        room_top = slot.y() + fill.start * slot.turn_px
        room = (fill.end - fill.start) * slot.turn_px
        above = room_top + room <= bar.value() + FOLLOW_SLACK_PX
        keep = above and not self.following
        self._keep_from_bottom = bar.maximum() - bar.value() if keep else None
        width = _inner_width(self._host)
        height = page.heightForWidth(width)
        # At the size the chat's layout gives it, before it shows: a widget never shown is
        # 640x480, and showing it laid its widgets out at that width first (each label's text
        # laid out for nothing, ~0.2 ms each), then at theirs.
        page.resize(width, height)
        if fill.new:
            fill.chapter.resize(width, fill.chapter.heightForWidth(width))
        count, total = self._built
        self._built = (count + fill.end - fill.start, total + height + self._list.spacing())
        self._turn_px = max(1, self._built[1] // self._built[0])
        index = self._list.indexOf(slot)
        position = self._slots.index(slot)
        if after:
            slot.set_replays(after)
        else:  # the page takes the slot's place
            self._slots.remove(slot)
            self._list.removeWidget(slot)
        upper = _Slot(before, slot.turn_px) if before else None
        chapter = fill.chapter
        widgets: list[QWidget]
        if fill.new:  # holds the page already
            page.show()  # (its chapter is hidden: shown with it)
            self._list.insertWidget(index, chapter)
            widgets = [chapter]
        else:  # next to the page's place: the page goes in at its end or top
            chapter.lay.insertWidget(chapter.lay.count() - 1 if fill.at_end else 0, page)
            widgets = [page]
        if upper is not None:
            self._slots.insert(position, upper)
            self._list.insertWidget(index, upper)
            widgets.insert(0, upper)
        # Shown now, each laid out where its layout puts it: neither the chat's layout nor a
        # chapter's gives its items less than their height (`_ChatLayout`), so the items below
        # keep their sizes while the scroll area has not made the chat taller yet.
        for widget in widgets:
            widget.show()
        bubbles = [w for w in page.items() if isinstance(w, Bubble)]
        if above:  # the reader comes to its newest turns first
            bubbles.reverse()
        self._ahead.extendleft(reversed(bubbles))
        if not after:
            slot.hide()
            slot.deleteLater()

    def _paint_ahead(self) -> bool:
        """Paint the next bubble of a placed older page into its pixmap (~0.5-1.5 ms) while it
        is out of view, so its first paint draws that: the direct first paints of every new
        bubble coming into view made the repaints while scrolling up the longest stalls
        (~10-30 ms). (Once shown: `render` of a label in a hidden page laid the page out
        first, ~10 ms a bubble.) False when there is none left to paint."""
        width = _inner_width(self._host)
        top = self.scroll_area.verticalScrollBar().value()
        while self._ahead:
            label = self._ahead.popleft()
            if not (shiboken6.isValid(label) and label.isVisible()) or label.paint_cached():
                continue
            bottom = label.mapTo(self._host, QPoint(0, label.height())).y()
            if bottom <= top:  # above the view: the reader scrolling up comes to it next
                label.paint_ahead(width)
                return True
            # (in view it paints this frame anyway; below it the reader has passed it)
        return False

    def _on_older_timer_timeout(self) -> None:
        """Build older turns near the view, if any: widgets one after the other while another
        one like the last fits in `FILL_BUDGET_MS`, then again on the next loop turn; with none
        near the view to build, the bubbles of placed pages are painted ahead (`_paint_ahead`)
        in the same budget. Started by the scroll bar's signals (their values are those of the
        laid-out chat); after a page is placed the next one waits a loop turn, for the layout
        that makes room for it (its range change, if any, comes before: posted events are
        sent before timers)."""
        self._keep_from_bottom = None
        self._showing = [card for card in self._showing if shiboken6.isValid(card)]
        if self._showing or self._newest:  # their steps and these would share loop turns
            self._older_timer.start(SHOW_LATER_MS)
            return
        end = time.perf_counter() + FILL_BUDGET_MS / 1000
        stepped = False
        while True:
            began = time.perf_counter()
            if self._fill is not None or self._start_fill():
                if self._fill_built():  # placed in a loop turn of its own
                    if not stepped:
                        self._fill_step()
                        # The next page a loop turn on, once the chat is laid out: with the
                        # page as tall as the room it took the scroll bar's range stays, and
                        # its signal, which starts this timer too, never comes.
                        self._older_timer.start(SHOW_LATER_MS)
                        return
                    break
                self._fill_step()
                stepped = True
            elif not self._paint_ahead():
                return
            done = time.perf_counter()
            if done + (done - began) >= end:  # another step like this one would not fit
                break
        self._older_timer.start(0)

    def clear(self) -> None:
        """Empty the conversation (the welcome panel shows again); the view follows again."""
        self._slots = []
        if self._fill is not None:
            self._fill.page.deleteLater()
            if self._fill.new:
                self._fill.chapter.deleteLater()
            self._fill = None
        self._built = (0, 0)
        self._turn_px = TURN_PX
        self._ahead.clear()
        self._showing = []
        self._newest.clear()
        self._newest_timer.stop()
        self._older_timer.stop()
        self._keep_from_bottom = None
        self.end_stream()
        self._tab_anchor = None
        while self._list.count() > 1:  # the last item is the stretch
            item = self._list.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.hide()  # at once: a page's children go with it, later
                w.deleteLater()
        self.following = True
        self._question = None
        self.new_answer_button.hide()
        self._show_welcome()

    def _append(self, widget: QWidget) -> None:
        if self._page is not None:  # an older turn: into its page (see show_older)
            self._page.lay.addWidget(widget)
            return
        if self._newest and not self._taking_newest:  # after the newest turn's widgets
            self._finish_newest()
        self._list.insertWidget(self._list.count() - 1, widget)
        self._tab_before_input(widget)
        self._show_welcome()
        if self.following:
            self._follow(self.scroll_area.verticalScrollBar())
        else:
            self._offer_more(NEW_ANSWER)

    def scroll_to_end(self) -> None:
        """Show the newest item and follow the conversation to its end again (the "New answer"
        button: past the turn's question too)."""
        self.following = True
        self._question = None
        self.new_answer_button.hide()
        bar = self.scroll_area.verticalScrollBar()
        bar.setValue(bar.maximum())  # and again when the layout has grown: _on_bar_range_changed

    def _follow_value(self, maximum: int) -> int:
        """Where a following view goes: the end, unless the turn shown live has grown taller
        than the view under its question; then the view stops with the question at its top, so
        the answer's first lines (its headline result) show, not the end of a long calc sheet,
        sweep or notes, and the end button offers the rest. The question shows whole
        while the answer keeps `ANSWER_SHARE` of the view under it (a question of a dozen lines
        at 1024×700 lost its first lines, the calculation asked for, when the answer was given
        two thirds); a question taller than that shows its last lines above the answer's
        share."""
        question = self._question
        if question is None:
            return maximum
        if not shiboken6.isValid(question) or question.parentWidget() is not self._host:
            self._question = None
            return maximum
        y = question.y()
        if y <= 0 and self._list.indexOf(question) > 0:  # added, not laid out yet
            return maximum
        view = viewport(self.scroll_area).height()  # (the bar's page step lags a button shown)
        room = view - round(view * ANSWER_SHARE)  # what the question may take
        top = max(y - PIN_MARGIN_PX, y + question.height() - room)
        return min(maximum, max(0, top))

    def _follow(self, bar: QScrollBar) -> None:
        """Scroll a following view to `_follow_value`; the end button shows while the
        turn goes on below the view."""
        maximum = bar.maximum()
        value = self._follow_value(maximum)
        bar.setValue(value)
        if value < maximum - FOLLOW_SLACK_PX:
            self._offer_more(REST_OF_ANSWER)

    def _offer_more(self, words: tuple[str, str]) -> None:
        """Show the button that scrolls to the end, saying what is there (`NEW_ANSWER` or
        `REST_OF_ANSWER`: text, tooltip)."""
        button = self.new_answer_button
        if button.text() != words[0]:
            button.setText(words[0])
            button.setToolTip(words[1])
        button.show()

    def _show_welcome(self) -> None:
        empty = self._list.count() <= 1  # only the stretch
        self.welcome_area.setVisible(empty)
        if not empty:
            self._keep_bar_place()
        self.scroll_area.setVisible(not empty)

    def _keep_bar_place(self) -> None:
        """Show the chat's scroll bar always, before the chat first shows, so the chat's width
        never changes as it grows: shown only when needed, the bar came when a streamed render
        first made the chat taller than its view, and took its width from the chat's, so that
        render laid every item out again at the narrower width (~2.5 ms more) and the whole view
        was repainted in the same loop turn (~6 ms; together a run's longest gap in
        bench_streaming). Set here, not when the chat is made: Qt's enum namespace is built on
        first use (~30 ms), after the window's first paint."""
        always = QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOn
        if self.scroll_area.verticalScrollBarPolicy() != always:
            self.scroll_area.setVerticalScrollBarPolicy(always)

    def set_mode_text(self, text: str) -> None:
        """The mode line of the welcome panel."""
        self.welcome.set_mode(text)

    def busy(self) -> bool:
        """Whether the reader is moving through the chat: scrolled in the last `SCROLL_BUSY_MS`,
        or older turns are still being made into widgets. A full garbage collection waits while
        it is (ui/main_thread_gc.py): with a long conversation's widgets it walks ~100-160 ms, a
        visible jerk in the middle of scrolling."""
        recent = time.monotonic() - self._scrolled_at < SCROLL_BUSY_MS / 1000
        return recent or self.building_older()

    def building_older(self) -> bool:
        """Whether older turns near the view are being made into widgets (or will be on the
        next loop turn)."""
        return self._fill is not None or self._older_timer.isActive()

    def _on_bar_value_changed(self, value: int) -> None:
        self._scrolled_at = time.monotonic()
        maximum = self.scroll_area.verticalScrollBar().maximum()
        stop = self._follow_value(maximum)
        if value > stop + FOLLOW_SLACK_PX:  # the reader went on past the question: the end
            self._question, stop = None, maximum
        self.following = value >= stop - FOLLOW_SLACK_PX
        if value >= maximum - FOLLOW_SLACK_PX:
            self.new_answer_button.hide()
        if (self._slots or self._ahead) and not self._older_timer.isActive():
            self._older_timer.start(0)

    def _on_bar_range_changed(self, _minimum: int, maximum: int) -> None:
        if self._held:  # a render's: the view scrolls on the next loop turn (`_show_render`)
            pass
        elif self._keep_from_bottom is not None:  # older turns were added above: stay in place
            self.scroll_area.verticalScrollBar().setValue(maximum - self._keep_from_bottom)
        elif self.following:
            self._follow(self.scroll_area.verticalScrollBar())
        if self._slots or self._ahead:
            self._older_timer.start(0)

    # --- running state and the queue -----------------------------------------------------------
    def set_running(self, running: bool) -> None:
        """While running, Send queues (its button says so), Stop shows, the box stays editable."""
        self.running = running
        self.send_button.setText("Queue" if running else "Send")
        self.stop_button.setVisible(running)
        self.input.setPlaceholderText(RUNNING_PLACEHOLDER if running else IDLE_PLACEHOLDER)

    def ask(self, text: str) -> None:
        """Ask `text` now, or queue it while a run is going (what Enter in the box does)."""
        text = text.strip()
        if not text:
            return
        if self.running:
            self.queue.add(text)
            return
        if len(self.queue):  # (left from a stopped run) older questions go first
            self.queue.add(text)
            self.ask_next_queued()
            return
        self.add_message("user", text)
        self.sendRequested.emit(text)

    def ask_next_queued(self) -> bool:
        """Ask the oldest queued question if no run is going; True if one was asked."""
        if self.running:
            return False
        text = self.queue.pop()
        if text is None:
            return False
        self.add_message("user", text)
        self.sendRequested.emit(text)
        return True

    def _on_input_submitted(self, text: str) -> None:
        self.ask(text)

    def _on_send_button_clicked(self) -> None:
        self.input.submit()
