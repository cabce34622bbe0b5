"""QuestionQueue: questions typed while a run is going, asked in order when it ends.

Shown above the message box as "Queued 1: …" rows, each with a ✕ that removes it; nothing typed
during a run is lost or cut into pieces.
"""

from __future__ import annotations

from PySide6 import QtCore
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QToolButton, QVBoxLayout, QWidget


class QuestionQueue(QWidget):
    """An ordered list of waiting questions with a remove button each; hidden when empty."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._texts: list[str] = []
        self._rows = QVBoxLayout(self)
        self._rows.setContentsMargins(0, 0, 0, 0)
        self._rows.setSpacing(2)
        self.hide()

    def texts(self) -> list[str]:
        return list(self._texts)

    def __len__(self) -> int:
        return len(self._texts)

    def add(self, text: str) -> None:
        self._texts.append(text)
        self._rebuild()

    def pop(self) -> str | None:
        """The oldest waiting question, taken off the queue (None when empty)."""
        if not self._texts:
            return None
        text = self._texts.pop(0)
        self._rebuild()
        return text

    def remove(self, index: int) -> None:
        if 0 <= index < len(self._texts):
            del self._texts[index]
            self._rebuild()

    def remove_buttons(self) -> list[QToolButton]:
        return [b for b in self.findChildren(QToolButton) if b.isVisibleTo(self)]

    def _rebuild(self) -> None:
        while self._rows.count():
            item = self._rows.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        for i, text in enumerate(self._texts):
            row = QWidget()
            lay = QHBoxLayout(row)
            lay.setContentsMargins(4, 0, 0, 0)
            label = QLabel(f"Queued {i + 1}: {text}")
            label.setTextFormat(QtCore.Qt.TextFormat.PlainText)  # the user's words, as typed
            label.setWordWrap(True)
            label.setMinimumWidth(40)
            label.setStyleSheet("color: #555;")
            label.setToolTip("Asked when the current run ends")
            remove = QToolButton()
            remove.setText("✕")
            remove.setToolTip("Remove this queued question")
            remove.setAccessibleName(f"Remove queued question {i + 1}")
            remove.clicked.connect(lambda _=False, n=i: self.remove(n))
            lay.addWidget(label, 1)
            lay.addWidget(remove)
            self._rows.addWidget(row)
        self.setVisible(bool(self._texts))
        self.changed.emit()
