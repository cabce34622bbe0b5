"""Answers already shown follow a change of display units (Settings → display units).

Values are stored in SI and written in the display units when a card is made
(docs/display_units.md), so after a change every result card (its table, inputs and calc sheet)
and sweep card (plot and table) of the open conversation is written again (`refresh_units` of
each). A 100-turn conversation has ~100-200 cards, each ~5-8 ms to write again and lay out (an
unfolded calc sheet's text most of it; a sweep's plot ~5 ms): written in one go that was a stall
of ~0.6-0.7 s (`bench/bench_units_redraw.py`). So the cards are written nearest the view first,
in slices of `SLICE_BUDGET_MS` a loop turn (~13 ms with the chat's layout), the view's cards in
the first slices. Cards
made after the change (a running turn's, older turns built later as the reader scrolls up) are
made in the new units; a card made before it and still being built in steps is written again
like the others.

The view stays on what it showed: after each slice the chat is laid out at once and scrolled by
as much as the widget at the top of the view moved (a card above the view that grew or shrank),
unless the view follows the newest item, which it goes on doing. What is unfolded (a calc
sheet, a sweep's table) stays unfolded.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Protocol, cast

import shiboken6
from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, QTimer
from PySide6.QtWidgets import QFrame, QLabel, QWidget

from caec_desktop.ui.qt_children import viewport

if TYPE_CHECKING:
    from caec_desktop.ui.chat_pane import ChatPane

SLICE_BUDGET_MS = 6.0
"""Time a loop turn spends writing cards again and laying their text out (at least one card:
~1 ms to write one, ~4-7 ms to lay out an unfolded calc sheet), the rest of the frame left to the
chat's layout (~2-4 ms for 100 turns) and paint, as the chat's building of older turns does
(`chat_pane.FILL_BUDGET_MS`)."""
LAYOUT_PASSES = 8
"""Layout requests sent at once after a slice: one per level from a card's label up to the
chat's scroll area (a label, its table's area, the card, a page, a chapter, the chat, the
scroll area's viewport), one spare."""
ANCHOR_SEARCH_PX = 40
"""How far below the view's top a widget to keep in place is looked for (the chat's spacing
between items is a few pixels)."""
FAR = 1 << 30
"""The distance given to a card not laid out in the chat yet (being built in steps, or in a page
of older turns not placed yet): written after those in the chat."""


class _Refreshable(Protocol):
    def refresh_units(self) -> bool: ...


class UnitsRedraw(QObject):
    """Writes the cards of one chat again after a change of display units (`start`)."""

    def __init__(self, chat: ChatPane) -> None:
        super().__init__(chat)
        self._chat = chat
        self._todo: list[QWidget] = []
        self._sorted_at: int | None = None
        """The view's top when the cards left were last sorted by their distance from it."""
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.step)
        self.slices = 0
        """Slices run since the last `start` (for tests and the bench)."""

    def start(self) -> None:
        """Write every card of the chat again, nearest the view first: the first slice now, the
        rest on later loop turns. A card in the units in force already costs nothing."""
        self._todo = self._cards()
        self._sorted_at = None
        self.slices = 0
        self.step()

    def _cards(self) -> list[QWidget]:
        """Every card in the chat: its items, and those in pages of older turns, placed or
        being built. Walked a level at a time, not into a card or a bubble (filtered in C++:
        a recursive `findChildren(ResultCard)` hands Python every object of every card to
        check its class, ~25 ms for 100 turns; this ~1 ms)."""
        from caec_desktop.ui.result_card import ResultCard
        from caec_desktop.ui.sweep_card import SweepCard

        direct = QtCore.Qt.FindChildOption.FindDirectChildrenOnly
        cards: list[QWidget] = []
        todo = [self._host()]
        while todo:
            for child in todo.pop().findChildren(QWidget, options=direct):
                if isinstance(child, ResultCard | SweepCard):
                    cards.append(child)
                elif not isinstance(child, QLabel):  # a page, a chapter (not a bubble)
                    todo.append(child)
        return cards

    def pending(self) -> int:
        """Cards not written again yet."""
        return len(self._todo)

    def step(self) -> None:
        """Write the cards nearest the view for up to `SLICE_BUDGET_MS` (one at least), keep
        the view on what it showed, and go on on the next loop turn if any are left."""
        self._todo = [c for c in self._todo if shiboken6.isValid(c)]
        if not self._todo:
            return
        self.slices += 1
        top = self._chat.scroll_area.verticalScrollBar().value()
        if top != self._sorted_at:  # nearest the view last (popped first)
            self._sorted_at = top
            bottom = top + viewport(self._chat.scroll_area).height()  # (no class search)
            self._todo.sort(key=lambda card: self._distance(card, top, bottom), reverse=True)
        anchor = self._anchor(top)
        layout = self._host().layout()
        width = layout.contentsRect().width() if layout is not None else 0
        end = time.perf_counter() + SLICE_BUDGET_MS / 1000
        while self._todo:
            began = time.perf_counter()
            card = self._todo.pop()
            if cast("_Refreshable", card).refresh_units() and width > 0:
                card.heightForWidth(width)  # its text laid out now, in the budget (~4-7 ms)
            done = time.perf_counter()
            if done + (done - began) >= end:  # another card like this one would not fit
                break
        self._keep_view(anchor)
        if self._todo:
            self._timer.start()

    def _host(self) -> QWidget:
        host = self._chat.scroll_area.widget()
        assert host is not None
        return host

    def _distance(self, card: QWidget, top: int, bottom: int) -> int:
        """How far `card` is from the view (0: in it), FAR when it is not in the chat's layout."""
        if not card.isVisible():
            return FAR
        y0 = card.mapTo(self._host(), QPoint(0, 0)).y()
        y1 = y0 + card.height()
        return max(0, y0 - bottom, top - y1)

    def _anchor(self, top: int) -> tuple[QWidget, int] | None:
        """What the view shows at its top, and where it is in the chat (None when the view
        follows the newest item: it goes on following)."""
        if self._chat.following:
            return None
        return anchor_at(self._host(), top)

    def _keep_view(self, anchor: tuple[QWidget, int] | None) -> None:
        """Lay the chat out now and scroll it by as much as `anchor` moved."""
        for _ in range(LAYOUT_PASSES):
            QCoreApplication.sendPostedEvents(None, QEvent.Type.LayoutRequest)
        if anchor is None or not shiboken6.isValid(anchor[0]):
            return
        item, before = anchor
        moved = item.mapTo(self._host(), QPoint(0, 0)).y() - before
        if moved:
            bar = self._chat.scroll_area.verticalScrollBar()
            resort = bar.value() != self._sorted_at
            bar.setValue(bar.value() + moved)
            if not resort:  # (kept in place, not scrolled by the reader: the order stands)
                self._sorted_at = bar.value()


def anchor_at(host: QWidget, top: int) -> tuple[QWidget, int] | None:
    """The widget the chat (`host`) shows at `top`, and its top in the chat: the deepest one
    there inside an item (a label, a card's button; not a page of items, whose place stays when
    an item inside it above the view grows), from the view's top a few pixels down past the gap
    between two items. None when there is none."""
    x = host.width() // 2
    for y in range(top, top + ANCHOR_SEARCH_PX, 4):
        widget = host.childAt(QPoint(x, y))
        inside = widget
        while inside is not None and inside is not host and not isinstance(inside, QFrame):
            inside = inside.parentWidget()  # (a QFrame: a card, a bubble, a label)
        if widget is not None and inside is not None and inside is not host:
            return widget, widget.mapTo(host, QPoint(0, 0)).y()
    return None
