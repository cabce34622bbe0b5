"""ChatPane: the conversation (user turns, answers, tool result cards) and the message box."""

from __future__ import annotations

from typing import Any

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from caec_desktop.ui.chat_input import ChatInput
from caec_desktop.ui.result_card import ResultCard

_STYLES = {
    "user": "background: #e8f0fe; border-radius: 6px; padding: 6px;",
    "answer": "background: #f6f6f6; border-radius: 6px; padding: 6px;",
    "error": "background: #fdecea; color: #8a1c1c; border-radius: 6px; padding: 6px;",
}


class ChatPane(QWidget):
    """Shows turns as they happen; Send becomes Stop while a run is going."""

    sendRequested = Signal(str)
    stopRequested = Signal()
    openInForm = Signal(str, dict)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.running = False
        self._host = QWidget()
        self._list = QVBoxLayout(self._host)
        self._list.addStretch(1)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setWidget(self._host)
        self.input = ChatInput()
        self.input.setMaximumHeight(90)
        self.input.submitted.connect(self._on_input_submitted)
        self.send_button = QPushButton("Send")
        self.send_button.clicked.connect(self._on_send_button_clicked)
        row = QHBoxLayout()
        row.addWidget(self.input, 1)
        row.addWidget(self.send_button)
        lay = QVBoxLayout(self)
        lay.addWidget(self.scroll_area, 1)
        lay.addLayout(row)

    # --- content ---------------------------------------------------------------------------------
    def items(self) -> list[QWidget]:
        """The message widgets, oldest first."""
        out = []
        for i in range(self._list.count()):
            item = self._list.itemAt(i)
            w = item.widget() if item is not None else None
            if w is not None:
                out.append(w)
        return out

    def cards(self) -> list[ResultCard]:
        return [w for w in self.items() if isinstance(w, ResultCard)]

    def add_message(self, role: str, markdown: str) -> QLabel:
        """Append a user/answer/error bubble (Markdown)."""
        label = QLabel()
        label.setTextFormat(
            QtCore.Qt.TextFormat.PlainText if role == "user" else QtCore.Qt.TextFormat.MarkdownText
        )
        label.setText(markdown)
        label.setWordWrap(True)
        label.setTextInteractionFlags(QtCore.Qt.TextInteractionFlag.TextSelectableByMouse)
        label.setStyleSheet(_STYLES.get(role, ""))
        label.setProperty("role", role)
        self._append(label)
        return label

    def add_result(self, data: dict[str, Any]) -> ResultCard:
        """Append the card of a tool_result event."""
        card = ResultCard(data)
        card.openInForm.connect(self.openInForm)
        self._append(card)
        return card

    def clear(self) -> None:
        for w in self.items():
            self._list.removeWidget(w)
            w.deleteLater()

    def _append(self, widget: QWidget) -> None:
        self._list.insertWidget(self._list.count() - 1, widget)
        QTimer.singleShot(0, self, self._scroll_to_end)  # dropped if the pane is deleted first

    def _scroll_to_end(self) -> None:
        bar = self.scroll_area.verticalScrollBar()
        bar.setValue(bar.maximum())

    # --- running state ---------------------------------------------------------------------------
    def set_running(self, running: bool) -> None:
        """While running, the Send button is a Stop button."""
        self.running = running
        self.input.setReadOnly(running)
        self.send_button.setText("Stop" if running else "Send")

    def _on_input_submitted(self, text: str) -> None:
        self.add_message("user", text)
        self.sendRequested.emit(text)

    def _on_send_button_clicked(self) -> None:
        if self.running:
            self.stopRequested.emit()
        else:
            self.input.submit()
