"""WideArea: content wider than the chat (a calc sheet's formulas, a result table) scrolls sideways
inside its own card, so the chat itself never does."""

from __future__ import annotations

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import QSize
from PySide6.QtWidgets import QFrame, QScrollArea, QSizePolicy, QWidget

from caec_desktop.ui.qt_children import viewport

_SLACK = 4
"""Pixels below the content: a rich-text label's size hint leaves its last line a little short."""


class WideArea(QScrollArea):
    """A horizontal-only scroll area as tall as its content (plus the scroll bar when needed)."""

    def __init__(self, content: QWidget | None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._viewport = viewport(self)
        """Its viewport's Python object, kept: `viewport()` returns it without PySide6's class
        search (qt_children.py; a result card's table asked first, 15-30 ms in the first card)."""
        if content is not None:
            self.setWidget(content)
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setVerticalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setHorizontalScrollBarPolicy(QtCore.Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        policy = QSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        policy.setHeightForWidth(True)
        self.setSizePolicy(policy)

    def _content(self) -> QSize:
        widget = self.widget()
        return widget.sizeHint() if widget is not None else QSize(0, 0)

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        content = self._content()
        bar = self.horizontalScrollBar().sizeHint().height() if content.width() > width else 0
        return content.height() + bar + _SLACK

    def sizeHint(self) -> QSize:
        content = self._content()
        return QSize(content.width(), content.height() + _SLACK)

    def minimumSizeHint(self) -> QSize:
        return QSize(40, self.heightForWidth(40))

    def resizeEvent(self, event: object) -> None:  # type: ignore[override]
        super().resizeEvent(event)  # type: ignore[arg-type]
        wanted = self.heightForWidth(self.width())
        if self.height() != wanted:
            self.updateGeometry()
