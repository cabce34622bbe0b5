"""ConversationList: the saved conversations beside the chat — search, new, rename, delete, open.

Selecting a row asks to open that conversation (`conversationSelected`); the window decides what
opening means. Rename edits the name in place (F2, double-click or the Rename button); delete asks
first with a message box opened by `open()` (never `exec()`, which would stall the asyncio loop,
qasync issue #59). Search filters as you type, a moment after the last key, over the store's
search (names, requests and results).
"""

from __future__ import annotations

import sqlite3

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLineEdit,
    QListView,
    QMessageBox,
    QWidget,
)

from caec_desktop.services.history import HistoryStore
from caec_desktop.services.history.store import error_words
from caec_desktop.ui.compact_button import compact_button
from caec_desktop.ui.conversation_delegate import ConversationDelegate
from caec_desktop.ui.conversation_model import ConversationListModel
from caec_desktop.ui.conversation_place import conversation_frame
from caec_desktop.ui.qt_children import viewport

SEARCH_DELAY_MS = 150
"""Search after the typing pauses this long (one store query per pause, not per key)."""
CONFIRM_NAME_CHARS = 80
"""The delete question names the conversation in at most this many characters (the rest "…"):
a name renamed to a pasted paragraph made the box taller than the screen, its Yes and No below
it (1,992 px for 4,000 characters at 800×600)."""


def short_name(name: str, most: int = CONFIRM_NAME_CHARS) -> str:
    """`name`, or its first `most` - 1 characters and "…" if longer."""
    return name if len(name) <= most else name[: most - 1] + "…"


class ConversationList(QWidget):
    """The conversation list with its search box and New / Rename / Delete buttons."""

    conversationSelected = Signal(int)
    newRequested = Signal()
    conversationDeleted = Signal(int)

    def __init__(self, store: HistoryStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = ConversationListModel(store, self)
        self.current_id: int | None = None
        """The conversation the window shows (None: a new one, not saved yet)."""
        self.confirm: QMessageBox | None = None

        self.search = QLineEdit()
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(SEARCH_DELAY_MS)
        self._search_timer.timeout.connect(self.apply_search)
        self.search.textChanged.connect(self._search_timer.start)

        self.view = QListView()
        self.view.setModel(self.model)
        self.view.setItemDelegate(ConversationDelegate(self.view))
        self.view.setUniformItemSizes(False)
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(
            QAbstractItemView.EditTrigger.DoubleClicked
            | QAbstractItemView.EditTrigger.EditKeyPressed
        )
        self.view.selectionModel().currentChanged.connect(self._on_view_current_changed)
        self._viewport = viewport(self.view)
        """The list's viewport's Python object, kept (see qt_children)."""

        # Tool buttons, as wide as their text (a push button is at least 80 px in most styles:
        # three of them made the dock 256 px, too wide for the window on an 800-px screen).
        self.new_button = compact_button("New")
        self.new_button.clicked.connect(self.newRequested)
        self.rename_button = compact_button("Rename")
        self.rename_button.clicked.connect(self.rename_current)
        self.delete_button = compact_button("Delete")
        self.delete_button.clicked.connect(self.ask_delete)
        buttons: list[QWidget] = [self.new_button, self.rename_button, self.delete_button]
        conversation_frame(self, self.search, self.view, buttons)  # as the dock's place
        self.model.modelReset.connect(self._show_current)
        self._update_buttons()

    # --- what is shown -------------------------------------------------------------------------
    def refresh(self) -> None:
        """Re-read the store (a turn was saved, a conversation added or deleted)."""
        self.model.refresh()

    def apply_search(self) -> None:
        """Filter by the search box's text now (typing does it after SEARCH_DELAY_MS)."""
        self._search_timer.stop()
        self.model.set_filter(self.search.text())

    def set_current(self, conversation_id: int | None) -> None:
        """Mark the conversation the window shows, without asking to open it again."""
        self.current_id = conversation_id
        self._show_current()

    def _show_current(self) -> None:
        row = self.model.row_of(self.current_id)
        selection = self.view.selectionModel()
        selection.blockSignals(True)  # showing the current one is not a request to open it
        if row < 0:
            selection.clear()
        else:
            selection.setCurrentIndex(
                self.model.index(row),
                QItemSelectionModel.SelectionFlag.ClearAndSelect,
            )
        selection.blockSignals(False)
        self._viewport.update()
        self._update_buttons()

    def _update_buttons(self) -> None:
        chosen = self.view.currentIndex().isValid()
        self.rename_button.setEnabled(chosen)
        self.delete_button.setEnabled(chosen)

    # --- actions -------------------------------------------------------------------------------
    def rename_current(self) -> None:
        """Edit the selected conversation's name in place."""
        index = self.view.currentIndex()
        if index.isValid():
            self.view.edit(index)

    def ask_delete(self) -> None:
        """Ask before deleting the selected conversation (the answer arrives via `finished`)."""
        index = self.view.currentIndex()
        if not index.isValid():
            return
        conv = self.model.conversation(index.row())
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Delete conversation",
            f"Delete “{short_name(conv.name)}” with all its turns and trace? "
            "This cannot be undone.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)  # the name as the user typed it
        box.setDefaultButton(QMessageBox.StandardButton.No)
        box.finished.connect(lambda result: self._on_confirm_finished(conv.id, result))
        self.confirm = box
        box.open()

    def _on_confirm_finished(self, conversation_id: int, result: int) -> None:
        if self.confirm is not None:
            self.confirm.deleteLater()
            self.confirm = None
        if result != QMessageBox.StandardButton.Yes:
            return
        try:
            self.model.store.delete_conversation(conversation_id)
        except (KeyError, sqlite3.Error) as exc:
            self.model.failed.emit(f"Conversation not deleted: {error_words(exc)}")
            return
        self.refresh()
        self.conversationDeleted.emit(conversation_id)

    def _on_view_current_changed(self, current: QModelIndex, _previous: QModelIndex) -> None:
        self._update_buttons()
        if not current.isValid():
            return
        conv = self.model.conversation(current.row())
        if conv.id != self.current_id:
            self.conversationSelected.emit(conv.id)
