"""Save every finished turn of one conversation, as the window or `caec chat` produces them.

The conversation row is created on the first turn (no empty conversations from opening and closing
the app) and named after the first request. The turn's events are stored in the `events` table,
not inside the turn's JSON, so each is stored once.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from caec_desktop.agent.trace import TraceEvent
from caec_desktop.services.history.store import HistoryStore

NAME_LENGTH = 60

log = logging.getLogger(__name__)


def asked_text(events: list[TraceEvent]) -> str:
    """The request of a turn: the `text` of its `run_start` event ("" if none)."""
    for ev in events:
        if ev.kind == "run_start":
            return str(ev.data.get("text", ""))
    return ""


class ConversationRecorder:
    """Appends turns to one conversation of `store`; `conversation_id` is None until the first."""

    def __init__(self, store: HistoryStore, conversation_id: int | None = None) -> None:
        self.store = store
        self.conversation_id = conversation_id

    def record(self, turn: BaseModel, user_text: str | None = None) -> int:
        """Save `turn` (one transaction); returns its index in the conversation.

        Args:
            turn: the finished `session.TurnResult` (a model with an `events` list).
            user_text: what the user asked (default: taken from the turn's `run_start` event).
        """
        events: list[TraceEvent] = list(getattr(turn, "events", []))
        text = user_text if user_text is not None else asked_text(events)
        if self.conversation_id is None:
            name = " ".join(text.split())
            if len(name) > NAME_LENGTH:
                name = name[: NAME_LENGTH - 1] + "…"
            self.conversation_id = self.store.create_conversation(name or "Conversation")
        data = turn.model_dump(mode="json", exclude={"events"})
        return self.store.save_turn(self.conversation_id, text, data, events)


def record_runner(
    runner: Any, report: Callable[[str, BaseException], None], path: Path | None = None
) -> ConversationRecorder | None:
    """Save every turn that `runner.runFinished` emits into a new conversation of the history.

    Never raises: a history that cannot be opened or written is passed to `report` (the window's
    error banner) and the app goes on without it.

    Args:
        runner: anything with a `runFinished` signal carrying a TurnResult (or None).
        report: `ErrorSink.report(message, exc)`.
        path: database file (default: the user data dir).
    """
    try:
        recorder = ConversationRecorder(HistoryStore(path))
    except (OSError, sqlite3.Error) as exc:
        report(f"History unavailable, turns are not saved: {exc}", exc)
        return None

    def _on_run_finished(turn: BaseModel | None) -> None:
        if turn is None:
            return
        try:
            idx = recorder.record(turn)
        except (OSError, sqlite3.Error, ValueError) as exc:
            report(f"Turn not saved to history: {exc}", exc)
        else:
            log.info("turn %d saved to conversation %s", idx, recorder.conversation_id)

    runner.runFinished.connect(_on_run_finished)
    return recorder
