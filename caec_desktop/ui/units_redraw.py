"""Answers already shown follow a change of display units (Settings → display units).

Values are stored in SI and written in the display units when a card is made
(docs/display_units.md), so after a change every result card (its table, inputs and calc sheet)
and sweep card (plot and table) of the open conversation is written again (`refresh_units` of
each). A 100-turn conversation has ~100-200 cards of ~0.5-3 ms each (a 1,000-point plot ~8 ms):
written in one go that is a stall of a second or more. So the cards are written nearest the view
first, in slices of `SLICE_BUDGET_MS` a loop turn, the view's cards in the first slices. Cards
made after the change (a running turn's, older turns built later as the reader scrolls up) are
made in the new units; a card made before it and still being built in steps is written again
like the others.

The view stays on what it showed: after each slice the chat is laid out at once and scrolled by
as much as the item at the top of the view moved (a card above the view that grew or shrank),
unless the view follows the newest item, which it goes on doing. What is unfolded (a calc
sheet, a sweep's table) stays unfolded.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Protocol

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QPoint, QTimer
from PySide6.QtWidgets import QWidget

from caec_desktop.ui.qt_children import viewport

if TYPE_CHECKING:
    from caec_desktop.ui.chat_pane import ChatPane

SLICE_BUDGET_MS = 4.0
"""Time a loop turn spends writing cards again (at least one card), the rest of the frame left
to the layout and paint, as the chat's building of older turns does (`chat_pane.FILL_BUDGET_MS`)."""
LAYOUT_PASSES = 8
"""Layout requests sent at once after a slice: one per level from a card's label up to the
chat's scroll area (a label, its table's area, the card, a page, a chapter, the chat, the
scroll area's viewport), one spare."""
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
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.step)
        self.slices = 0
        """Slices run since the last `start` (for tests and the bench)."""

    def start(self) -> None:
        """Write every card of the chat again, nearest the view first: the first slice now, the
        rest on later loop turns. A card in the units in force already costs nothing."""
        from caec_desktop.ui.result_card import ResultCard
        from caec_desktop.ui.sweep_card import SweepCard

        chat = self._chat
        self._todo = [*chat.findChildren(ResultCard), *chat.findChildren(SweepCard)]
        self.slices = 0
        self.step()

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
        bottom = top + viewport(self._chat.scroll_area).height()  # (no class search)
        self._todo.sort(key=lambda card: self._distance(card, top, bottom), reverse=True)
        anchor = self._anchor(top)
        end = time.perf_counter() + SLICE_BUDGET_MS / 1000
        while self._todo:
            began = time.perf_counter()
            card: _Refreshable = self._todo.pop()  # type: ignore[assignment]
            card.refresh_units()
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
        """The first item of the chat whose bottom is below the view's top, and its top (None
        when the view follows the newest item: it goes on following)."""
        chat = self._chat
        if chat.following:
            return None
        host = self._host()
        for item in chat.items():
            if not item.isVisible():
                continue
            y = item.mapTo(host, QPoint(0, 0)).y()
            if y + item.height() > top:
                return item, y
        return None

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
            bar.setValue(bar.value() + moved)
