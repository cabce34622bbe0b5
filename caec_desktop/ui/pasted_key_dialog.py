"""PastedKeyDialog: a chat message holds an API key; store it as the key, send without it, or edit.

The chat input finds the key (`settings.redact.found_secrets`) before anything is sent; this box
only asks. Open it with `open()` + `finished` (qasync issue #59); `choice` says what was picked.
"""

from __future__ import annotations

from typing import Literal

from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget

Choice = Literal["store", "send", "edit"]


class PastedKeyDialog(QMessageBox):
    """Asks what to do with a message that contains an API key.

    Args:
        can_store: offer "Store as API key" (the message holds a whole key-shaped string, and
            settings are there to take it).
        host: where a stored key would be sent (shown to the user).
        parent: the window.
    """

    def __init__(self, can_store: bool, host: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("API key in your message")
        self.setIcon(QMessageBox.Icon.Warning)
        self.setText("Your message contains what looks like an API key.")
        self.setInformativeText(
            "Messages are sent to the model and saved in the history, so a key does not belong "
            "there. "
            + (
                f"Store it as your API key instead (kept in the key store, sent only to {host})?"
                if can_store
                else "It can be removed from the message before it is sent."
            )
        )
        self.choice: Choice = "edit"
        self.store_button: QPushButton | None = None
        if can_store:
            self.store_button = self.addButton(
                "Store as API key", QMessageBox.ButtonRole.AcceptRole
            )
        self.send_button = self.addButton("Send without the key", QMessageBox.ButtonRole.ApplyRole)
        self.edit_button = self.addButton("Edit the message", QMessageBox.ButtonRole.RejectRole)
        self.setDefaultButton(self.store_button or self.send_button)
        self.setEscapeButton(self.edit_button)
        self.buttonClicked.connect(self._on_button_clicked)

    def _on_button_clicked(self, button: object) -> None:
        if button is self.store_button:
            self.choice = "store"
        elif button is self.send_button:
            self.choice = "send"
        else:
            self.choice = "edit"
