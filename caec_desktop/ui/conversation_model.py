"""ConversationListModel: the history store's conversations as a Qt list model.

A thin adapter (napari's item-model habit): the store is the truth, the model holds the rows of
the last query (all conversations, or those matching the search text) and re-reads them on
`refresh()`. Editing a name renames it in the store. `CONVERSATION_ROLE` hands the `Conversation`
itself to views and tests.
"""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from datetime import datetime
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt, Signal

from caec_desktop.services.history import Conversation, HistoryStore
from caec_desktop.services.history.store import SearchTextError, error_words

CONVERSATION_ROLE = Qt.ItemDataRole.UserRole
UPDATED_ROLE = Qt.ItemDataRole.UserRole + 1
"""The conversation's last turn as a local `datetime` (None when the stored time is unreadable)."""


def local_time(stamp: str) -> datetime | None:
    """A stored ISO time (UTC) in the local time zone."""
    try:
        return datetime.fromisoformat(stamp).astimezone()
    except ValueError:
        return None


_Index = QModelIndex | QPersistentModelIndex


class ConversationListModel(QAbstractListModel):
    """Conversations, most recently updated first; `set_filter` narrows them to a search."""

    renamed = Signal(int, str)
    """A conversation was renamed through the model (id, new name)."""
    failed = Signal(str)
    """The store could not be read or written (a message for the window's error banner)."""

    def __init__(self, store: HistoryStore, parent: Any = None) -> None:
        super().__init__(parent)
        self.store = store
        self.filter_text = ""
        self._rows: list[Conversation] = []
        self.refresh()

    # --- reading the store -------------------------------------------------------------------
    def refresh(self) -> None:
        """Read the conversations again (after a turn was saved, a delete, a new search)."""
        text = self.filter_text.strip()
        store = self.store
        try:
            rows = store.search_conversations(text) if text else store.list_conversations()
        except SearchTextError as exc:  # NUL, broken characters, too long: say so, list nothing
            self.failed.emit(str(exc))
            rows = []
        except sqlite3.Error as exc:
            self.failed.emit(f"Conversation list not read: {error_words(exc)}")
            return
        self.beginResetModel()
        self._rows = rows
        self.endResetModel()

    def set_filter(self, text: str) -> None:
        """Show only conversations whose name, requests or results contain `text` ("" = all)."""
        self.filter_text = text
        self.refresh()

    def conversation(self, row: int) -> Conversation:
        return self._rows[row]

    def row_of(self, conversation_id: int | None) -> int:
        """The row showing `conversation_id`, or -1 when it is not listed."""
        for row, conv in enumerate(self._rows):
            if conv.id == conversation_id:
                return row
        return -1

    # --- Qt model API --------------------------------------------------------------------------
    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        conv = self._rows[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return conv.name
        if role == Qt.ItemDataRole.ToolTipRole:
            when = local_time(conv.updated)
            shown = when.strftime("%Y-%m-%d %H:%M") if when else conv.updated
            from caec_desktop.ui.markdown_blocks import literal_tooltip

            return literal_tooltip(f"{conv.name}\nlast turn {shown}")  # the name as typed
        if role == UPDATED_ROLE:
            return local_time(conv.updated)
        if role == CONVERSATION_ROLE:
            return conv
        return None

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEditable

    def setData(self, index: _Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        """Rename the conversation in the store; an empty name is refused."""
        if role != Qt.ItemDataRole.EditRole or not index.isValid():
            return False
        name = " ".join(str(value).split())
        conv = self._rows[index.row()]
        if not name or name == conv.name:
            return False
        try:
            self.store.rename_conversation(conv.id, name)
        except (KeyError, sqlite3.Error) as exc:
            self.failed.emit(f"Conversation not renamed: {error_words(exc)}")
            return False
        self._rows[index.row()] = replace(conv, name=name)
        self.dataChanged.emit(index, index, [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole])
        self.renamed.emit(conv.id, name)
        return True
