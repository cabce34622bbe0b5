"""Conversation history: the SQLite store and the recorder that saves each finished turn."""

from __future__ import annotations

from caec_desktop.services.history.recorder import ConversationRecorder, open_recorder
from caec_desktop.services.history.store import (
    Conversation,
    HistoryReader,
    HistoryStore,
    LoadedConversation,
    StoredTurn,
    default_path,
)

__all__ = [
    "Conversation",
    "ConversationRecorder",
    "HistoryReader",
    "HistoryStore",
    "LoadedConversation",
    "StoredTurn",
    "default_path",
    "open_recorder",
]
