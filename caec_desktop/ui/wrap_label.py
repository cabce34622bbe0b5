"""WrapLabel: a word-wrapped label that remembers its height for each width.

QLabel lays its text out again on every `heightForWidth` call, and a layout asks each of its
labels about three times whenever anything in it changes size (the chat's scroll area asks at two
widths, with and without its scroll bar): ~1 ms per call for a chat answer, so each render of a
streamed answer cost ~3 ms per earlier answer, and the labels of every result card in the chat
were laid out again too. The cache is dropped when the text, font, style or margins change.
"""

from __future__ import annotations

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QLabel

_RELAYOUT_EVENTS = frozenset(
    {
        QEvent.Type.Polish,
        QEvent.Type.StyleChange,
        QEvent.Type.FontChange,
        QEvent.Type.ContentsRectChange,
    }
)


class WrapLabel(QLabel):
    """A QLabel whose `heightForWidth` is computed once per width and text."""

    def __init__(self, text: str = "") -> None:
        self._heights: dict[int, int] = {}  # first: `event` may run inside QLabel's constructor
        super().__init__(text)

    def setText(self, text: str) -> None:
        self._heights.clear()
        super().setText(text)

    def setTextFormat(self, fmt: QtCore.Qt.TextFormat) -> None:
        self._heights.clear()
        super().setTextFormat(fmt)

    def setWordWrap(self, on: bool) -> None:
        self._heights.clear()
        super().setWordWrap(on)

    def event(self, event: QEvent) -> bool:
        if event.type() in _RELAYOUT_EVENTS:  # a new style sheet's padding counts once polished
            self._heights.clear()
        return super().event(event)

    def heightForWidth(self, width: int) -> int:
        height = self._heights.get(width)
        if height is None:
            height = self._heights[width] = super().heightForWidth(width)
        return height
