"""ChatPane: the conversation (user turns, answers, tool result cards) and the message box.

While a model writes its answer, a "model is writing…" bubble grows with the streamed text; it is
re-rendered at most once per `RENDER_INTERVAL_MS` however fast text arrives, and removed when the
model call ends, where the final answer takes its place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import QEvent, QTimer, Signal
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

if TYPE_CHECKING:
    from caec_desktop.ui.sweep_card import SweepCard

_STYLES = {
    "user": "background: #e8f0fe; border-radius: 6px; padding: 6px;",
    "answer": "background: #f6f6f6; border-radius: 6px; padding: 6px;",
    "error": "background: #fdecea; color: #8a1c1c; border-radius: 6px; padding: 6px;",
    "writing": "background: #f6f6f6; border: 1px dashed #b0b0b0; border-radius: 6px; padding: 6px;",
}
WRITING_NOTE = "*model is writing…*"
RENDER_INTERVAL_MS = 25
"""Delay from streamed text to its render, and the least time between two renders. Half the
LLM layer's 50 ms between delta events, so a render falls between two trace-table updates (each
delta is also a trace row) instead of in the same frame: measured by bench/bench_streaming.py, the
longest stall was 14–25 ms at 50 ms (the two in step) and 10–14 ms at 25 ms."""


_RELAYOUT_EVENTS = frozenset(
    {
        QEvent.Type.Polish,
        QEvent.Type.StyleChange,
        QEvent.Type.FontChange,
        QEvent.Type.ContentsRectChange,
    }
)


class Bubble(QLabel):
    """A chat bubble: a word-wrapped label that remembers its height for each width.

    QLabel lays its text out again on every `heightForWidth` call, and the chat's layout asks every
    bubble about three times whenever any bubble changes size: ~1 ms per call for an answer, so
    each re-render of the growing bubble cost ~3 ms per earlier bubble. The cache is dropped when
    the text, font, style or margins change.
    """

    def __init__(self) -> None:
        super().__init__()
        self._heights: dict[int, int] = {}

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


class ChatPane(QWidget):
    """Shows turns as they happen; Send becomes Stop while a run is going."""

    sendRequested = Signal(str)
    stopRequested = Signal()
    openInForm = Signal(str, dict, dict)
    writingShown = Signal(str)
    """The "model is writing…" bubble was rendered with this text (the model's words so far)."""

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
        self._writing: QLabel | None = None
        self._written: list[str] = []
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.setInterval(RENDER_INTERVAL_MS)
        self._render_timer.timeout.connect(self._render_writing)

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
        label = Bubble()
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

    def add_result(self, data: dict[str, Any]) -> ResultCard | SweepCard:
        """Append the card of a tool_result event (a sweep's: plot and table)."""
        from caec_desktop.tools.sweep import SWEEP_TOOL  # the tools load after start-up

        card: ResultCard | SweepCard
        if data.get("tool") == SWEEP_TOOL:
            from caec_desktop.ui.sweep_card import SweepCard

            card = SweepCard(data)
        else:
            card = ResultCard(data)
        card.openInForm.connect(self.openInForm)
        self._append(card)
        return card

    def stream_text(self, delta: str) -> None:
        """Add text the model is writing to the "model is writing…" bubble (made on first use)."""
        if not delta:
            return
        if self._writing is None:
            self._writing = self.add_message("writing", WRITING_NOTE)
        self._written.append(delta)
        if not self._render_timer.isActive():
            self._render_timer.start()

    def writing_text(self) -> str | None:
        """The text streamed into the writing bubble so far; None when there is no bubble."""
        return "".join(self._written) if self._writing is not None else None

    def end_stream(self) -> None:
        """Remove the writing bubble: the model call ended (its answer or the next call follows)."""
        self._render_timer.stop()
        self._written = []
        if self._writing is not None:
            self._list.removeWidget(self._writing)
            self._writing.deleteLater()
            self._writing = None

    def _render_writing(self) -> None:
        if self._writing is None:
            return
        bar = self.scroll_area.verticalScrollBar()
        following = bar.value() >= bar.maximum() - 8  # the reader is at the end: stay there
        text = "".join(self._written)
        self._writing.setText(f"{WRITING_NOTE}\n\n{text}")
        if following:
            QTimer.singleShot(0, self, self._scroll_to_end)
        self.writingShown.emit(text)

    def clear(self) -> None:
        self.end_stream()
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
