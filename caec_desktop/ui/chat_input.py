"""ChatInput: Enter sends, Shift+Enter starts a new line, Up/Down walk through sent messages.

A message holding an API key (key-shaped, or a key the app knows: `settings.redact`) is not
sent: `keyPasted` asks the window what to do, and the text stays in the box meanwhile.

The window's first frame shows this box before the rest of the chat is built (main_window.py), so
this module imports only Qt: the key check loads on the first send.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6 import QtCore  # QtCore.Qt at call time: see main_window.py
from PySide6.QtCore import Signal
from PySide6.QtWidgets import QPlainTextEdit, QWidget

if TYPE_CHECKING:  # (PySide6 builds a class on first use: QKeyEvent's ~3 ms, not before show)
    from PySide6.QtGui import QKeyEvent

IDLE_PLACEHOLDER = (
    "Ask for a calculation, e.g. rayleigh time step for 1 mm glass beads  "
    "(Enter sends, Shift+Enter new line)"
)
RUNNING_PLACEHOLDER = "A run is going: type on, Enter queues your next question (Esc stops the run)"
MAX_HEIGHT = 90
"""The box's height in pixels (a QPlainTextEdit's size hint is taller, so the box is this tall
whatever its text; a longer text scrolls)."""


class ChatInput(QPlainTextEdit):
    """A multi-line message box with a history of what was sent."""

    submitted = Signal(str)
    keyPasted = Signal(str)
    """The message to send holds an API key; it was not sent (the window asks what to do)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTabChangesFocus(True)
        self.setPlaceholderText(IDLE_PLACEHOLDER)
        self.setMaximumHeight(MAX_HEIGHT)
        self.history: list[str] = []
        self._pos = 0

    def keyPressEvent(self, e: QKeyEvent) -> None:
        key, mods = e.key(), e.modifiers()
        if key in (QtCore.Qt.Key.Key_Return, QtCore.Qt.Key.Key_Enter):
            if mods & QtCore.Qt.KeyboardModifier.ShiftModifier:
                self.insertPlainText("\n")
            else:
                self.submit()
            return
        cursor = self.textCursor()
        if key == QtCore.Qt.Key.Key_Up and cursor.blockNumber() == 0 and self.history:
            self._recall(self._pos - 1)
            return
        last_block = self.document().blockCount() - 1
        if key == QtCore.Qt.Key.Key_Down and cursor.blockNumber() == last_block and self.history:
            self._recall(self._pos + 1)
            return
        super().keyPressEvent(e)

    def submit(self) -> None:
        """Send the text (if any), remember it, clear the box (during a run the chat queues it)."""
        text = self.toPlainText().strip()
        if not text:
            return
        from caec_desktop.settings.redact import found_secrets

        if found_secrets(text):
            self.keyPasted.emit(text)
            return
        self.send_text(text)

    def send_text(self, text: str) -> None:
        """Send `text` as if typed: remember it, clear the box, emit `submitted`."""
        if not self.history or self.history[-1] != text:
            self.history.append(text)
        self._pos = len(self.history)
        self.clear()
        self.submitted.emit(text)

    def _recall(self, pos: int) -> None:
        self._pos = max(0, min(pos, len(self.history)))
        self.setPlainText(self.history[self._pos] if self._pos < len(self.history) else "")
        from PySide6.QtGui import QTextCursor

        self.moveCursor(QTextCursor.MoveOperation.End)
