"""The error banner's text: at most `BANNER_MAX_LINES` lines tall, the rest a scroll away.

A failed run's message comes to the banner as it is: a server's HTML error page, a long list of
problems. As a word-wrapped label it grew with its text: at 800×600 a 2,800-character message
took 264 px of the window, the chat's view shrank to a few lines, and the message itself was cut
at its top and bottom, with no way to read it. The label now sits in a scroll area as tall as its
text up to `BANNER_MAX_LINES` lines; a longer text scrolls inside it, and can be selected and
copied.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QFrame, QLabel, QScrollArea, QWidget

if TYPE_CHECKING:
    from PySide6.QtGui import QResizeEvent

BANNER_MAX_LINES = 5
"""The banner's text is never taller than this many lines (and its padding)."""
BANNER_STYLE = "background: #f8d7da; color: #721c24; padding: 6px;"


class BannerText(QScrollArea):
    """A word-wrapped, selectable `label` as tall as its text, up to `BANNER_MAX_LINES` lines."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setStyleSheet(BANNER_STYLE)
        self.label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setWidget(self.label)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setStyleSheet("QScrollArea { background: #f8d7da; }")
        self.setMinimumWidth(100)
        self._height = 0

    def most_height(self) -> int:
        """`BANNER_MAX_LINES` lines of the label's text and its padding."""
        margins = self.label.contentsMargins()
        lines = self.label.fontMetrics().lineSpacing() * BANNER_MAX_LINES
        return lines + margins.top() + margins.bottom()

    def text_height(self) -> int:
        """The height the label's text needs at the area's width, at most `most_height`."""
        width = max(1, self.viewport().width() if self.isVisible() else self.width())
        need = self.label.heightForWidth(width)
        if need < 0:
            need = self.label.sizeHint().height()
        return min(need, self.most_height())

    def sizeHint(self) -> QSize:
        return QSize(super().sizeHint().width(), self.text_height())

    def minimumSizeHint(self) -> QSize:
        return QSize(self.minimumWidth(), self.text_height())

    def set_text(self, text: str) -> None:
        self.label.setText(text)
        self.verticalScrollBar().setValue(0)
        self._update_height()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._update_height()  # a new width wraps the text anew

    def _update_height(self) -> None:
        height = self.text_height()
        if height != self._height:
            self._height = height
            self.setFixedHeight(height)
